// The subcommands. Each returns the exit status of a run that got as far as
// its output (0, or 3 for coverage problems); failures are returned for the
// caller to report.
#pragma once

#include "cli/options.hpp"
#include "core/result.hpp"

namespace eredu {

/// `eredu plan`: loads the description (a load error comes before any
/// topology or rank error), then plans one rank (eredu.layout.v1 or a table)
/// or every rank with coverage (eredu.world.v1 or a table; 3 on problems).
Result<int> run_plan(const PlanArgs& args);

/// `eredu describe`: the folder's eredu.groups.v1 description.
Result<int> run_describe(const DescribeArgs& args);

/// `eredu check`: describe, plan every rank, verify coverage; a table or an
/// eredu.world.v1 document; 3 on coverage problems.
Result<int> run_check(const CheckArgs& args);

}  // namespace eredu
