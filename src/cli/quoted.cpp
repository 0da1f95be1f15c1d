// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "cli/quoted.hpp"

#include <fmt/format.h>

#include <cstdint>

namespace eredu::cli {
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

}  // namespace

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

}  // namespace eredu::cli
