// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// `eredu.fit.v1` output (docs/interchange.md).
#pragma once

#include <string>

#include "admission/fit.hpp"

namespace eredu {

/// `report` as canonical `eredu.fit.v1` text with one trailing newline:
/// schema, model (name or null, tensors, global_bytes), policy, residency,
/// max_world, topologies (tp, pp, ep, world, plans, fits,
/// device_peak_bytes when it plans; error, the status name, and message when
/// it does not), smallest_fitting_world when a topology fits. Never fails.
std::string fit_to_json(const FitReport& report);

}  // namespace eredu
