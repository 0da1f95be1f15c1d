// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The admission section of `eredu check`'s table output (docs/interchange.md,
// "`eredu check`").
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "cli/json.hpp"

namespace eredu::cli {

/// "residency: fully_resident; device budget 80.00 GiB, host budget
/// unbounded, prefetch depth 1, host lookahead 1" and a newline, from the
/// `residency` object of eredu.check.v1 or eredu.fit.v1.
std::string residency_line(const Json& residency);

/// The residency line, one row per rank (local, static, layer units, device
/// window, device, host and disk bytes in human units, fits), then the
/// verdict: `fits: all N ranks; ...` with the largest device and host peaks
/// and their budgets in bytes, or `does not fit: M of N ranks` and one
/// BudgetExceeded line per failing rank (the first 8, then how many more);
/// then, for a model of `experts` routed experts per layer, every rank's
/// experts. From an eredu.check.v1 document.
std::string check_table(const Json& report, std::optional<std::uint64_t> experts);

}  // namespace eredu::cli
