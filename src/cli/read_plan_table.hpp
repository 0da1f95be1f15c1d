// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// `eredu read-plan --format table`: one rank's extents, a tensor per row.
#pragma once

#include <cstdint>
#include <string>

#include "cli/result.hpp"
#include "eredu/eredu.h"

namespace eredu::cli {

/// A summary line (rank, tensors, extents, bytes read and allocated, files),
/// then one row per tensor: target, dtype, local shape, bytes read, padding
/// rows and its extents (`file@offset+length`, with `xcount/stride` for a
/// strided one). Errors: eredu_read_plan_tensor_info's.
Result<std::string> read_plan_table(const eredu_read_plan& plan, std::uint64_t world_size);

}  // namespace eredu::cli
