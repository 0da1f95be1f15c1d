// `eredu check`: a world plan with every rank admitted (interchange §6).
#pragma once

#include <cstdint>
#include <vector>

#include "admission/admission.hpp"
#include "admission/policy.hpp"
#include "core/result.hpp"
#include "world/world.hpp"

namespace eredu {

/// What a check keeps of one rank: its place and its admission figures.
struct RankCheck {
  std::uint64_t rank = 0;
  ParallelCoordinates coordinates;
  AdmissionFigures figures;
};

/// A world plan (coverage included) and the admission of each of its ranks.
struct CheckReport {
  WorldPlan world;
  AdmissionPolicy policy;
  std::vector<RankCheck> ranks;  // by global rank

  /// True when every rank fits (coverage is reported separately).
  bool fits() const;
};

/// Admits every rank of `world` under `policy`. Ranks that differ only in
/// their data coordinate have the same layout, so each distinct (tensor,
/// pipeline, expert) coordinate is planned again once (plan_rank) and
/// admitted once; the others copy its figures. Errors: plan_rank's and
/// admit_rank's (none for a world plan_world produced, short of
/// OutOfMemory).
Result<CheckReport> check_world(WorldPlan world, const AdmissionPolicy& policy);

}  // namespace eredu
