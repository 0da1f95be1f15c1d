// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// `eredu.layout.v1` output (docs/interchange.md) and the pieces the world and
// check documents share with it.
#pragma once

#include <string>

#include "interchange/json_writer.hpp"
#include "plan/layout.hpp"
#include "topology/topology.hpp"

namespace eredu {

/// `layout` as canonical `eredu.layout.v1` text, one trailing newline.
/// Never fails (the layout is already validated).
std::string layout_to_json(const LocalModelLayout& layout);

/// Writes `{"tensor":T,"pipeline":P,"expert":E,"data":D}` as the next value.
void append_topology(JsonWriter& writer, const ParallelTopology& topology);

/// Writes `{"tensor":t,"pipeline":p,"expert":e,"data":d}` as the next value.
void append_coordinates(JsonWriter& writer, const ParallelCoordinates& coordinates);

/// Writes a `totals` object as the next value: local_bytes, global_bytes,
/// materialized_tensors, omitted_tensors, then unknown_bytes_tensors only
/// when it is above 0.
void append_totals(JsonWriter& writer, const LayoutTotals& totals);

/// Writes an `experts` object as the next value (docs/interchange.md,
/// eredu.layout.v1): start, end, routed_bytes, other_bytes, units,
/// largest_unit_bytes, then cached_units when given (eredu.check.v1).
void append_experts(JsonWriter& writer, const RankExperts& experts,
                    std::optional<std::uint64_t> cached_units = std::nullopt);

}  // namespace eredu
