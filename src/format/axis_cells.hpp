// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// How each physical member of an encoded matrix stores the logical values of
// each axis: the geometry behind the companion rule (docs/decisions.md,
// "Companion consistency") and behind segment remapping.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "format/linear_format.hpp"

namespace eredu {

/// `values` consecutive logical values of one axis occupy exactly `units`
/// consecutive physical indices (elements, bytes or 32-bit words) of a
/// physical member. Cells start at index 0; only the last cell of an axis may
/// hold fewer values (block-FP8 scales of an axis that is not a multiple of
/// the block). Identity storage is one value per index.
struct AxisCells {
  std::uint64_t values = 1;
  std::uint64_t units = 1;
  /// What a cell is called in messages: "element", "block", "group",
  /// "word".
  std::string_view name = "element";

  bool identity() const { return values == 1 && units == 1; }
  friend bool operator==(const AxisCells&, const AxisCells&) = default;
};

/// The physical members of an encoded matrix, in expansion order.
enum class EncodedRole : std::uint32_t { Weight = 0, Scale = 1, AffineBias = 2 };

/// The cells of member `role` of a matrix in `format` on `axis` of its
/// `ndim` axes (rows are axis ndim − 2, input columns ndim − 1):
///
/// - block-FP8: the weight is identity; the scale has (block rows, 1)
///   "block" cells on the row axis and (block columns, 1) on the columns.
/// - GGUF: the weight has (block values, block bytes) "block" cells on the
///   columns.
/// - affine and MXFP4: the weight packs values by exact bits into 32-bit
///   words, so k = 32 / gcd(32, bits) values fill k · bits / 32 words: (k,
///   k · bits / 32) "word" cells on the columns (3 bits: 32 values in 3
///   words); scale and bias have (group, 1) "group" cells on the columns.
///
/// Every other axis, and dense storage, is identity. `format` may be
/// unvalidated: a GGUF type outside the table and bits or a group that is not
/// positive give nullopt.
std::optional<AxisCells> axis_cells(const LinearFormat& format, EncodedRole role, std::size_t axis,
                                    std::size_t ndim);

/// The physical index of logical bound `bound` on an axis of `extent` logical
/// values: bound / values · units when `bound` is a multiple of `values`;
/// the physical extent (the last, partial cell's end) when `bound` is
/// `extent` and cells hold one unit; nullopt otherwise (the bound splits a
/// cell).
std::optional<std::uint64_t> physical_bound(const AxisCells& cells, std::uint64_t bound,
                                            std::uint64_t extent);

}  // namespace eredu
