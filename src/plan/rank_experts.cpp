// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "plan/rank_experts.hpp"

#include <algorithm>
#include <map>
#include <utility>

#include "model/model.hpp"
#include "topology/balanced_range.hpp"

namespace eredu {
namespace {

// (layer, expert); a group scoped to an expert without a layer has no layer.
using UnitKey = std::pair<std::optional<std::uint64_t>, std::uint64_t>;

Result<void> add_unit_bytes(std::map<UnitKey, std::uint64_t>& units, const UnitKey& key,
                            std::uint64_t bytes) {
  std::uint64_t& unit = units[key];
  EREDU_TRY(sum, add_rank_bytes(unit, bytes));
  unit = sum;
  return outcome::success();
}

}  // namespace

bool is_routed_expert(const LocalTensorLayout& tensor) {
  return tensor.group->scope().expert.has_value() || tensor.member->sharding().expert_axis;
}

Result<std::optional<RankExperts>> rank_experts(const LocalModelLayout& layout) {
  const auto experts = layout.model->info().experts;
  if (!experts) return std::optional<RankExperts>{};
  RankExperts out;
  EREDU_TRY(held, balanced_contiguous_range(*experts, layout.topology.expert(),
                                            layout.coordinates.expert, false));
  out.held = held;
  std::map<UnitKey, std::uint64_t> units;
  for (const LocalTensorLayout& tensor : layout.tensors) {
    if (tensor.placement.kind == PlacementKind::Omit) continue;
    const std::uint64_t bytes = tensor.local_bytes.value_or(0);
    const GroupScope& scope = tensor.group->scope();
    if (!is_routed_expert(tensor)) {
      EREDU_TRY(other, add_rank_bytes(out.other_bytes, bytes));
      out.other_bytes = other;
      continue;
    }
    if (scope.expert) {
      const UnitKey key(scope.layer, *scope.expert);
      EREDU_TRY(add_unit_bytes(units, key, bytes));
    } else if (const auto& range = tensor.expert_range; range && range->length() > 0) {
      // A stacked member: its bytes split evenly over the experts it holds.
      for (std::uint64_t expert = range->start; expert < range->end; ++expert) {
        const UnitKey key(scope.layer, expert);
        EREDU_TRY(add_unit_bytes(units, key, bytes / range->length()));
      }
    }
    EREDU_TRY(routed, add_rank_bytes(out.routed_bytes, bytes));
    out.routed_bytes = routed;
  }
  out.units = units.size();
  for (const auto& [key, bytes] : units) {
    out.largest_unit_bytes = std::max(out.largest_unit_bytes, bytes);
  }
  return std::optional<RankExperts>{out};
}

std::uint64_t cached_expert_units(const RankExperts& experts, std::uint64_t cache_bytes) {
  if (experts.largest_unit_bytes == 0) return experts.units;
  return std::min(experts.units, cache_bytes / experts.largest_unit_bytes);
}

}  // namespace eredu
