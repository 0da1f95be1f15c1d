// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// `eredu fit`'s table output (docs/interchange.md, "`eredu fit`").
#pragma once

#include <string>

#include "admission/fit.hpp"

namespace eredu {

/// The model and residency lines; one row per topology (world, tp, pp, ep,
/// plans: yes or the error's status name, the largest device peak in human
/// units or -, fits); then `smallest fitting world: W (tp T, pp P, ep E;
/// …)` naming every topology of that world that fits, or `nothing fits in
/// a world of up to N ranks`.
std::string fit_table(const FitReport& report);

}  // namespace eredu
