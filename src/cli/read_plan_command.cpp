// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "checkpoint/open.hpp"
#include "cli/commands.hpp"
#include "cli/input.hpp"
#include "cli/output.hpp"
#include "cli/read_plan_table.hpp"
#include "plan/planner.hpp"
#include "readplan/read_plan_json.hpp"

namespace eredu {
namespace {

// The description: --groups FILE, else MODEL described.
Result<std::shared_ptr<const ModelDescription>> read_plan_model(const ReadPlanArgs& args) {
  if (args.groups) return load_description(*args.groups);
  return describe_folder(args.model, args.pad_vocab, false);
}

}  // namespace

Result<int> run_read_plan(const ReadPlanArgs& args) {
  EREDU_TRY(policy, policy_from(args.policy));
  EREDU_TRY(model, read_plan_model(args));
  EREDU_TRY(checkpoint, open_checkpoint(args.model));
  EREDU_TRY(topology, topology_from(args.topology));
  const bool json = args.format == "json";
  std::uint64_t first = args.rank.value_or(0);
  std::uint64_t end = args.all_ranks ? topology.world_size() : first + 1;
  std::string out;
  if (args.all_ranks && json) out += '[';
  for (std::uint64_t rank = first; rank < end; ++rank) {
    EREDU_TRY(layout, plan_rank(model, topology, rank, policy));
    EREDU_TRY(plan, build_read_plan(layout, checkpoint));
    if (!json) {
      if (rank != first) out += '\n';
      out += read_plan_table(plan, topology.world_size());
    } else if (args.all_ranks) {
      if (rank != first) out += ',';
      append_read_plan_json(plan, out);
    } else {
      out += read_plan_to_json(plan);
    }
  }
  if (args.all_ranks && json) out += "]\n";
  EREDU_TRY(write_stdout(out));
  return kExitOk;
}

}  // namespace eredu
