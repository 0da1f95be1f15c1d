// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "admission/units.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <map>

#include "plan/rank_experts.hpp"

namespace eredu {

Result<RankUnits> split_units(const LocalModelLayout& layout, bool experts_apart) {
  RankUnits units;
  std::map<std::uint64_t, std::uint64_t> layers;  // layer -> bytes
  for (const LocalTensorLayout& tensor : layout.tensors) {
    if (tensor.placement.kind == PlacementKind::Omit) continue;
    if (experts_apart && is_routed_expert(tensor)) continue;
    const std::uint64_t bytes = tensor.local_bytes.value_or(0);
    const GroupScope& scope = tensor.group->scope();
    if (scope.kind == GroupScope::Kind::Indexed && scope.layer) {
      std::uint64_t& layer = layers[*scope.layer];
      EREDU_TRY(layer_sum, add_rank_bytes(layer, bytes));
      layer = layer_sum;
      EREDU_TRY(all_layers, add_rank_bytes(units.layer_bytes, bytes));
      units.layer_bytes = all_layers;
    } else {
      units.static_units.push_back({tensor.target(), bytes});
      EREDU_TRY(all_static, add_rank_bytes(units.static_bytes, bytes));
      units.static_bytes = all_static;
    }
  }
  units.layer_units.reserve(layers.size());
  for (const auto& [layer, bytes] : layers) units.layer_units.push_back({layer, bytes});
  return units;
}

std::vector<std::uint64_t> layer_bytes_descending(const RankUnits& units) {
  std::vector<std::uint64_t> bytes;
  bytes.reserve(units.layer_units.size());
  for (const LayerUnit& unit : units.layer_units) bytes.push_back(unit.bytes);
  std::sort(bytes.begin(), bytes.end(), std::greater<>());
  return bytes;
}

Result<std::uint64_t> largest_layer_bytes(std::span<const std::uint64_t> descending,
                                          std::uint64_t count) {
  std::uint64_t total = 0;
  for (std::uint64_t bytes : descending.first(std::min<std::uint64_t>(count, descending.size()))) {
    EREDU_TRY(sum, add_rank_bytes(total, bytes));
    total = sum;
  }
  return total;
}

Result<std::uint64_t> largest_layer_bytes(const RankUnits& units, std::uint64_t count) {
  return largest_layer_bytes(layer_bytes_descending(units), count);
}

std::string static_unit_id(const StaticUnit& unit) { return "static." + unit.target; }

std::string layer_unit_id(const LayerUnit& unit) { return fmt::format("layer.{:05}", unit.layer); }

}  // namespace eredu
