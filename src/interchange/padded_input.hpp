// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// A JSON document in memory the way simdjson reads it: followed by
// simdjson's padding.
#pragma once

#include <simdjson.h>

#include <cstddef>
#include <string>

namespace eredu {

/// The document followed by simdjson's padding. On Linux in pages of its
/// own: release_before hands them back while the document is read, and
/// unmapping them leaves malloc as it was (freeing a large malloc'ed block
/// raises glibc's mmap threshold and leaves the heap laid out differently
/// for the next load).
class PaddedInput {
 public:
  PaddedInput() = default;
  PaddedInput(const PaddedInput&) = delete;
  PaddedInput& operator=(const PaddedInput&) = delete;
  ~PaddedInput() { reset(); }

  /// Room for `size` bytes; false when out of memory. The padding reads as
  /// zeros.
  bool allocate(std::size_t size);
  void reset();

  /// Hands the whole pages before `location` (a position in the document)
  /// back to the system, so that a forward-only reader's input shrinks while
  /// what it builds grows. The caller must keep no view into them. Works in
  /// steps of about a megabyte; a no-op off Linux.
  void release_before(const char* location);

  char* data() const { return data_; }
  std::size_t size() const { return size_; }
  simdjson::padded_string_view view() const {
    return simdjson::padded_string_view(data_, size_, size_ + simdjson::SIMDJSON_PADDING);
  }

 private:
  char* data_ = nullptr;
  std::size_t size_ = 0;
  const char* unreleased_ = nullptr;  // the first byte not handed back
};

/// Reads the file at `path` into `input` the way simdjson's
/// padded_string::load does, with its error codes; the reason of an
/// IO_ERROR is left in errno.
simdjson::error_code read_file(const std::string& path, PaddedInput& input);

}  // namespace eredu
