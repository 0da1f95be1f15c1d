// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "cli/table.hpp"

#include <algorithm>

#include "cli/natural_order.hpp"

namespace eredu::cli {
namespace {

constexpr std::size_t kNarrowest = 16;
constexpr std::string_view kEllipsis = "…";

bool continuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// Display width: UTF-8 continuation bytes take no column.
std::size_t width(const std::string& text) {
  return static_cast<std::size_t>(
      std::count_if(text.begin(), text.end(), [](char c) { return !continuation(c); }));
}

// The byte offset where the character numbered `characters` starts.
std::size_t byte_offset(const std::string& text, std::size_t characters) {
  std::size_t offset = 0;
  for (std::size_t seen = 0; offset < text.size(); ++offset) {
    if (!continuation(text[offset]) && seen++ == characters) break;
  }
  return offset;
}

// `text` in `columns` characters: its head, "…", its tail (two thirds of
// what is kept: a target's tensor name is at its end).
std::string elide_middle(const std::string& text, std::size_t columns) {
  const std::size_t total = width(text);
  if (total <= columns) return text;
  const std::size_t kept = columns - 1;
  const std::size_t head = kept / 3;
  const std::size_t tail = kept - head;
  return text.substr(0, byte_offset(text, head)) + std::string(kEllipsis) +
         text.substr(byte_offset(text, total - tail));
}

}  // namespace

void TextTable::sort_naturally(std::size_t column) {
  std::stable_sort(rows_.begin(), rows_.end(), [column](const auto& a, const auto& b) {
    return natural_less(a[column], b[column]);
  });
}

std::string TextTable::render(std::optional<std::size_t> max_width) const {
  std::vector<std::size_t> widths;
  for (const Column& column : columns_) widths.push_back(width(column.header));
  for (const auto& row : rows_) {
    for (std::size_t i = 0; i < row.size() && i < widths.size(); ++i) {
      widths[i] = std::max(widths[i], width(row[i]));
    }
  }
  if (max_width) {
    std::size_t line = 2 * (columns_.size() - 1);
    for (std::size_t w : widths) line += w;
    for (std::size_t i = 0; i < columns_.size() && line > *max_width; ++i) {
      if (!columns_[i].shrinkable) continue;
      const std::size_t narrowest = std::max(kNarrowest, width(columns_[i].header));
      const std::size_t narrower =
          std::max(narrowest, widths[i] - std::min(widths[i], line - *max_width));
      if (narrower >= widths[i]) continue;
      line -= widths[i] - narrower;
      widths[i] = narrower;
    }
  }
  std::string out;
  auto append_row = [&](auto cell_at) {
    std::string line;
    for (std::size_t i = 0; i < columns_.size(); ++i) {
      const std::string cell = elide_middle(cell_at(i), widths[i]);
      const std::string padding(widths[i] - width(cell), ' ');
      const bool last = i + 1 == columns_.size();
      if (i > 0) line += "  ";
      if (columns_[i].align == Align::Right) {
        line += padding + cell;
      } else {
        line += cell;
        if (!last) line += padding;
      }
    }
    // An empty last cell would leave the separator as trailing blanks.
    line.erase(line.find_last_not_of(' ') + 1);
    out += line;
    out += '\n';
  };
  append_row([&](std::size_t i) -> const std::string& { return columns_[i].header; });
  for (const auto& row : rows_) {
    append_row([&](std::size_t i) -> const std::string& { return row[i]; });
  }
  return out;
}

}  // namespace eredu::cli
