// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "core/json_syntax.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "core/text.hpp"

namespace eredu {
namespace {

// What stands at `offset` (inside `text`).
std::string what_stands_at(std::string_view text, std::size_t offset) {
  const auto byte = static_cast<unsigned char>(text[offset]);
  if (byte == 0) return "a NUL byte";
  if (byte < 0x20 || byte == 0x7F) return fmt::format("control character U+{:04X}", byte);
  if (byte < 0x80) return fmt::format("unexpected {}", debug_quoted(text.substr(offset, 1)));
  // The parser may stop on any byte of a character: start at its first.
  std::size_t start = offset;
  while (start > 0 && offset - start < 3 &&
         (static_cast<unsigned char>(text[start]) & 0xC0) == 0x80) {
    --start;
  }
  const std::size_t invalid = first_invalid_utf8(text.substr(start, 4));
  if (invalid != std::string_view::npos && start + invalid <= offset) {
    return fmt::format("byte 0x{:02X} is not UTF-8", byte);
  }
  std::size_t end = offset + 1;
  while (end < text.size() && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) ++end;
  return fmt::format("unexpected {}", debug_quoted(text.substr(start, end - start)));
}

}  // namespace

std::string json_syntax_at(std::string_view text, std::size_t offset) {
  const std::size_t at = std::min(offset, text.size());
  const std::string_view before = text.substr(0, at);
  const std::size_t line =
      1 + static_cast<std::size_t>(std::count(before.begin(), before.end(), '\n'));
  const std::size_t line_start = before.rfind('\n');
  const std::size_t column = line_start == std::string_view::npos ? at + 1 : at - line_start;
  const std::string what = at == text.size() ? "the document ends early" : what_stands_at(text, at);
  return fmt::format("line {}, column {}: {}", line, column, what);
}

}  // namespace eredu
