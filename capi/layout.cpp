// eredu_plan_rank and eredu_layout_*: seed LocalModelLayout of one rank.
#include <cstring>
#include <memory>
#include <string>
#include <utility>

#include "core/text.hpp"
#include "firewall.hpp"
#include "handles.hpp"
#include "interchange/layout_json.hpp"
#include "outputs.hpp"
#include "plan/planner.hpp"
#include "policy_argument.hpp"

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
/// Wraps a finished layout, flattening every Indices placement's runs into
/// {start, end} pairs.
std::unique_ptr<eredu_layout> make_handle(LocalModelLayout planned) {
  auto handle = std::make_unique<eredu_layout>();
  handle->run_offsets.reserve(planned.tensors.size());
  for (const LocalTensorLayout& tensor : planned.tensors) {
    handle->run_offsets.push_back(handle->run_values.size());
    for (const IndexRange& run : tensor.placement.runs) {
      handle->run_values.push_back(run.start);
      handle->run_values.push_back(run.end);
    }
  }
  handle->layout = std::move(planned);
  return handle;
}

template <class Body, class... Outs>
eredu_status layout_getter(const eredu_layout* layout, eredu_error** error, Body&& body,
                           Outs*... outs) {
  return handle_call(
      layout, "layout", error, [&](const eredu_layout& handle) { return body(handle.layout); },
      outs...);
}

/// Checks the layout and the index, then hands the tensor to `body`.
template <class Body, class... Outs>
eredu_status tensor_getter(const eredu_layout* layout, std::size_t index, eredu_error** error,
                           Body&& body, Outs*... outs) {
  return layout_getter(
      layout, error,
      [&](const LocalModelLayout& planned) -> Result<void> {
        EREDU_TRY(index_argument(index, planned.tensors.size(), "tensor index"));
        return body(planned.tensors[index]);
      },
      outs...);
}

/// A borrowed shape getter: NULL for ndim 0.
template <class Shape>
Result<void> shape_out(const Shape& shape, const std::uint64_t** out, std::size_t* ndim) {
  EREDU_TRY(require(out, "shape"));
  EREDU_TRY(require(ndim, "ndim"));
  *out = shape.empty() ? nullptr : shape.data();
  *ndim = shape.size();
  return outcome::success();
}

/// An optional value getter.
template <class T, class Value>
Result<void> optional_out(const std::optional<Value>& value, T* out, const char* name,
                          bool* present) {
  EREDU_TRY(require(out, name));
  EREDU_TRY(require(present, "present"));
  *out = value ? static_cast<T>(*value) : T{};
  *present = value.has_value();
  return outcome::success();
}

/// Four axis values, for the topology and the coordinates.
Result<void> axes_out(std::uint64_t tensor_value, std::uint64_t pipeline_value,
                      std::uint64_t expert_value, std::uint64_t data_value, std::uint64_t* tensor,
                      std::uint64_t* pipeline, std::uint64_t* expert, std::uint64_t* data) {
  EREDU_TRY(require(tensor, "tensor"));
  EREDU_TRY(require(pipeline, "pipeline"));
  EREDU_TRY(require(expert, "expert"));
  EREDU_TRY(require(data, "data"));
  *tensor = tensor_value;
  *pipeline = pipeline_value;
  *expert = expert_value;
  *data = data_value;
  return outcome::success();
}

}  // namespace

}  // namespace eredu::capi

// Defined at global scope: GCC gives extern "C" definitions inside a
// namespace that namespace's (hidden) visibility.
using namespace eredu;
using namespace eredu::capi;

extern "C" {

eredu_status eredu_plan_rank(const eredu_model* model, uint64_t tensor, uint64_t pipeline,
                             uint64_t expert, uint64_t data, uint64_t rank, eredu_policy policy,
                             eredu_layout** out, eredu_error** error) {
  return firewall(
      error,
      [&]() -> Result<void> {
        EREDU_TRY(require(model, "model"));
        EREDU_TRY(sharding_policy, policy_argument(policy));
        EREDU_TRY(require(out, "out"));
        EREDU_TRY(topology, ParallelTopology::create(tensor, pipeline, expert, data));
        EREDU_TRY(planned, plan_rank(model->description, topology, rank, sharding_policy));
        // Published only once complete: a layout or an error, never half.
        *out = make_handle(std::move(planned)).release();
        return outcome::success();
      },
      out);
}

eredu_status eredu_placement_init(eredu_placement* placement, eredu_error** error) {
  return init_sized(placement, "placement", error);
}

eredu_status eredu_layout_totals_init(eredu_layout_totals* totals, eredu_error** error) {
  return init_sized(totals, "totals", error);
}

void eredu_layout_free(eredu_layout* layout) { delete layout; }

eredu_status eredu_layout_topology(const eredu_layout* layout, uint64_t* tensor, uint64_t* pipeline,
                                   uint64_t* expert, uint64_t* data, eredu_error** error) {
  return layout_getter(
      layout, error,
      [&](const LocalModelLayout& planned) {
        const ParallelTopology& sizes = planned.topology;
        return axes_out(sizes.tensor(), sizes.pipeline(), sizes.expert(), sizes.data(), tensor,
                        pipeline, expert, data);
      },
      tensor, pipeline, expert, data);
}

eredu_status eredu_layout_rank(const eredu_layout* layout, uint64_t* out, eredu_error** error) {
  return layout_getter(
      layout, error,
      [&](const LocalModelLayout& planned) -> Result<void> {
        EREDU_TRY(require(out, "out"));
        *out = planned.rank;
        return outcome::success();
      },
      out);
}

eredu_status eredu_layout_coordinates(const eredu_layout* layout, uint64_t* tensor,
                                      uint64_t* pipeline, uint64_t* expert, uint64_t* data,
                                      eredu_error** error) {
  return layout_getter(
      layout, error,
      [&](const LocalModelLayout& planned) {
        const ParallelCoordinates& at = planned.coordinates;
        return axes_out(at.tensor, at.pipeline, at.expert, at.data, tensor, pipeline, expert, data);
      },
      tensor, pipeline, expert, data);
}

eredu_status eredu_layout_policy(const eredu_layout* layout, eredu_policy* out,
                                 eredu_error** error) {
  return layout_getter(
      layout, error,
      [&](const LocalModelLayout& planned) -> Result<void> {
        EREDU_TRY(require(out, "out"));
        *out = static_cast<eredu_policy>(planned.policy);
        return outcome::success();
      },
      out);
}

eredu_status eredu_layout_get_totals(const eredu_layout* layout, eredu_layout_totals* totals,
                                     eredu_error** error) {
  return layout_getter(
      layout, error,
      [&](const LocalModelLayout& planned) -> Result<void> {
        EREDU_TRY(sized_argument(totals, "totals"));
        totals->local_bytes = planned.totals.local_bytes;
        totals->global_bytes = planned.totals.global_bytes;
        totals->materialized_tensors = planned.totals.materialized_tensors;
        totals->omitted_tensors = planned.totals.omitted_tensors;
        totals->unknown_bytes_tensors = planned.totals.unknown_bytes_tensors;
        return outcome::success();
      },
      totals);
}

eredu_status eredu_layout_tensor_count(const eredu_layout* layout, size_t* out,
                                       eredu_error** error) {
  return layout_getter(
      layout, error,
      [&](const LocalModelLayout& planned) -> Result<void> {
        EREDU_TRY(require(out, "out"));
        *out = planned.tensors.size();
        return outcome::success();
      },
      out);
}

eredu_status eredu_layout_find_tensor(const eredu_layout* layout, const char* target, size_t* out,
                                      eredu_error** error) {
  return layout_getter(
      layout, error,
      [&](const LocalModelLayout& planned) -> Result<void> {
        EREDU_TRY(name, text_argument(target, "target"));
        EREDU_TRY(require(out, "out"));
        const LocalTensorLayout* found = planned.tensor(name);
        if (found == nullptr) {
          return failf(Status::NotFound, "the layout has no tensor {}", debug_quoted(name));
        }
        *out = static_cast<std::size_t>(found - planned.tensors.data());
        return outcome::success();
      },
      out);
}

eredu_status eredu_layout_tensor_target(const eredu_layout* layout, size_t index, const char** out,
                                        size_t* length, eredu_error** error) {
  return tensor_getter(
      layout, index, error,
      [&](const LocalTensorLayout& tensor) { return string_out(tensor.target(), out, length); },
      out, length);
}

eredu_status eredu_layout_tensor_logical_name(const eredu_layout* layout, size_t index,
                                              const char** out, size_t* length,
                                              eredu_error** error) {
  return tensor_getter(
      layout, index, error,
      [&](const LocalTensorLayout& tensor) {
        return string_out(tensor.logical_name(), out, length);
      },
      out, length);
}

eredu_status eredu_layout_tensor_role(const eredu_layout* layout, size_t index, eredu_role* out,
                                      eredu_error** error) {
  return tensor_getter(
      layout, index, error,
      [&](const LocalTensorLayout& tensor) -> Result<void> {
        EREDU_TRY(require(out, "out"));
        *out = static_cast<eredu_role>(tensor.role());
        return outcome::success();
      },
      out);
}

eredu_status eredu_layout_tensor_dtype(const eredu_layout* layout, size_t index, eredu_dtype* out,
                                       bool* present, eredu_error** error) {
  return tensor_getter(
      layout, index, error,
      [&](const LocalTensorLayout& tensor) {
        return optional_out(tensor.member->dtype(), out, "out", present);
      },
      out, present);
}

eredu_status eredu_layout_tensor_global_shape(const eredu_layout* layout, size_t index,
                                              const uint64_t** shape, size_t* ndim,
                                              eredu_error** error) {
  return tensor_getter(
      layout, index, error,
      [&](const LocalTensorLayout& tensor) {
        return shape_out(tensor.global_shape(), shape, ndim);
      },
      shape, ndim);
}

eredu_status eredu_layout_tensor_local_shape(const eredu_layout* layout, size_t index,
                                             const uint64_t** shape, size_t* ndim,
                                             eredu_error** error) {
  return tensor_getter(
      layout, index, error,
      [&](const LocalTensorLayout& tensor) { return shape_out(tensor.local_shape, shape, ndim); },
      shape, ndim);
}

eredu_status eredu_layout_tensor_placement(const eredu_layout* layout, size_t index,
                                           eredu_placement* placement, eredu_error** error) {
  return tensor_getter(
      layout, index, error,
      [&](const LocalTensorLayout& tensor) -> Result<void> {
        EREDU_TRY(sized_argument(placement, "placement"));
        const TensorPlacement& source = tensor.placement;
        eredu_placement result{};
        result.struct_size = sizeof(eredu_placement);
        result.kind = static_cast<eredu_placement_kind>(source.kind);
        switch (source.kind) {
          case PlacementKind::Replicated:
          case PlacementKind::Local:
          case PlacementKind::Omit:
            break;
          case PlacementKind::Rank:
            result.rank = source.rank;
            break;
          case PlacementKind::Shard:
            result.axis = source.axis;
            result.index = source.index;
            result.parts = source.parts;
            break;
          case PlacementKind::Range:
            result.axis = source.axis;
            result.start = source.start;
            result.end = source.end;
            break;
          case PlacementKind::Indices:
            result.axis = source.axis;
            result.runs = layout->run_values.data() + layout->run_offsets[index];
            result.run_count = source.runs.size();
            result.index_count = source.count;
            break;
        }
        *placement = result;
        return outcome::success();
      },
      placement);
}

eredu_status eredu_layout_tensor_logical_units(const eredu_layout* layout, size_t index,
                                               uint64_t* units, bool* present,
                                               eredu_error** error) {
  return tensor_getter(
      layout, index, error,
      [&](const LocalTensorLayout& tensor) {
        return optional_out(tensor.logical_units(), units, "units", present);
      },
      units, present);
}

eredu_status eredu_layout_tensor_logical_range(const eredu_layout* layout, size_t index,
                                               uint64_t* start, uint64_t* end, bool* present,
                                               eredu_error** error) {
  return tensor_getter(
      layout, index, error,
      [&](const LocalTensorLayout& tensor) -> Result<void> {
        EREDU_TRY(require(start, "start"));
        EREDU_TRY(require(end, "end"));
        EREDU_TRY(require(present, "present"));
        const std::optional<IndexRange>& range = tensor.logical_range;
        *start = range ? range->start : 0;
        *end = range ? range->end : 0;
        *present = range.has_value();
        return outcome::success();
      },
      start, end, present);
}

eredu_status eredu_layout_tensor_fell_back(const eredu_layout* layout, size_t index, bool* out,
                                           eredu_error** error) {
  return tensor_getter(
      layout, index, error,
      [&](const LocalTensorLayout& tensor) -> Result<void> {
        EREDU_TRY(require(out, "out"));
        *out = tensor.fell_back_to_replication;
        return outcome::success();
      },
      out);
}

eredu_status eredu_layout_tensor_local_bytes(const eredu_layout* layout, size_t index,
                                             uint64_t* bytes, bool* present, eredu_error** error) {
  return tensor_getter(
      layout, index, error,
      [&](const LocalTensorLayout& tensor) {
        return optional_out(tensor.local_bytes, bytes, "bytes", present);
      },
      bytes, present);
}

eredu_status eredu_layout_to_json(const eredu_layout* layout, char** out, size_t* length,
                                  eredu_error** error) {
  return layout_getter(
      layout, error,
      [&](const LocalModelLayout& planned) -> Result<void> {
        EREDU_TRY(require(out, "out"));
        return buffer_out(layout_to_json(planned), out, length);
      },
      out, length);
}

eredu_status eredu_layout_write_json(const eredu_layout* layout, char* buffer, size_t capacity,
                                     size_t* required, eredu_error** error) {
  // `required` is not a zeroed-on-failure output: EREDU_E_BUFFER_TOO_SMALL
  // reports the needed size through it.
  if (required != nullptr) *required = 0;
  return layout_getter(layout, error, [&](const LocalModelLayout& planned) -> Result<void> {
    EREDU_TRY(require_array(buffer, capacity, "buffer"));
    EREDU_TRY(require(required, "required"));
    const std::string text = layout_to_json(planned);
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
