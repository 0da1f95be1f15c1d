// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Reading a whole file into memory, never more than a bound: the model
// folder's JSON files, and what the command reads (eredu_read_file).
#pragma once

#include <cstddef>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>

#include "core/result.hpp"

namespace eredu {

/// The most bytes read_text_file reads: 256 MiB. Its files are parsed into
/// trees of about four times their size, and the largest real one (the
/// weight index of a 671B mixture of experts) holds about 10 MB. A FIFO or a
/// device that never ends is cut off here too.
inline constexpr std::size_t kMaxTextFileBytes = std::size_t{256} << 20;

/// Bytes in memory from malloc, always followed by a NUL: what the C API
/// hands a caller to free with eredu_buffer_free, without copying it.
class MallocBytes {
 public:
  std::size_t size() const { return size_; }
  /// Appends `count` bytes. Throws std::bad_alloc when memory runs out.
  void append(const char* bytes, std::size_t count);
  /// The bytes, NUL-terminated, for the caller to free(); empty afterwards.
  /// Throws std::bad_alloc when memory runs out.
  char* release();

 private:
  struct Free {
    void operator()(char* bytes) const { std::free(bytes); }
  };
  std::unique_ptr<char, Free> data_;
  std::size_t size_ = 0;
  std::size_t capacity_ = 0;  // bytes allocated, the NUL's included
};

/// The bytes of the file at `path`, or of standard input for "-", at most
/// `max_bytes` of them, so that neither a FIFO nor a device that never ends
/// nor a huge file exhausts memory. `shown` is how the messages name the
/// file. Errors: Io "cannot read <shown>: it is a directory" or "cannot
/// read <shown>: <strerror>"; InvalidArgument "cannot read <shown>: it
/// holds more than <max_bytes> bytes, the most eredu reads there".
Result<MallocBytes> read_bounded_file(const std::string& path, std::string_view shown,
                                      std::size_t max_bytes);

/// The same read of a JSON file to parse into a tree, at most
/// kMaxTextFileBytes (the library's paths name files in a folder, never
/// "-").
Result<std::string> read_text_file(const std::string& path, std::string_view shown);

}  // namespace eredu
