// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include <fmt/format.h>

#include "admission/check.hpp"
#include "admission/check_json.hpp"
#include "cli/byte_units.hpp"
#include "cli/check_table.hpp"
#include "cli/commands.hpp"
#include "cli/input.hpp"
#include "cli/output.hpp"
#include "cli/progress.hpp"
#include "cli/world_table.hpp"
#include "describe/describe.hpp"

namespace eredu {
namespace {

// What was checked, above the rank table.
std::string check_header(const WorldPlan& world) {
  const ModelDescription& model = *world.model;
  const ParallelTopology& topology = world.topology;
  return fmt::format(
      "model {}: {} tensors, {} layers, {}\n"
      "topology: tensor {}, pipeline {}, expert {}, data {} ({} ranks); policy {}\n\n",
      model.info().name.value_or("(unnamed)"), model.tensor_count(),
      model.info().layers.value_or(0), human_bytes(model.global_bytes()), topology.tensor(),
      topology.pipeline(), topology.expert(), topology.data(), topology.world_size(),
      sharding_policy_name(world.policy));
}

}  // namespace

Result<int> run_check(const CheckArgs& args) {
  EREDU_TRY(policy, policy_from(args.policy));
  EREDU_TRY(residency, admission_policy_from(args.residency));
  EREDU_TRY(model, describe_folder(args.model_dir, args.pad_vocab, args.config_only));
  EREDU_TRY(topology, topology_from(args.topology));
  // The progress line is erased before anything is written.
  EREDU_TRY(report, [&] {
    ProgressLine progress;
    return check_world(model, topology, policy, residency, progress.options());
  }());
  const bool json = args.format == "json";
  EREDU_TRY(write_stdout(json ? check_to_json(report)
                              : check_header(report.world) + world_table(report.world) + "\n" +
                                    check_table(report)));
  return report.world.coverage_ok() && report.fits() ? kExitOk : kExitCoverage;
}

}  // namespace eredu
