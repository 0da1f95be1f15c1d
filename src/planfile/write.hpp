// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Writing a plan file (docs/plan-files.md): every rank of a world planned
// once, its layout text compressed into its own frame.
#pragma once

#include <memory>
#include <string>

#include "core/result.hpp"
#include "model/model.hpp"
#include "plan/layout.hpp"
#include "topology/topology.hpp"
#include "world/world.hpp"

namespace eredu {

/// Plans every rank of `topology` for `model` (plan_world with `options`:
/// threads, progress; its visitor is this function's) and writes the plan
/// file at `path` atomically: a temporary file in the same folder, written
/// whole, flushed to disk (fsync), then renamed over `path`; on failure it
/// is removed and `path` is left as it was. The header records whether
/// coverage was proven; a world with coverage problems is still written.
/// Errors: plan_world's (planning, InvalidArgument above kMaxWorldRanks,
/// Cancelled, OutOfMemory); InvalidArgument when a rank's layout text is
/// larger than kPlanFileMaxRankBytes; Io when the file cannot be written.
Result<void> write_plan_file(const std::shared_ptr<const ModelDescription>& model,
                             const ParallelTopology& topology, ShardingPolicy policy,
                             WorldOptions options, const std::string& path);

}  // namespace eredu
