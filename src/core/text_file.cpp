// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "core/text_file.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <new>

namespace eredu {
namespace {

struct CloseFile {
  void operator()(std::FILE* file) const { std::fclose(file); }
};

// Appends all of `stream` to `out` (a std::string or MallocBytes), at most
// `max_bytes` in all.
template <class Bytes>
Result<void> read_stream(std::FILE* stream, std::string_view shown, std::size_t max_bytes,
                         Bytes& out) {
  char buffer[1 << 16];
  std::size_t got = 0;
  while ((got = std::fread(buffer, 1, sizeof buffer, stream)) > 0) {
    if (got > max_bytes - out.size()) {
      return failf(Status::InvalidArgument,
                   "cannot read {}: it holds more than {} bytes, the most eredu reads there", shown,
                   max_bytes);
    }
    out.append(buffer, got);
  }
  if (std::ferror(stream) != 0) {
    return failf(Status::Io, "cannot read {}: {}", shown, std::strerror(errno));
  }
  return outcome::success();
}

// The file at `path` ("-": standard input) into `out`.
template <class Bytes>
Result<void> read_file(const std::string& path, std::string_view shown, std::size_t max_bytes,
                       Bytes& out) {
  errno = 0;
  if (path == "-") return read_stream(stdin, shown, max_bytes, out);
  // A directory opens as a stream on Linux and then reads as empty text.
  std::error_code ignored;
  if (std::filesystem::is_directory(path, ignored)) {
    return failf(Status::Io, "cannot read {}: it is a directory", shown);
  }
  const std::unique_ptr<std::FILE, CloseFile> file(std::fopen(path.c_str(), "rb"));
  if (!file) return failf(Status::Io, "cannot read {}: {}", shown, std::strerror(errno));
  return read_stream(file.get(), shown, max_bytes, out);
}

}  // namespace

void MallocBytes::append(const char* bytes, std::size_t count) {
  // Room for the bytes and the NUL release() writes after them.
  if (capacity_ - size_ <= count) {
    std::size_t capacity = std::max(capacity_, std::size_t{1} << 16);
    while (capacity - size_ <= count) {
      if (capacity > std::numeric_limits<std::size_t>::max() / 2) throw std::bad_alloc();
      capacity *= 2;  // realloc moves a large block's pages, not its bytes
    }
    char* grown = static_cast<char*>(std::realloc(data_.get(), capacity));
    if (grown == nullptr) throw std::bad_alloc();
    static_cast<void>(data_.release());  // realloc took it
    data_.reset(grown);
    capacity_ = capacity;
  }
  if (count != 0) std::memcpy(data_.get() + size_, bytes, count);
  size_ += count;
}

char* MallocBytes::release() {
  append("", 0);  // makes room for the NUL when nothing was read
  data_.get()[size_] = '\0';
  size_ = 0;
  capacity_ = 0;
  return data_.release();
}

Result<MallocBytes> read_bounded_file(const std::string& path, std::string_view shown,
                                      std::size_t max_bytes) {
  MallocBytes bytes;
  EREDU_TRY(read_file(path, shown, max_bytes, bytes));
  return bytes;
}

Result<std::string> read_text_file(const std::string& path, std::string_view shown) {
  std::string text;
  EREDU_TRY(read_file(path, shown, kMaxTextFileBytes, text));
  return text;
}

}  // namespace eredu
