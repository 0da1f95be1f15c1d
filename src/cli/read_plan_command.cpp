// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "cli/commands.hpp"
#include "cli/input.hpp"
#include "cli/launch_rank.hpp"
#include "cli/library.hpp"
#include "cli/output.hpp"
#include "cli/read_plan_steps.hpp"
#include "cli/read_plan_table.hpp"

namespace eredu::cli {

Result<Model> read_plan_model(const ReadPlanArgs& args, const eredu_checkpoint& checkpoint) {
  if (args.groups) return load_description(*args.groups);
  return describe_checkpoint(checkpoint, args.model, args.pad_vocab);
}

Result<Checkpoint> open_checkpoint(const std::string& path) {
  eredu_checkpoint* checkpoint = nullptr;
  EREDU_TRY(check([&](eredu_error** error) {
    return eredu_checkpoint_open(path.c_str(), &checkpoint, error);
  }));
  return Checkpoint(checkpoint);
}

Result<ReadPlan> read_plan_of(const eredu_model& model, const eredu_topology& topology,
                              std::uint64_t rank, const eredu_plan_options& options,
                              const eredu_checkpoint& checkpoint) {
  eredu_layout* planned = nullptr;
  EREDU_TRY(check([&](eredu_error** error) {
    return eredu_plan_rank(&model, &topology, rank, &options, &planned, error);
  }));
  const Layout layout(planned);
  eredu_read_plan* plan = nullptr;
  EREDU_TRY(check([&](eredu_error** error) {
    return eredu_read_plan_new(layout.get(), &checkpoint, &plan, error);
  }));
  return ReadPlan(plan);
}

Result<int> run_read_plan(const ReadPlanArgs& args) {
  EREDU_TRY(policy, policy_from(args.policy));
  EREDU_TRY(checkpoint, open_checkpoint(args.model));
  EREDU_TRY(model, read_plan_model(args, *checkpoint));
  const eredu_topology topology = topology_of(args.topology);
  const eredu_plan_options options = plan_options(policy, args.topology);
  const bool json = args.format == "json";
  std::uint64_t first = 0;
  if (!args.all_ranks) {
    EREDU_TRY(rank, rank_to_plan(args.rank, args.rank_from_env, topology));
    first = rank;
  }
  std::uint64_t end = first + 1;
  std::string out;
  if (args.all_ranks && json) out += '[';
  for (std::uint64_t rank = first; rank < end; ++rank) {
    EREDU_TRY(plan, read_plan_of(*model, topology, rank, options, *checkpoint));
    // Rank `first` is planned: the topology is valid, its world size fits.
    const std::uint64_t world =
        topology.tensor * topology.pipeline * topology.expert * topology.data;
    if (args.all_ranks) end = world;
    if (!json) {
      if (rank != first) out += '\n';
      EREDU_TRY(table, read_plan_table(*plan, world));
      out += table;
      continue;
    }
    EREDU_TRY(text, text_of([&](char** buffer, std::size_t* length, eredu_error** error) {
                return eredu_read_plan_to_json(plan.get(), buffer, length, error);
              }));
    if (args.all_ranks) {
      // One array of the documents, each without its trailing newline.
      if (rank != first) out += ',';
      text.pop_back();
    }
    out += text;
  }
  if (args.all_ranks && json) out += "]\n";
  EREDU_TRY(write_stdout(out));
  return kExitOk;
}

}  // namespace eredu::cli
