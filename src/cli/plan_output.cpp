// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// `eredu plan --all-ranks --output FILE`: the plan file of every rank.
#include <fmt/format.h>

#include "cli/capi_calls.hpp"
#include "cli/output.hpp"
#include "cli/plan_file_commands.hpp"

namespace eredu {
namespace {

// The layouts' bytes before compression, summed over the ranks.
Result<std::uint64_t> uncompressed_bytes(const eredu_plan_file& file, std::uint64_t ranks) {
  std::uint64_t total = 0;
  for (std::uint64_t rank = 0; rank < ranks; ++rank) {
    std::uint64_t bytes = 0;
    eredu_error* error = nullptr;
    EREDU_TRY(capi_result(eredu_plan_file_rank_bytes(&file, rank, nullptr, &bytes, &error), error));
    total += bytes;  // at most 2^20 ranks of at most 1 GiB each
  }
  return total;
}

}  // namespace

Result<int> run_plan_output(const PlanArgs& args, const std::string& path) {
  EREDU_TRY(policy, policy_from(args.policy));
  EREDU_TRY(model, load_model(args.groups));
  const TopologyFlags& flags = args.topology;
  eredu_topology topology = EREDU_TOPOLOGY_INIT;
  topology.tensor = flags.tensor;
  topology.pipeline =
      flags.pipeline.value_or(flags.pipeline_layers.empty() ? 1 : flags.pipeline_layers.size());
  topology.expert = flags.expert;
  topology.data = flags.data;
  eredu_plan_options options = EREDU_PLAN_OPTIONS_INIT;
  options.policy = static_cast<eredu_policy>(policy);
  options.pipeline_layers = flags.pipeline_layers.empty() ? nullptr : flags.pipeline_layers.data();
  options.pipeline_layer_count = flags.pipeline_layers.size();
  eredu_error* error = nullptr;
  EREDU_TRY(capi_result(
      eredu_plan_file_write(model.get(), &topology, &options, path.c_str(), &error), error));
  EREDU_TRY(file, open_plan_file(path));
  EREDU_TRY(info, plan_file_info(*file));
  EREDU_TRY(layouts, uncompressed_bytes(*file, info.world_size));
  EREDU_TRY(write_stdout(fmt::format(
      "wrote {}: {} ranks, {} bytes ({} bytes of layouts, {:.1f}x smaller){}\n", path,
      info.world_size, info.file_bytes, layouts,
      static_cast<double>(layouts) / static_cast<double>(info.file_bytes),
      info.coverage_ok != 0 ? "" : "; coverage problems: eredu plan --all-ranks lists them")));
  return info.coverage_ok != 0 ? kExitOk : kExitCoverage;
}

}  // namespace eredu
