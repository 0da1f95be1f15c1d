// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The topology and plan-options arguments of eredu_plan_rank and the bulk
// world entry points.
#pragma once

#include <cstdint>
#include <vector>

#include "firewall.hpp"
#include "plan/layout.hpp"
#include "topology/topology.hpp"

namespace eredu::capi {

// The C constants are the core's enum values.
static_assert(EREDU_POLICY_REQUIRE == static_cast<int>(ShardingPolicy::Require));
static_assert(EREDU_POLICY_REPLICATE_UNSUPPORTED ==
              static_cast<int>(ShardingPolicy::ReplicateUnsupported));
static_assert(EREDU_POLICY_REQUIRE_EVEN == static_cast<int>(ShardingPolicy::RequireEven));

/// The policy named by `policy`; EREDU_E_INVALID_ARGUMENT "unknown policy
/// value N" for any other value.
inline Result<ShardingPolicy> policy_argument(eredu_policy policy, const ArgumentName& name) {
  switch (policy) {
    case EREDU_POLICY_REQUIRE:
      return ShardingPolicy::Require;
    case EREDU_POLICY_REPLICATE_UNSUPPORTED:
      return ShardingPolicy::ReplicateUnsupported;
    case EREDU_POLICY_REQUIRE_EVEN:
      return ShardingPolicy::RequireEven;
    default:
      return failf(Status::InvalidArgument, "unknown {} value {}", name.text(), policy);
  }
}

/// A caller's eredu_topology: its sizes (defaults 1 past its struct_size),
/// then the topology's own checks (ZeroAxis, WorldSizeOverflow).
inline Result<ParallelTopology> topology_argument(const eredu_topology* topology,
                                                  const ArgumentName& name) {
  EREDU_TRY(sizes, read_sized(topology, SizedDefaults<eredu_topology>::value(), name));
  return ParallelTopology::create(sizes.tensor, sizes.pipeline, sizes.expert, sizes.data);
}

/// What eredu_plan_options asks for.
struct PlanArguments {
  ShardingPolicy policy = ShardingPolicy::Require;
  unsigned threads = 0;
  eredu_progress_fn progress = nullptr;
  void* progress_data = nullptr;
  std::vector<std::uint64_t> pipeline_layers;  // empty: balanced stages
};

/// A caller's eredu_plan_options (named "options" in messages), or the
/// defaults for NULL.
inline Result<PlanArguments> plan_options_argument(const eredu_plan_options* options) {
  if (options == nullptr) return PlanArguments{};
  EREDU_TRY(read, read_sized(options, SizedDefaults<eredu_plan_options>::value(), "options"));
  EREDU_TRY(policy, policy_argument(read.policy, ArgumentName::field("options", "->policy")));
  const ArgumentName layers_name = ArgumentName::field("options", "->pipeline_layers");
  EREDU_TRY(require_array(read.pipeline_layers, read.pipeline_layer_count, layers_name));
  EREDU_TRY(count_argument(read.pipeline_layer_count, sizeof(std::uint64_t), sizeof(std::uint64_t),
                           ArgumentName::field("options", "->pipeline_layer_count")));
  std::vector<std::uint64_t> layers(read.pipeline_layers,
                                    read.pipeline_layers + read.pipeline_layer_count);
  return PlanArguments{policy, read.threads, read.progress, read.progress_data, std::move(layers)};
}

/// The topology a planning call plans: the caller's eredu_topology, with the
/// chosen pipeline stages of `plan` when it has any.
inline Result<ParallelTopology> planned_topology(const eredu_topology* topology,
                                                 const PlanArguments& plan) {
  EREDU_TRY(sizes, topology_argument(topology, "topology"));
  if (plan.pipeline_layers.empty()) return sizes;
  return sizes.with_pipeline_layers(plan.pipeline_layers);
}

}  // namespace eredu::capi
