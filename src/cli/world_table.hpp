// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// `eredu plan --all-ranks` and `eredu check` as a table.
#pragma once

#include <string>

#include "cli/json.hpp"

namespace eredu::cli {

/// One row per rank (rank, coordinates, tensors materialized, local bytes,
/// fell-back groups), then the coverage problems if any, a coverage line
/// (`coverage: ok (N tensors)`) and the global bytes, from an
/// eredu.world.v1 document or an eredu.check.v1 one (its ranks carry the
/// same totals and fell-back groups).
std::string world_table(const Json& world);

}  // namespace eredu::cli
