// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// `eredu.check.v1` output (docs/interchange.md).
#pragma once

#include <string>

#include "admission/check.hpp"
#include "interchange/json_writer.hpp"

namespace eredu {

/// Writes the `model` object of `eredu.check.v1` as the next value: name
/// (null when unnamed), tensors, global_bytes.
void append_model(JsonWriter& writer, const ModelDescription& model);

/// Writes the `residency` object of `eredu.check.v1` as the next value:
/// kind, device_budget_bytes, host_budget_bytes (null when unbounded),
/// prefetch_depth, host_lookahead.
void append_residency(JsonWriter& writer, const AdmissionPolicy& policy);

/// `report` as canonical `eredu.check.v1` text with one trailing newline:
/// schema, model (name or null, tensors, global_bytes), topology, policy,
/// residency, coverage, ranks (rank, coordinates, local_bytes, static_bytes,
/// layer_units, device_window_units, device_bytes, host_bytes, disk_bytes,
/// fits, error: null or {"code","status","message"} of BudgetExceeded),
/// fits. Never fails.
std::string check_to_json(const CheckReport& report);

}  // namespace eredu
