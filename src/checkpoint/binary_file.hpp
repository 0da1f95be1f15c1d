// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// A checkpoint file opened for positioned reads, and a bounded cursor over
// it for parsing binary headers (GGUF) without trusting their counts.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/result.hpp"

namespace eredu {

/// A regular file open for reading with pread. Move-only; closes on
/// destruction. Thread-safe for concurrent reads.
class BinaryFile {
 public:
  /// Opens `path`; messages name it `shown`. Errors: Io (missing, a
  /// directory, unreadable).
  static Result<BinaryFile> open(const std::string& path, std::string shown);

  BinaryFile(BinaryFile&& other) noexcept;
  BinaryFile& operator=(BinaryFile&& other) noexcept;
  BinaryFile(const BinaryFile&) = delete;
  BinaryFile& operator=(const BinaryFile&) = delete;
  ~BinaryFile();

  std::uint64_t size() const { return size_; }
  const std::string& shown() const { return shown_; }
  /// Reads exactly out.size() bytes at `offset`. Errors: Parse "<shown>:
  /// truncated: <what> needs bytes [a, b) of a file of n bytes" when the
  /// range passes the end; Io when the read fails.
  Result<void> read(std::uint64_t offset, std::span<char> out, std::string_view what) const;

 private:
  BinaryFile(int fd, std::uint64_t size, std::string shown)
      : fd_(fd), size_(size), shown_(std::move(shown)) {}
  int fd_ = -1;
  std::uint64_t size_ = 0;
  std::string shown_;
};

/// Sequential little-endian reads from a BinaryFile through a 64 KiB
/// window. Every length it is asked for is checked against the bytes left
/// in the file before anything is allocated.
class BinaryCursor {
 public:
  explicit BinaryCursor(const BinaryFile& file, std::uint64_t position = 0)
      : file_(file), position_(position) {}

  std::uint64_t position() const { return position_; }
  /// Bytes between the position and the end of the file.
  std::uint64_t remaining() const {
    return position_ < file_.size() ? file_.size() - position_ : 0;
  }
  Result<void> bytes(std::span<char> out, std::string_view what);
  Result<std::uint8_t> u8(std::string_view what);
  Result<std::uint16_t> u16(std::string_view what);
  Result<std::uint32_t> u32(std::string_view what);
  Result<std::uint64_t> u64(std::string_view what);
  /// A GGUF string: u64 length, then that many bytes (not NUL-terminated).
  /// Errors: Parse when the length passes the end of the file.
  Result<std::string> string(std::string_view what);
  /// Moves the position forward by `count` bytes (Parse past the end).
  Result<void> skip(std::uint64_t count, std::string_view what);

 private:
  const BinaryFile& file_;
  std::uint64_t position_ = 0;
  std::vector<char> window_;
  std::uint64_t window_start_ = 0;
};

}  // namespace eredu
