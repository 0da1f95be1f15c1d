// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include <fmt/format.h>

#include "cli/byte_units.hpp"
#include "cli/check_table.hpp"
#include "cli/commands.hpp"
#include "cli/input.hpp"
#include "cli/library.hpp"
#include "cli/output.hpp"
#include "cli/progress.hpp"
#include "cli/world_table.hpp"

namespace eredu::cli {
namespace {

// What was checked, above the rank table.
std::string check_header(const Json& report, const ModelCounts& counts) {
  const Json& model = report.at("model");
  const Json& name = model.at("name");
  const Json& topology = report.at("topology");
  const std::uint64_t tensor = u64(topology, "tensor");
  const std::uint64_t pipeline = u64(topology, "pipeline");
  const std::uint64_t expert = u64(topology, "expert");
  const std::uint64_t data = u64(topology, "data");
  // Every rank was planned: the world size fits 64 bits.
  return fmt::format(
      "model {}: {} tensors, {} layers, {}\n"
      "topology: tensor {}, pipeline {}, expert {}, data {} ({} ranks); policy {}\n\n",
      name.is_null() ? "(unnamed)" : name.get<std::string>(), u64(model, "tensors"),
      counts.layers.value_or(0), human_bytes(u64(model, "global_bytes")), tensor, pipeline, expert,
      data, tensor * pipeline * expert * data, text(report, "policy"));
}

}  // namespace

Result<int> run_check(const CheckArgs& args) {
  EREDU_TRY(policy, policy_from(args.policy));
  EREDU_TRY(admission, admission_from(args.residency));
  EREDU_TRY(model, describe_folder(args.model_dir, args.pad_vocab, args.config_only));
  const eredu_topology topology = topology_of(args.topology);
  const eredu_check_options check_options = admission.check_options();
  const bool json = args.format == "json";
  // The progress line is erased before anything is written. The table's
  // world part reads each rank's totals from the check itself: one plan.
  EREDU_TRY(report, [&]() -> Result<std::string> {
    ProgressLine progress;
    const eredu_plan_options options = progress.options(plan_options(policy, args.topology));
    return text_of([&](char** out, std::size_t* length, eredu_error** error) {
      return eredu_check_json(model.get(), &topology, &options, &check_options, out, length, error);
    });
  }());
  const Json checked = Json::parse(report);
  if (json) {
    EREDU_TRY(write_stdout(report));
  } else {
    const ModelCounts counts = model_counts(*model);
    EREDU_TRY(write_stdout(check_header(checked, counts) + world_table(checked) + "\n" +
                           check_table(checked, counts.experts)));
  }
  const bool ok = checked.at("coverage").at("ok").get<bool>() && checked.at("fits").get<bool>();
  return ok ? kExitOk : kExitCoverage;
}

}  // namespace eredu::cli
