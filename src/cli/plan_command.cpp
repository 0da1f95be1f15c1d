// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "cli/commands.hpp"
#include "cli/input.hpp"
#include "cli/launch_rank.hpp"
#include "cli/layout_table.hpp"
#include "cli/library.hpp"
#include "cli/output.hpp"
#include "cli/plan_file_commands.hpp"
#include "cli/progress.hpp"
#include "cli/world_table.hpp"

namespace eredu::cli {

Result<int> run_plan(const PlanArgs& args) {
  if (args.output) return run_plan_output(args, *args.output);
  EREDU_TRY(policy, policy_from(args.policy));
  EREDU_TRY(model, load_description(args.groups));
  const eredu_topology topology = topology_of(args.topology);
  const eredu_plan_options options = plan_options(policy, args.topology);
  const bool json = args.format == "json";
  if (!args.all_ranks) {
    EREDU_TRY(rank, rank_to_plan(args.rank, args.rank_from_env, topology));
    eredu_layout* planned = nullptr;
    EREDU_TRY(check([&](eredu_error** error) {
      return eredu_plan_rank(model.get(), &topology, rank, &options, &planned, error);
    }));
    const Layout layout(planned);
    EREDU_TRY(text, text_of([&](char** out, std::size_t* length, eredu_error** error) {
                return eredu_layout_to_json(layout.get(), out, length, error);
              }));
    EREDU_TRY(write_stdout(json ? text : layout_table(Json::parse(text))));
    return kExitOk;
  }
  // The progress line is erased before anything is written.
  EREDU_TRY(text, [&] {
    ProgressLine progress;
    const eredu_plan_options with_progress = progress.options(options);
    return text_of([&](char** out, std::size_t* length, eredu_error** error) {
      return eredu_plan_world_json(model.get(), &topology, &with_progress, out, length, error);
    });
  }());
  const Json world = Json::parse(text);
  EREDU_TRY(write_stdout(json ? text : world_table(world)));
  return world.at("coverage").at("ok").get<bool>() ? kExitOk : kExitCoverage;
}

}  // namespace eredu::cli
