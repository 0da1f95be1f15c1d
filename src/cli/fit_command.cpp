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
  // A description file plans as it is. A model folder's description does
  // not depend on the expert size, but its describer may refuse sizes above
  // 1 (naming the size): described once for size 1 and once above, and
  // again only to name a refused size.
  std::optional<Result<std::shared_ptr<const ModelDescription>>> single;
  std::optional<Result<std::shared_ptr<const ModelDescription>>> several;
  const ModelForExpertSize model_for =
      [&](std::uint64_t expert) -> Result<std::shared_ptr<const ModelDescription>> {
    if (groups) return groups;
    auto& cached = expert == 1 ? single : several;
    if (cached && cached->has_value()) return cached->value();
    if (cached) return describe_model_dir(*args.model_dir, DescribeOptions{expert, args.pad_vocab});
    cached = describe_model_dir(*args.model_dir, DescribeOptions{expert, args.pad_vocab});
    return *cached;
  };
  EREDU_TRY(report, fit_topologies(model_for, policy, residency, args.max_world));
  EREDU_TRY(write_stdout(args.format == "json" ? fit_to_json(report) : fit_table(report)));
  return report.smallest_fitting_world() ? kExitOk : kExitCoverage;
}

}  // namespace eredu
