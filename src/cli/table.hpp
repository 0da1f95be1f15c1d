// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Aligned text columns for the command's table output.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace eredu::cli {

/// A table whose columns are padded to their widest cell. Numeric columns
/// are right-aligned, the others left-aligned; the last column is not padded.
class TextTable {
 public:
  enum class Align { Left, Right };

  struct Column {
    std::string header;
    Align align = Align::Left;
    /// May be narrowed to fit a width: its long cells lose their middle to
    /// "…" (a target keeps its layer prefix and its tensor name).
    bool shrinkable = false;
  };

  explicit TextTable(std::vector<Column> columns) : columns_(std::move(columns)) {}

  /// Adds a row; it must have one cell per column.
  void add_row(std::vector<std::string> cells) { rows_.push_back(std::move(cells)); }

  /// Sorts the rows by one column's text in natural order (natural_order.hpp).
  void sort_naturally(std::size_t column);

  /// The header line and every row, each ending in '\n'. With `max_width`,
  /// shrinkable columns are narrowed (to no less than their header or 16
  /// characters) until lines fit, where they can.
  std::string render(std::optional<std::size_t> max_width = std::nullopt) const;

 private:
  std::vector<Column> columns_;
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace eredu::cli
