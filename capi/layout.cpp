// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// eredu_layout_*: the plan of one rank (seed LocalModelLayout).
#include <cstring>
#include <string>

#include "core/text.hpp"
#include "firewall.hpp"
#include "handles.hpp"
#include "interchange/layout_json.hpp"
#include "outputs.hpp"

namespace eredu::capi {
namespace {

// The C constants are the core's enum values.
static_assert(EREDU_PLACEMENT_REPLICATED == static_cast<int>(PlacementKind::Replicated));
static_assert(EREDU_PLACEMENT_LOCAL == static_cast<int>(PlacementKind::Local));
static_assert(EREDU_PLACEMENT_OMIT == static_cast<int>(PlacementKind::Omit));
static_assert(EREDU_PLACEMENT_RANK == static_cast<int>(PlacementKind::Rank));
static_assert(EREDU_PLACEMENT_SHARD == static_cast<int>(PlacementKind::Shard));
static_assert(EREDU_PLACEMENT_RANGE == static_cast<int>(PlacementKind::Range));
static_assert(EREDU_PLACEMENT_INDICES == static_cast<int>(PlacementKind::Indices));
static_assert(kPlacementKindCount == 7);

template <class Body, class... Outs>
eredu_status layout_call(const eredu_layout* layout, eredu_error** error, Body&& body,
                         Outs*... outs) {
  return handle_call(layout, "layout", error, body, outs...);
}

// Every field of tensor `index` of `handle`.
eredu_layout_tensor_info tensor_info(const eredu_layout& handle, std::size_t index) {
  const LocalTensorLayout& tensor = handle.layout.tensors[index];
  eredu_layout_tensor_info info{};
  info.role = static_cast<eredu_role>(tensor.role());
  info.target = tensor.target().c_str();
  info.target_length = tensor.target().size();
  info.logical_name = tensor.logical_name().c_str();
  info.logical_name_length = tensor.logical_name().size();
  info.global_shape = tensor.global_shape().empty() ? nullptr : tensor.global_shape().data();
  info.global_ndim = tensor.global_shape().size();
  info.local_shape = tensor.local_shape.empty() ? nullptr : tensor.local_shape.data();
  info.local_ndim = tensor.local_shape.size();
  if (auto dtype = tensor.member->dtype()) {
    info.has_dtype = 1;
    info.dtype = static_cast<eredu_dtype>(*dtype);
  }
  if (auto units = tensor.logical_units()) {
    info.has_logical_units = 1;
    info.logical_units = *units;
  }
  if (tensor.logical_range) {
    info.has_logical_range = 1;
    info.logical_start = tensor.logical_range->start;
    info.logical_end = tensor.logical_range->end;
  }
  info.fell_back_to_replication = tensor.fell_back_to_replication ? 1 : 0;
  info.kv_head_copies = tensor.kv_head_copies;
  info.padding_rows = tensor.padding_rows;
  if (tensor.expert_range) {
    info.has_expert_range = 1;
    info.expert_axis = *tensor.member->sharding().expert_axis;
    info.expert_start = tensor.expert_range->start;
    info.expert_end = tensor.expert_range->end;
  }
  if (tensor.local_bytes) {
    info.has_local_bytes = 1;
    info.local_bytes = *tensor.local_bytes;
  }
  const TensorPlacement& placement = tensor.placement;
  info.placement = static_cast<eredu_placement_kind>(placement.kind);
  switch (placement.kind) {
    case PlacementKind::Replicated:
    case PlacementKind::Local:
    case PlacementKind::Omit:
      break;
    case PlacementKind::Rank:
      info.owner_rank = placement.rank;
      break;
    case PlacementKind::Shard:
      info.axis = placement.axis;
      info.shard_index = placement.index;
      info.shard_parts = placement.parts;
      break;
    case PlacementKind::Range:
      info.axis = placement.axis;
      info.start = placement.start;
      info.end = placement.end;
      break;
    case PlacementKind::Indices:
      info.axis = placement.axis;
      info.runs = handle.run_values.data() + handle.run_offsets[index];
      info.run_count = placement.runs.size();
      info.index_count = placement.count;
      break;
  }
  return info;
}

}  // namespace
}  // namespace eredu::capi

// Defined at global scope: GCC gives extern "C" definitions inside a
// namespace that namespace's (hidden) visibility.
using namespace eredu;
using namespace eredu::capi;

extern "C" {

eredu_status eredu_layout_info_init(eredu_layout_info* info, size_t size, eredu_error** error) {
  return init_sized(info, size, "info", error);
}

eredu_status eredu_layout_tensor_info_init(eredu_layout_tensor_info* info, size_t size,
                                           eredu_error** error) {
  return init_sized(info, size, "info", error);
}

void eredu_layout_free(eredu_layout* layout) { delete layout; }

size_t eredu_layout_tensor_count(const eredu_layout* layout) {
  return layout == nullptr ? 0 : layout->layout.tensors.size();
}

eredu_status eredu_layout_topology(const eredu_layout* layout, eredu_topology* out,
                                   eredu_error** error) {
  return layout_call(
      layout, error,
      [&](const eredu_layout& handle) -> Result<void> {
        EREDU_TRY(sized_out(out, "out"));
        const ParallelTopology& sizes = handle.layout.topology;
        eredu_topology topology{};
        topology.tensor = sizes.tensor();
        topology.pipeline = sizes.pipeline();
        topology.expert = sizes.expert();
        topology.data = sizes.data();
        write_sized(out, topology);
        return outcome::success();
      },
      out);
}

eredu_status eredu_layout_get_info(const eredu_layout* layout, eredu_layout_info* out,
                                   eredu_error** error) {
  return layout_call(
      layout, error,
      [&](const eredu_layout& handle) -> Result<void> {
        EREDU_TRY(sized_out(out, "out"));
        const LocalModelLayout& planned = handle.layout;
        eredu_layout_info info{};
        info.policy = static_cast<eredu_policy>(planned.policy);
        info.rank = planned.rank;
        info.tensor_rank = planned.coordinates.tensor;
        info.pipeline_rank = planned.coordinates.pipeline;
        info.expert_rank = planned.coordinates.expert;
        info.data_rank = planned.coordinates.data;
        info.tensor_count = planned.tensors.size();
        info.local_bytes = planned.totals.local_bytes;
        info.global_bytes = planned.totals.global_bytes;
        info.materialized_tensors = planned.totals.materialized_tensors;
        info.omitted_tensors = planned.totals.omitted_tensors;
        info.unknown_bytes_tensors = planned.totals.unknown_bytes_tensors;
        write_sized(out, info);
        return outcome::success();
      },
      out);
}

eredu_status eredu_layout_get_tensor_info(const eredu_layout* layout, size_t index,
                                          eredu_layout_tensor_info* out, eredu_error** error) {
  return layout_call(
      layout, error,
      [&](const eredu_layout& handle) -> Result<void> {
        EREDU_TRY(index_argument(index, handle.layout.tensors.size(), "tensor index"));
        EREDU_TRY(sized_out(out, "out"));
        write_sized(out, tensor_info(handle, index));
        return outcome::success();
      },
      out);
}

eredu_status eredu_layout_find_tensor(const eredu_layout* layout, const char* target, size_t* out,
                                      eredu_error** error) {
  return layout_call(
      layout, error,
      [&](const eredu_layout& handle) -> Result<void> {
        EREDU_TRY(name, text_argument(target, "target"));
        EREDU_TRY(require(out, "out"));
        const LocalTensorLayout* found = handle.layout.tensor(name);
        if (found == nullptr) {
          return failf(Status::NotFound, "the layout has no tensor {}", debug_quoted(name));
        }
        *out = static_cast<std::size_t>(found - handle.layout.tensors.data());
        return outcome::success();
      },
      out);
}

eredu_status eredu_layout_to_json(const eredu_layout* layout, char** out, size_t* length,
                                  eredu_error** error) {
  return layout_call(
      layout, error,
      [&](const eredu_layout& handle) -> Result<void> {
        EREDU_TRY(require(out, "out"));
        return buffer_out(layout_to_json(handle.layout), out, length);
      },
      out, length);
}

eredu_status eredu_layout_write_json(const eredu_layout* layout, char* buffer, size_t capacity,
                                     size_t* required, eredu_error** error) {
  // `required` is not a zeroed-on-failure output: EREDU_E_BUFFER_TOO_SMALL
  // reports the needed size through it.
  if (required != nullptr) *required = 0;
  return layout_call(layout, error, [&](const eredu_layout& handle) -> Result<void> {
    EREDU_TRY(require_array(buffer, capacity, "buffer"));
    EREDU_TRY(require(required, "required"));
    const std::string text = layout_to_json(handle.layout);
    *required = text.size() + 1;
    if (capacity < text.size() + 1) {
      return failf(Status::BufferTooSmall, "the layout JSON needs {} bytes, the buffer holds {}",
                   text.size() + 1, capacity);
    }
    std::memcpy(buffer, text.c_str(), text.size() + 1);
    return outcome::success();
  });
}

}  // extern "C"
