// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Aligned text columns for the command's table output.
#pragma once

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
  };

  explicit TextTable(std::vector<Column> columns) : columns_(std::move(columns)) {}

  /// Adds a row; it must have one cell per column.
  void add_row(std::vector<std::string> cells) { rows_.push_back(std::move(cells)); }

  /// The header line and every row, each ending in '\n'.
  std::string render() const;

 private:
  std::vector<Column> columns_;
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace eredu::cli
