// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "core/text_file.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>

namespace eredu {
namespace {

struct CloseFile {
  void operator()(std::FILE* file) const { std::fclose(file); }
};

// All of `stream`, at most `max_bytes`.
Result<std::string> read_stream(std::FILE* stream, std::string_view shown, std::size_t max_bytes) {
  std::string text;
  char buffer[1 << 16];
  std::size_t got = 0;
  while ((got = std::fread(buffer, 1, sizeof buffer, stream)) > 0) {
    if (got > max_bytes - text.size()) {
      return failf(Status::InvalidArgument,
                   "cannot read {}: it holds more than {} bytes, the most eredu reads there", shown,
                   max_bytes);
    }
    text.append(buffer, got);
  }
  if (std::ferror(stream) != 0) {
    return failf(Status::Io, "cannot read {}: {}", shown, std::strerror(errno));
  }
  return text;
}

}  // namespace

Result<std::string> read_bounded_file(const std::string& path, std::string_view shown,
                                      std::size_t max_bytes) {
  errno = 0;
  if (path == "-") return read_stream(stdin, shown, max_bytes);
  // A directory opens as a stream on Linux and then reads as empty text.
  std::error_code ignored;
  if (std::filesystem::is_directory(path, ignored)) {
    return failf(Status::Io, "cannot read {}: it is a directory", shown);
  }
  const std::unique_ptr<std::FILE, CloseFile> file(std::fopen(path.c_str(), "rb"));
  if (!file) return failf(Status::Io, "cannot read {}: {}", shown, std::strerror(errno));
  return read_stream(file.get(), shown, max_bytes);
}

Result<std::string> read_text_file(const std::string& path, std::string_view shown) {
  return read_bounded_file(path, shown, kMaxTextFileBytes);
}

}  // namespace eredu
