// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// eredu.readplan.v1, the canonical JSON of a read plan (docs/interchange.md,
// "eredu.readplan.v1").
#pragma once

#include <string>

#include "readplan/read_plan.hpp"

namespace eredu {

/// `plan` as compact eredu.readplan.v1 followed by one newline.
std::string read_plan_to_json(const ReadPlan& plan);

/// Appends `plan` to `out` without the newline (an element of an array).
void append_read_plan_json(const ReadPlan& plan, std::string& out);

}  // namespace eredu
