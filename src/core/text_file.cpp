// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "core/text_file.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace eredu {

Result<std::string> read_text_file(const std::string& path, std::string_view shown) {
  // A directory opens as a stream on Linux and then reads as empty text.
  std::error_code ignored;
  if (std::filesystem::is_directory(path, ignored)) {
    return failf(Status::Io, "cannot read {}: it is a directory", shown);
  }
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  if (in) text << in.rdbuf();
  if (!in || in.bad()) return failf(Status::Io, "cannot read {}: {}", shown, std::strerror(errno));
  return text.str();
}

}  // namespace eredu
