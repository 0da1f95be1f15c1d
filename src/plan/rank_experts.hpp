// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The routed experts one rank holds and their bytes beside everything else
// (docs/residency.md, "Routed experts"), for sizing an expert cache.
#pragma once

#include <cstdint>
#include <optional>

#include "core/result.hpp"
#include "plan/layout.hpp"

namespace eredu {

/// True for a routed-expert tensor: a member of a group scoped to an expert,
/// or a member stacking experts (docs/planning.md, "Stacked experts").
bool is_routed_expert(const LocalTensorLayout& tensor);

/// The routed experts of `layout`, or nullopt when its model has no expert
/// count. `held` is the balanced range of the model's experts at the
/// layout's expert coordinate. O(tensors + units log units). Errors:
/// Internal when a byte sum overflows 64 bits (impossible for a planned
/// layout, whose local bytes never exceed the model's global bytes);
/// balanced_contiguous_range's for a topology the planner refused. plan_rank
/// sets LocalModelLayout::experts with it.
Result<std::optional<RankExperts>> rank_experts(const LocalModelLayout& layout);

/// The routed-expert units an expert cache of `cache_bytes` device bytes
/// holds: min(units, cache_bytes / largest_unit_bytes), every unit when
/// they have no bytes.
std::uint64_t cached_expert_units(const RankExperts& experts, std::uint64_t cache_bytes);

}  // namespace eredu
