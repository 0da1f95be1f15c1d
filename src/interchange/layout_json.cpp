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
  writer.begin_object().key("kind").word(placement_kind_name(placement.kind));
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

// The members every rank writes alike, target to global_shape.
void append_tensor_head(JsonWriter& writer, const LocalTensorLayout& tensor) {
  writer.key("target").string(tensor.target());
  writer.key("logical_name").string(tensor.logical_name());
  writer.key("role").word(role_name(tensor.role()));
  writer.key("global_shape");
  append_shape(writer, tensor.global_shape());
}

// The members from local_shape on, of an object whose head is written.
void append_tensor_tail(JsonWriter& writer, const LocalTensorLayout& tensor) {
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
}

void append_tensor(JsonWriter& writer, const LocalTensorLayout& tensor) {
  writer.begin_object();
  append_tensor_head(writer, tensor);
  append_tensor_tail(writer, tensor);
  writer.end_object();
}

// The tensor at `position` with the description's head when it has it.
void append_tensor(JsonWriter& writer, const LocalTensorLayout& tensor, std::size_t position,
                   const LayoutJsonFragments& fragments) {
  const std::optional<std::string_view> head = fragments.head(position, tensor);
  if (!head) {
    append_tensor(writer, tensor);
    return;
  }
  writer.begin_object().raw_members(*head);
  append_tensor_tail(writer, tensor);
  writer.end_object();
}

// An omitted tensor's entry, which depends on its member alone.
LocalTensorLayout omitted_tensor(const ParameterGroupSpec& group,
                                 const ParameterMemberSpec& member) {
  LocalTensorLayout tensor;
  tensor.group = &group;
  tensor.member = &member;
  tensor.placement = TensorPlacement::omit();
  tensor.local_bytes = 0;
  return tensor;
}

// Whether `tensor` is written as omitted_tensor of its member is.
bool is_omitted_tensor(const LocalTensorLayout& tensor) {
  return tensor.placement.kind == PlacementKind::Omit && tensor.local_shape.empty() &&
         !tensor.logical_range && !tensor.fell_back_to_replication && tensor.kv_head_copies == 1 &&
         tensor.padding_rows == 0 && !tensor.expert_range && tensor.local_bytes == std::uint64_t{0};
}

}  // namespace

LayoutJsonFragments::LayoutJsonFragments(const ModelDescription& model) {
  entries_.reserve(model.by_target().size());
  for (const std::uint32_t flat : model.by_target()) {
    const MemberEntry& where = model.members()[flat];
    const ParameterGroupSpec& group = model.groups()[where.group];
    const LocalTensorLayout tensor = omitted_tensor(group, group.members()[where.member]);
    if (!entries_.empty()) text_ += ',';
    Entry& entry = entries_.emplace_back();
    entry.group = tensor.group;
    entry.member = tensor.member;
    entry.start = text_.size();
    JsonWriter writer(text_);
    writer.begin_object();
    append_tensor_head(writer, tensor);
    entry.head_end = text_.size();
    append_tensor_tail(writer, tensor);
    writer.end_object();
    entry.end = text_.size();
  }
}

std::optional<std::string_view> LayoutJsonFragments::head(std::size_t position,
                                                          const LocalTensorLayout& tensor) const {
  if (position >= entries_.size()) return std::nullopt;
  const Entry& entry = entries_[position];
  if (entry.member != tensor.member || entry.group != tensor.group) return std::nullopt;
  return std::string_view(text_).substr(entry.start + 1, entry.head_end - entry.start - 1);
}

LayoutJsonFragments::OmittedRun LayoutJsonFragments::omitted_run(
    std::size_t position, std::span<const LocalTensorLayout> tensors) const {
  std::size_t end = position;
  while (end < tensors.size() && head(end, tensors[end]) && is_omitted_tensor(tensors[end])) ++end;
  if (end == position) return {};
  const std::size_t start = entries_[position].start;
  return {std::string_view(text_).substr(start, entries_[end - 1].end - start), end - position};
}

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

std::string layout_to_json(const LocalModelLayout& layout, const LayoutJsonFragments* fragments) {
  std::string out;
  layout_to_json(layout, fragments, out);
  return out;
}

void layout_to_json(const LocalModelLayout& layout, const LayoutJsonFragments* fragments,
                    std::string& out) {
  out.clear();
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
  const std::span<const LocalTensorLayout> tensors = layout.tensors;
  for (std::size_t i = 0; i < tensors.size();) {
    if (fragments == nullptr) {
      append_tensor(writer, tensors[i++]);
      continue;
    }
    if (const LayoutJsonFragments::OmittedRun run = fragments->omitted_run(i, tensors);
        run.tensors > 0) {
      writer.raw_values(run.text);
      i += run.tensors;
      continue;
    }
    append_tensor(writer, tensors[i], i, *fragments);
    ++i;
  }
  writer.end_array();
  writer.key("totals");
  append_totals(writer, layout.totals);
  if (layout.experts) {
    writer.key("experts");
    append_experts(writer, *layout.experts);
  }
  writer.end_object();
  out += '\n';
}

}  // namespace eredu
