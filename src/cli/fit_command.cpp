// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "admission/fit.hpp"
#include "admission/fit_json.hpp"
#include "cli/commands.hpp"
#include "cli/fit_table.hpp"
#include "cli/input.hpp"
#include "cli/output.hpp"
#include "describe/describe.hpp"
#include "model/vocab_padding.hpp"

namespace eredu {

Result<int> run_fit(const FitArgs& args) {
  EREDU_TRY(policy, policy_from(args.policy));
  EREDU_TRY(residency, admission_policy_from(args.residency));
  std::shared_ptr<const ModelDescription> groups;
  if (args.groups) {
    EREDU_TRY(loaded, load_description(*args.groups));
    groups = loaded;
    if (args.pad_vocab) {
      EREDU_TRY(padded, pad_vocabulary(*groups, *args.pad_vocab));
      groups = padded;
    }
  }
  if (!groups) {
    EREDU_TRY(described, describe_folder(*args.model_dir, args.pad_vocab, args.config_only));
    groups = described;
  }
  EREDU_TRY(report, fit_topologies(groups, policy, residency, args.max_world));
  EREDU_TRY(write_stdout(args.format == "json" ? fit_to_json(report) : fit_table(report)));
  return report.smallest_fitting_world() ? kExitOk : kExitCoverage;
}

}  // namespace eredu
