// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "cli/layout_table.hpp"

#include <fmt/format.h>

#include "cli/byte_units.hpp"
#include "cli/table.hpp"

namespace eredu {
namespace {

std::string placement_text(const TensorPlacement& placement) {
  switch (placement.kind) {
    case PlacementKind::Rank:
      return fmt::format("rank {}", placement.rank);
    case PlacementKind::Shard:
      return fmt::format("shard {}/{} axis {}", placement.index, placement.parts, placement.axis);
    case PlacementKind::Range:
      return fmt::format("range axis {} [{}, {})", placement.axis, placement.start, placement.end);
    case PlacementKind::Indices:
      return fmt::format("indices axis {} ({} in {} runs)", placement.axis, placement.count,
                         placement.runs.size());
    default:
      return std::string(placement_kind_name(placement.kind));
  }
}

std::string bytes_text(std::optional<std::uint64_t> bytes) {
  return bytes ? human_bytes(*bytes) : "unknown";
}

}  // namespace

std::string layout_table(const LocalModelLayout& layout) {
  const ParallelCoordinates& at = layout.coordinates;
  std::string out =
      fmt::format("rank {} of {}: tensor {}, pipeline {}, expert {}, data {}; policy {}\n\n",
                  layout.rank, layout.topology.world_size(), at.tensor, at.pipeline, at.expert,
                  at.data, sharding_policy_name(layout.policy));
  TextTable table(
      {{"TARGET"}, {"PLACEMENT"}, {"LOCAL SHAPE"}, {"BYTES", TextTable::Align::Right}, {"NOTE"}});
  for (const LocalTensorLayout& tensor : layout.tensors) {
    std::string note;
    if (tensor.fell_back_to_replication) note = "fell back to replication";
    if (tensor.kv_head_copies > 1) note = fmt::format("KV head on {} ranks", tensor.kv_head_copies);
    if (tensor.padding_rows > 0) note = fmt::format("{} padding rows", tensor.padding_rows);
    if (tensor.expert_range) {
      note = fmt::format("experts [{}, {})", tensor.expert_range->start, tensor.expert_range->end);
    }
    table.add_row({tensor.target(), placement_text(tensor.placement),
                   fmt::format("[{}]", fmt::join(tensor.local_shape, ", ")),
                   bytes_text(tensor.local_bytes), std::move(note)});
  }
  out += table.render();
  const LayoutTotals& totals = layout.totals;
  out += fmt::format(
      "\n{} tensors materialized, {} omitted; local bytes {} ({}) of global {} ({})\n",
      totals.materialized_tensors, totals.omitted_tensors, totals.local_bytes,
      human_bytes(totals.local_bytes), totals.global_bytes, human_bytes(totals.global_bytes));
  if (totals.unknown_bytes_tensors > 0) {
    out += fmt::format("{} tensors have no dtype and are not counted in bytes\n",
                       totals.unknown_bytes_tensors);
  }
  if (const auto& experts = layout.experts) {
    out += fmt::format(
        "routed experts [{}, {}) of every layer: {} units of up to {}; routed bytes {} ({}), "
        "other bytes {} ({})\n",
        experts->held.start, experts->held.end, experts->units,
        human_bytes(experts->largest_unit_bytes), experts->routed_bytes,
        human_bytes(experts->routed_bytes), experts->other_bytes,
        human_bytes(experts->other_bytes));
  }
  return out;
}

}  // namespace eredu
