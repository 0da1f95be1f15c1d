// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Executing a read plan: one tensor's extents read from its files into the
// caller's buffer (docs/checkpoints.md, "Reading through a plan").
#pragma once

#include <cstddef>
#include <span>

#include "core/result.hpp"
#include "readplan/read_plan.hpp"

namespace eredu {

/// Reads tensor `index` of `plan` into `buffer` (at least its local_bytes):
/// every extent's bytes and nothing else, single extents with pread,
/// strided ones copied from a read-only mapping of the span they cover (a
/// pread per row would cost a system call for each). Padding rows and any
/// bytes past local_bytes are left as they were. Errors: InvalidArgument
/// (index out of range, a buffer smaller than local_bytes); Io (a file that
/// cannot be opened or mapped, or is shorter than the plan says: it changed
/// since the plan was made), naming the file. `buffer` may be partly
/// written on failure. Thread-safe: any number of tensors may be read
/// concurrently.
Result<void> read_tensor(const ReadPlan& plan, std::size_t index, std::span<char> buffer);

}  // namespace eredu
