// Flags shared by the subcommands: topology sizes, policy, output format.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "core/result.hpp"
#include "plan/layout.hpp"
#include "topology/topology.hpp"

namespace eredu {

/// `--tp --pp --ep --dp`, each 1 unless given.
struct TopologyFlags {
  std::uint64_t tensor = 1;
  std::uint64_t pipeline = 1;
  std::uint64_t expert = 1;
  std::uint64_t data = 1;
};

/// `eredu plan`.
struct PlanArgs {
  std::string groups;  // a file, or "-" for standard input
  TopologyFlags topology;
  std::optional<std::uint64_t> rank;
  bool all_ranks = false;
  std::string policy = "require";
  std::string format = "table";
};

/// `eredu describe`.
struct DescribeArgs {
  std::string model_dir;
  std::string format = "json";
};

/// `eredu check`.
struct CheckArgs {
  std::string model_dir;
  TopologyFlags topology;
  std::string policy = "require";
  std::string format = "table";
};

/// Errors: ZeroAxis, WorldSizeOverflow (ParallelTopology::create).
Result<ParallelTopology> topology_from(const TopologyFlags& flags);

/// `require`, `replicate-unsupported` or `replicate_unsupported`.
/// Errors: InvalidArgument naming the accepted words.
Result<ShardingPolicy> policy_from(const std::string& flag);

}  // namespace eredu
