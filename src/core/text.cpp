// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "core/text.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdint>

namespace eredu {
namespace {

// Decodes one UTF-8 scalar at `pos`; returns its length, 0 when malformed.
std::size_t decode_utf8(std::string_view text, std::size_t pos, char32_t& out) {
  auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  unsigned char lead = byte(pos);
  std::size_t length = 0;
  char32_t value = 0;
  char32_t minimum = 0;
  if (lead < 0x80) {
    out = lead;
    return 1;
  } else if ((lead & 0xE0) == 0xC0) {
    length = 2, value = lead & 0x1F, minimum = 0x80;
  } else if ((lead & 0xF0) == 0xE0) {
    length = 3, value = lead & 0x0F, minimum = 0x800;
  } else if ((lead & 0xF8) == 0xF0) {
    length = 4, value = lead & 0x07, minimum = 0x10000;
  } else {
    return 0;
  }
  if (pos + length > text.size()) return 0;
  for (std::size_t i = 1; i < length; ++i) {
    unsigned char next = byte(pos + i);
    if ((next & 0xC0) != 0x80) return 0;
    value = (value << 6) | (next & 0x3F);
  }
  if (value < minimum || value > 0x10FFFF || (value >= 0xD800 && value <= 0xDFFF)) {
    return 0;
  }
  out = value;
  return length;
}

bool is_white_space(char32_t c) {
  return (c >= 0x09 && c <= 0x0D) || c == 0x20 || c == 0x85 || c == 0xA0 || c == 0x1680 ||
         (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F ||
         c == 0x3000;
}

}  // namespace

bool is_blank(std::string_view text) noexcept {
  std::size_t pos = 0;
  while (pos < text.size()) {
    char32_t c = 0;
    std::size_t length = decode_utf8(text, pos, c);
    if (length == 0 || !is_white_space(c)) return false;
    pos += length;
  }
  return true;
}

bool is_valid_utf8(std::string_view text) noexcept {
  return first_invalid_utf8(text) == std::string_view::npos;
}

std::size_t first_invalid_utf8(std::string_view text) noexcept {
  std::size_t pos = 0;
  while (pos < text.size()) {
    char32_t c = 0;
    std::size_t length = decode_utf8(text, pos, c);
    if (length == 0) return pos;
    pos += length;
  }
  return std::string_view::npos;
}

std::string to_valid_utf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  std::size_t pos = 0;
  while (pos < text.size()) {
    char32_t c = 0;
    std::size_t length = decode_utf8(text, pos, c);
    if (length == 0) {
      out += "\xEF\xBF\xBD";
      pos += 1;
    } else {
      out.append(text.substr(pos, length));
      pos += length;
    }
  }
  return out;
}

std::string debug_quoted(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 2);
  out.push_back('"');
  std::size_t pos = 0;
  while (pos < text.size()) {
    char32_t c = 0;
    std::size_t length = decode_utf8(text, pos, c);
    if (length == 0) {  // not UTF-8: show the byte, as a lossy decode would
      out += "\\u{fffd}";
      pos += 1;
      continue;
    }
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      case 0:
        out += "\\0";
        break;
      default:
        if (c < 0x20 || c == 0x7F || (c >= 0x80 && c < 0xA0)) {
          out += fmt::format("\\u{{{:x}}}", static_cast<std::uint32_t>(c));
        } else {
          out.append(text.substr(pos, length));
        }
    }
    pos += length;
  }
  out.push_back('"');
  return out;
}

void append_pointer_token(std::string& out, std::string_view key) {
  for (char c : key) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
      out += fmt::format("\\u{{{:x}}}", static_cast<unsigned>(c));
    } else {
      out += c;
    }
  }
}

std::string shape_text(std::span<const std::uint64_t> shape) {
  return fmt::format("[{}]", fmt::join(shape, ", "));
}

}  // namespace eredu
