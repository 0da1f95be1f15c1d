// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The steps `eredu read-plan` and `eredu load` share: the description, the
// checkpoint and one rank's read plan.
#pragma once

#include <cstdint>
#include <string>

#include "cli/library.hpp"
#include "cli/options.hpp"

namespace eredu::cli {

/// The checkpoint at `path` (eredu_checkpoint_open).
Result<Checkpoint> open_checkpoint(const std::string& path);

/// The description: --groups FILE, else MODEL described from `checkpoint`,
/// MODEL opened (its index and headers read once).
Result<Model> read_plan_model(const ReadPlanArgs& args, const eredu_checkpoint& checkpoint);

/// Rank `rank` planned and its read plan over `checkpoint`.
Result<ReadPlan> read_plan_of(const eredu_model& model, const eredu_topology& topology,
                              std::uint64_t rank, const eredu_plan_options& options,
                              const eredu_checkpoint& checkpoint);

}  // namespace eredu::cli
