// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "cli/commands.hpp"
#include "cli/fit_table.hpp"
#include "cli/input.hpp"
#include "cli/library.hpp"
#include "cli/output.hpp"

namespace eredu::cli {
namespace {

// The description: --groups FILE padded as --pad-vocab says, else MODEL_DIR
// described.
Result<Model> fit_model(const FitArgs& args) {
  if (!args.groups) return describe_folder(*args.model_dir, args.pad_vocab, args.config_only);
  EREDU_TRY(loaded, load_description(*args.groups));
  return pad_vocab(std::move(loaded), args.pad_vocab);
}

}  // namespace

Result<int> run_fit(const FitArgs& args) {
  EREDU_TRY(policy, policy_from(args.policy));
  EREDU_TRY(admission, admission_from(args.residency));
  EREDU_TRY(model, fit_model(args));
  eredu_plan_options plan = EREDU_PLAN_OPTIONS_INIT;
  plan.policy = policy;
  const eredu_check_options check_options = admission.check_options();
  eredu_fit_options options = EREDU_FIT_OPTIONS_INIT;
  options.max_world = args.max_world;
  EREDU_TRY(text, text_of([&](char** out, std::size_t* length, eredu_error** error) {
              return eredu_fit_json(model.get(), &plan, &check_options, &options, out, length,
                                    error);
            }));
  const Json report = Json::parse(text);
  EREDU_TRY(write_stdout(
      args.format == "json" ? text : fit_table(report, model_counts(*model).layers.value_or(0))));
  return report.contains("smallest_fitting_world") ? kExitOk : kExitCoverage;
}

}  // namespace eredu::cli
