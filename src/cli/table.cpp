// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "cli/table.hpp"

#include <algorithm>

namespace eredu::cli {
namespace {

// Display width: UTF-8 continuation bytes take no column.
std::size_t width(const std::string& text) {
  return static_cast<std::size_t>(
      std::count_if(text.begin(), text.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

}  // namespace

std::string TextTable::render() const {
  std::vector<std::size_t> widths;
  for (const Column& column : columns_) widths.push_back(width(column.header));
  for (const auto& row : rows_) {
    for (std::size_t i = 0; i < row.size() && i < widths.size(); ++i) {
      widths[i] = std::max(widths[i], width(row[i]));
    }
  }
  std::string out;
  auto append_row = [&](auto cell_at) {
    std::string line;
    for (std::size_t i = 0; i < columns_.size(); ++i) {
      const std::string& cell = cell_at(i);
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
