// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// `eredu.world.v1` output (docs/interchange.md).
#pragma once

#include <string>

#include "interchange/json_writer.hpp"
#include "world/world.hpp"

namespace eredu {

/// Writes the `coverage` object (`ok`, `tensors`, `problems`) as the next
/// value; shared with documents that embed a world's coverage.
void append_coverage(JsonWriter& writer, const WorldPlan& world);

/// `world` as canonical `eredu.world.v1` text with one trailing newline:
/// schema, topology, policy, global_bytes, ranks (rank, coordinates, totals,
/// fell_back_groups by name), coverage. Never fails.
std::string world_to_json(const WorldPlan& world);

}  // namespace eredu
