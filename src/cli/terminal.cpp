// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "cli/terminal.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <charconv>
#include <cstdlib>
#include <string_view>

namespace eredu::cli {

std::optional<std::size_t> terminal_columns() {
  if (const char* text = std::getenv("COLUMNS"); text != nullptr) {
    const std::string_view value(text);
    std::size_t columns = 0;
    auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), columns);
    if (error == std::errc() && end == value.data() + value.size() && columns > 0) return columns;
  }
  winsize size{};
  if (isatty(STDOUT_FILENO) == 1 && ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 &&
      size.ws_col > 0) {
    return size.ws_col;
  }
  return std::nullopt;
}

}  // namespace eredu::cli
