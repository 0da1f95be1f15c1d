// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Which ranks own a group scope, computed from the scope and the topology alone
// (docs/planning.md, "Ownership"), so coverage does not trust the planner's
// answer.
#pragma once

#include <string>

#include "core/result.hpp"
#include "model/group.hpp"
#include "model/model.hpp"
#include "topology/topology.hpp"

namespace eredu {

/// True when the rank at `coordinates` owns `scope`: its pipeline stage holds
/// the scope's stage (first / last / the stage whose balanced layer range
/// holds the layer) and its expert rank holds the expert. With one stage (or
/// one expert rank) the owner is coordinate 0 and no range is computed.
/// Errors: MissingLayerCount / MissingExpertCount when a range is needed and
/// `info` lacks the count; balanced_contiguous_range's errors.
Result<bool> scope_owned_by(const GroupScope& scope, const ModelInfo& info,
                            const ParallelTopology& topology,
                            const ParallelCoordinates& coordinates);

/// "embedding", "layer 5", "layer 5, expert 3", "all" (coverage details).
std::string scope_text(const GroupScope& scope);

}  // namespace eredu
