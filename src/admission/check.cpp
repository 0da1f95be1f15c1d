// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "admission/check.hpp"

#include <algorithm>
#include <utility>

namespace eredu {

std::optional<std::uint64_t> RankCheck::cached_units(const AdmissionPolicy& policy) const {
  const auto& cache = policy.expert_cache();
  if (!experts || !cache) return std::nullopt;
  if (!cache->device_budget_bytes) return experts->units;
  return cached_expert_units(*experts, *cache->device_budget_bytes);
}

bool CheckReport::fits() const {
  return std::all_of(ranks.begin(), ranks.end(),
                     [](const RankCheck& rank) { return rank.figures.fits(); });
}

Result<CheckReport> check_world(const std::shared_ptr<const ModelDescription>& model,
                                const ParallelTopology& topology, ShardingPolicy policy,
                                const AdmissionPolicy& admission, WorldOptions options) {
  std::vector<RankCheck> ranks(topology.world_size() <= kMaxWorldRanks ? topology.world_size() : 0);
  // Each rank's slot is written by the one worker that planned it.
  options.visit = [&](const LocalModelLayout& layout) -> Result<void> {
    EREDU_TRY(admitted, admit_rank(layout, admission));
    RankCheck& out = ranks[layout.rank];
    out.experts = layout.experts;
    out.rank = layout.rank;
    out.coordinates = layout.coordinates;
    out.figures = std::move(admitted.figures);
    return outcome::success();
  };
  EREDU_TRY(world, plan_world(model, topology, policy, options));
  return CheckReport{std::move(world), admission, std::move(ranks)};
}

}  // namespace eredu
