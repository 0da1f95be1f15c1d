// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "format/axis_cells.hpp"

#include "core/checked.hpp"
#include "format/ggml.hpp"

namespace eredu {
namespace {

std::optional<AxisCells> positive_cells(std::int64_t values, std::uint64_t units,
                                        std::string_view name) {
  if (values <= 0 || units == 0) return std::nullopt;
  return AxisCells{static_cast<std::uint64_t>(values), units, name};
}

// Values packed by exact bits into 32-bit words: k = 32 / gcd(32, bits)
// values fill k · bits / 32 words.
std::optional<AxisCells> word_cells(std::int32_t bits) {
  if (bits <= 0) return std::nullopt;
  const auto width = static_cast<std::uint64_t>(bits);
  const std::uint64_t values = 32 / greatest_common_divisor(32, width);
  return AxisCells{values, values * width / 32, "word"};
}

}  // namespace

std::optional<AxisCells> axis_cells(const LinearFormat& format, EncodedRole role, std::size_t axis,
                                    std::size_t ndim) {
  const AxisCells identity;
  if (ndim < 2) return identity;
  const bool rows = axis == ndim - 2;
  const bool columns = axis == ndim - 1;
  if (const auto* fp8 = format.get_if<BlockFp8Format>()) {
    if (role != EncodedRole::Scale) return identity;
    if (rows) return positive_cells(fp8->block_rows, 1, "block");
    if (columns) return positive_cells(fp8->block_columns, 1, "block");
    return identity;
  }
  if (!columns) return identity;
  if (const auto* gguf = format.get_if<GgufIQuant>()) {
    auto info = ggml_type_info(gguf->ggml_type);
    if (!info) return std::nullopt;
    return positive_cells(static_cast<std::int64_t>(info.value().block_values),
                          info.value().block_bytes, "block");
  }
  const std::optional<WeightQuantization> quantization = format.weight_quantization();
  if (!quantization) return identity;  // dense
  if (role == EncodedRole::Weight) return word_cells(quantization->bits());
  return positive_cells(quantization->group_size(), 1, "group");
}

std::optional<std::uint64_t> physical_bound(const AxisCells& cells, std::uint64_t bound,
                                            std::uint64_t extent) {
  if (bound % cells.values == 0) return checked_mul(bound / cells.values, cells.units);
  if (bound == extent && cells.units == 1) return bound / cells.values + 1;
  return std::nullopt;
}

}  // namespace eredu
