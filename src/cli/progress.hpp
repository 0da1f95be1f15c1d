// Progress of long whole-world runs on a terminal (interchange §5).
#pragma once

#include <memory>

#include "core/result.hpp"
#include "world/world.hpp"

namespace eredu {

/// plan_world on every core. While it runs, and only when stderr is a
/// terminal, one `planning ranks: N/M` line on stderr shows how far it got;
/// the line is erased before returning, so output and errors start clean.
/// Errors: plan_world's.
Result<WorldPlan> plan_world_showing_progress(const std::shared_ptr<const ModelDescription>& model,
                                              const ParallelTopology& topology,
                                              ShardingPolicy policy);

}  // namespace eredu
