#include "cli/options.hpp"

#include <algorithm>

#include "core/text.hpp"

namespace eredu {

Result<ParallelTopology> topology_from(const TopologyFlags& flags) {
  return ParallelTopology::create(flags.tensor, flags.pipeline, flags.expert, flags.data);
}

Result<ShardingPolicy> policy_from(const std::string& flag) {
  // Flags take the hyphenated spelling of enum words too (interchange rules).
  std::string word = flag;
  std::replace(word.begin(), word.end(), '-', '_');
  if (auto policy = parse_sharding_policy(word)) return *policy;
  return failf(Status::InvalidArgument,
               "--policy {} is not a sharding policy; use require or replicate-unsupported",
               debug_quoted(flag));
}

}  // namespace eredu
