// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The subcommands. Each returns the exit status of a run that got as far as
// its output (0, or 3 for coverage problems); failures are returned for the
// caller to report.
#pragma once

#include "cli/options.hpp"
#include "cli/result.hpp"

namespace eredu::cli {

/// `eredu plan`: loads the description (a load error comes before any
/// topology or rank error), then plans one rank (eredu.layout.v1 or a table)
/// or every rank with coverage (eredu.world.v1 or a table; 3 on problems).
Result<int> run_plan(const PlanArgs& args);

/// `eredu describe`: the folder's eredu.groups.v1 description.
Result<int> run_describe(const DescribeArgs& args);

/// `eredu check`: residency flags first, then describe, plan every rank, verify
/// coverage and admit every rank (docs/residency.md, "Admission"); a table or
/// an eredu.check.v1 document; 3 on coverage problems or a rank that does not
/// fit.
Result<int> run_check(const CheckArgs& args);
Result<int> run_fit(const FitArgs& args);

/// `eredu read-plan`: describes MODEL (or loads --groups), opens its
/// checkpoint, plans one rank or every rank and prints each one's read plan
/// (a table, eredu.readplan.v1, or a JSON array of them with --all-ranks).
Result<int> run_read_plan(const ReadPlanArgs& args);

/// `eredu load`: describes MODEL (or loads --groups), opens its checkpoint,
/// plans one rank and reads its whole read plan into memory
/// (eredu_read_plan_load), with a progress bar on a terminal; prints the
/// bytes read and kept, the tensors, the seconds and the throughput.
Result<int> run_load(const LoadArgs& args);

/// `eredu residency`: validates an eredu.residency.v1 policy (a file, or -
/// for stdin) and prints the configuration it derives.
Result<int> run_residency(const ResidencyArgs& args);

}  // namespace eredu::cli
