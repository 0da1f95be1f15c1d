// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// `eredu fit`'s table output (docs/interchange.md, "`eredu fit`").
#pragma once

#include <cstdint>
#include <string>

#include "cli/json.hpp"

namespace eredu::cli {

/// The model (of `layers` decoder layers) and residency lines; one row per
/// topology (world, tp, pp, ep, plans: yes or the error's status name, the
/// largest device peak in human units or -, fits); then `smallest fitting
/// world: W (tp T, pp P, ep E; …)` naming every topology of that world that
/// fits, or `nothing fits in a world of up to N ranks`. From an
/// eredu.fit.v1 document.
std::string fit_table(const Json& report, std::uint64_t layers);

}  // namespace eredu::cli
