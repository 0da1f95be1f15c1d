// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "interchange/layout_json.hpp"

#include <span>

namespace eredu {
namespace {

void append_shape(JsonWriter& writer, std::span<const std::uint64_t> shape) {
  writer.begin_array();
  for (std::uint64_t dimension : shape) writer.uint(dimension);
  writer.end_array();
}

void append_range(JsonWriter& writer, const IndexRange& range) {
  writer.begin_array().uint(range.start).uint(range.end).end_array();
}

void append_placement(JsonWriter& writer, const TensorPlacement& placement) {
  writer.begin_object().key("kind").string(placement_kind_name(placement.kind));
  switch (placement.kind) {
    case PlacementKind::Replicated:
    case PlacementKind::Local:
    case PlacementKind::Omit:
      break;
    case PlacementKind::Rank:
      writer.key("rank").uint(placement.rank);
      break;
    case PlacementKind::Shard:
      writer.key("axis").uint(placement.axis);
      writer.key("index").uint(placement.index);
      writer.key("parts").uint(placement.parts);
      break;
    case PlacementKind::Range:
      writer.key("axis").uint(placement.axis);
      writer.key("start").uint(placement.start);
      writer.key("end").uint(placement.end);
      break;
    case PlacementKind::Indices:
      writer.key("axis").uint(placement.axis);
      writer.key("runs").begin_array();
      for (const IndexRange& run : placement.runs) append_range(writer, run);
      writer.end_array();
      writer.key("count").uint(placement.count);
      break;
  }
  writer.end_object();
}

void append_tensor(JsonWriter& writer, const LocalTensorLayout& tensor) {
  writer.begin_object();
  writer.key("target").string(tensor.target());
  writer.key("logical_name").string(tensor.logical_name());
  writer.key("role").string(role_name(tensor.role()));
  writer.key("global_shape");
  append_shape(writer, tensor.global_shape());
  writer.key("local_shape");
  append_shape(writer, tensor.local_shape);
  writer.key("placement");
  append_placement(writer, tensor.placement);
  writer.key("logical_units").uint_or_null(tensor.logical_units());
  writer.key("logical_range");
  if (tensor.logical_range) {
    append_range(writer, *tensor.logical_range);
  } else {
    writer.null();
  }
  writer.key("fell_back_to_replication").boolean(tensor.fell_back_to_replication);
  if (tensor.kv_head_copies > 1) writer.key("kv_head_copies").uint(tensor.kv_head_copies);
  if (tensor.padding_rows > 0) writer.key("padding_rows").uint(tensor.padding_rows);
  if (tensor.expert_range) {
    writer.key("expert_range").begin_object();
    writer.key("axis").uint(*tensor.member->sharding().expert_axis);
    writer.key("start").uint(tensor.expert_range->start);
    writer.key("end").uint(tensor.expert_range->end);
    writer.end_object();
  }
  writer.key("local_bytes").uint_or_null(tensor.local_bytes);
  writer.end_object();
}

}  // namespace

void append_topology(JsonWriter& writer, const ParallelTopology& topology) {
  writer.begin_object();
  writer.key("tensor").uint(topology.tensor());
  writer.key("pipeline").uint(topology.pipeline());
  writer.key("expert").uint(topology.expert());
  writer.key("data").uint(topology.data());
  if (!topology.pipeline_layers().empty()) {
    writer.key("pipeline_layers").begin_array();
    for (std::uint64_t count : topology.pipeline_layers()) writer.uint(count);
    writer.end_array();
  }
  writer.end_object();
}

void append_coordinates(JsonWriter& writer, const ParallelCoordinates& coordinates) {
  writer.begin_object();
  writer.key("tensor").uint(coordinates.tensor);
  writer.key("pipeline").uint(coordinates.pipeline);
  writer.key("expert").uint(coordinates.expert);
  writer.key("data").uint(coordinates.data);
  writer.end_object();
}

void append_totals(JsonWriter& writer, const LayoutTotals& totals) {
  writer.begin_object();
  writer.key("local_bytes").uint(totals.local_bytes);
  writer.key("global_bytes").uint(totals.global_bytes);
  writer.key("materialized_tensors").uint(totals.materialized_tensors);
  writer.key("omitted_tensors").uint(totals.omitted_tensors);
  if (totals.unknown_bytes_tensors > 0) {
    writer.key("unknown_bytes_tensors").uint(totals.unknown_bytes_tensors);
  }
  writer.end_object();
}

void append_experts(JsonWriter& writer, const RankExperts& experts,
                    std::optional<std::uint64_t> cached_units) {
  writer.begin_object();
  writer.key("start").uint(experts.held.start);
  writer.key("end").uint(experts.held.end);
  writer.key("routed_bytes").uint(experts.routed_bytes);
  writer.key("other_bytes").uint(experts.other_bytes);
  writer.key("units").uint(experts.units);
  writer.key("largest_unit_bytes").uint(experts.largest_unit_bytes);
  if (cached_units) writer.key("cached_units").uint(*cached_units);
  writer.end_object();
}

std::string layout_to_json(const LocalModelLayout& layout) {
  std::string out;
  out.reserve(512 + layout.tensors.size() * 320);  // typical bytes per tensor entry
  JsonWriter writer(out);
  writer.begin_object();
  writer.key("schema").string("eredu.layout.v1");
  writer.key("topology");
  append_topology(writer, layout.topology);
  writer.key("rank").uint(layout.rank);
  writer.key("coordinates");
  append_coordinates(writer, layout.coordinates);
  writer.key("policy").string(sharding_policy_name(layout.policy));
  writer.key("tensors").begin_array();
  for (const LocalTensorLayout& tensor : layout.tensors) append_tensor(writer, tensor);
  writer.end_array();
  writer.key("totals");
  append_totals(writer, layout.totals);
  if (layout.experts) {
    writer.key("experts");
    append_experts(writer, *layout.experts);
  }
  writer.end_object();
  out += '\n';
  return out;
}

}  // namespace eredu
