// The eredu_policy argument of eredu_plan_rank and the bulk world entry
// points: seed ShardingPolicy.
#pragma once

#include "firewall.hpp"
#include "plan/layout.hpp"

namespace eredu::capi {

// The C constants are the core's enum values.
static_assert(EREDU_POLICY_REQUIRE == static_cast<int>(ShardingPolicy::Require));
static_assert(EREDU_POLICY_REPLICATE_UNSUPPORTED ==
              static_cast<int>(ShardingPolicy::ReplicateUnsupported));

/// The policy named by `policy`; EREDU_E_INVALID_ARGUMENT "unknown policy
/// value N" for any other value.
inline Result<ShardingPolicy> policy_argument(eredu_policy policy) {
  switch (policy) {
    case EREDU_POLICY_REQUIRE:
      return ShardingPolicy::Require;
    case EREDU_POLICY_REPLICATE_UNSUPPORTED:
      return ShardingPolicy::ReplicateUnsupported;
    default:
      return failf(Status::InvalidArgument, "unknown policy value {}", policy);
  }
}

}  // namespace eredu::capi
