// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// `eredu read-plan --format table`: one rank's extents, a tensor per row.
#pragma once

#include <cstdint>
#include <string>

#include "readplan/read_plan.hpp"

namespace eredu {

/// A summary line (rank, tensors, extents, bytes read and allocated, files),
/// then one row per tensor: target, dtype, local shape, bytes read, padding
/// rows and its extents (`file@offset+length`, with `×count/stride` for a
/// strided one).
std::string read_plan_table(const ReadPlan& plan, std::uint64_t world_size);

}  // namespace eredu
