// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "cli/commands.hpp"
#include "cli/input.hpp"
#include "cli/layout_table.hpp"
#include "cli/output.hpp"
#include "cli/plan_file_commands.hpp"
#include "cli/progress.hpp"
#include "cli/world_table.hpp"
#include "interchange/layout_json.hpp"
#include "plan/planner.hpp"
#include "world/world_json.hpp"

namespace eredu {
Result<int> run_plan(const PlanArgs& args) {
  if (args.output) return run_plan_output(args, *args.output);
  EREDU_TRY(policy, policy_from(args.policy));
  EREDU_TRY(model, load_description(args.groups));
  EREDU_TRY(topology, topology_from(args.topology));
  const bool json = args.format == "json";
  if (!args.all_ranks) {
    EREDU_TRY(layout, plan_rank(model, topology, args.rank.value_or(0), policy));
    EREDU_TRY(write_stdout(json ? layout_to_json(layout) : layout_table(layout)));
    return kExitOk;
  }
  // The progress line is erased before anything is written.
  EREDU_TRY(world, [&] {
    ProgressLine progress;
    return plan_world(model, topology, policy, progress.options());
  }());
  EREDU_TRY(write_stdout(json ? world_to_json(world) : world_table(world)));
  return world.coverage_ok() ? kExitOk : kExitCoverage;
}

}  // namespace eredu
