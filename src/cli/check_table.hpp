// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The admission section of `eredu check`'s table output (docs/interchange.md,
// "`eredu check`").
#pragma once

#include <string>

#include "admission/check.hpp"

namespace eredu {

/// "residency: fully_resident; device budget 80.00 GiB, host budget
/// unbounded, prefetch depth 1, host lookahead 1" and a newline.
std::string residency_line(const AdmissionPolicy& policy);

/// The residency line, one row per rank (local, static, layer units, device
/// window, device, host and disk bytes in human units, fits), then the
/// verdict: `fits: all N ranks; ...` with the largest device and host peaks
/// and their budgets in bytes, or `does not fit: M of N ranks` and one
/// BudgetExceeded line per failing rank (the first 8, then
/// how many more).
std::string check_table(const CheckReport& report);

}  // namespace eredu
