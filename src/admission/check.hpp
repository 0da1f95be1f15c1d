// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// `eredu check`: a world plan with every rank admitted (docs/interchange.md,
// eredu.check.v1).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "admission/admission.hpp"
#include "admission/policy.hpp"
#include "core/result.hpp"
#include "plan/rank_experts.hpp"
#include "world/world.hpp"

namespace eredu {

/// What a check keeps of one rank: its place, its admission figures and,
/// for a model with an expert count, its routed experts.
struct RankCheck {
  std::uint64_t rank = 0;
  ParallelCoordinates coordinates;
  AdmissionFigures figures;
  std::optional<RankExperts> experts;

  /// The routed-expert units the policy's expert cache holds on the device
  /// (cached_expert_units; every unit under an unbounded cache); nullopt
  /// without experts or without a cache.
  std::optional<std::uint64_t> cached_units(const AdmissionPolicy& policy) const;
};

/// A world plan (coverage included) and the admission of each of its ranks.
struct CheckReport {
  WorldPlan world;
  AdmissionPolicy policy;
  std::vector<RankCheck> ranks;  // by global rank

  /// True when every rank fits (coverage is reported separately).
  bool fits() const;
};

/// Plans every rank of `topology` (plan_world with `options`) and admits
/// each under `admission` while its layout is alive, so every rank is
/// planned once. Errors: plan_world's and admit_rank's.
Result<CheckReport> check_world(const std::shared_ptr<const ModelDescription>& model,
                                const ParallelTopology& topology, ShardingPolicy policy,
                                const AdmissionPolicy& admission, WorldOptions options = {});

}  // namespace eredu
