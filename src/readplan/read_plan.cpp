// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "readplan/read_plan.hpp"

#include <map>
#include <utility>

#include "core/checked.hpp"
#include "core/text.hpp"
#include "model/model.hpp"

namespace eredu {
namespace {

// The member's stored tensor must have its shape and an element of its
// dtype (a GGUF block type: U8, the packed form).
Result<void> check_stored(const LocalTensorLayout& tensor, const CheckpointTensor& stored,
                          const StoredShape& shape) {
  if (shape.shape != tensor.global_shape()) {
    return failf(Status::CheckpointMismatch,
                 "tensor {}: the description has shape {}, the checkpoint stores {} of {}",
                 debug_quoted(tensor.target()), shape_text(tensor.global_shape()), stored.type,
                 shape_text(shape.shape));
  }
  const std::optional<Dtype> dtype = tensor.member->dtype();
  if (!stores_dtype(stored, dtype)) {
    return failf(Status::CheckpointMismatch,
                 "tensor {}: the description has dtype {}, the checkpoint stores {}",
                 debug_quoted(tensor.target()), dtype_name(*dtype), stored.type);
  }
  return outcome::success();
}

// The index ranges the rank reads on each axis: the placement's selection
// on its axis, the expert range on the expert axis, the whole axis
// elsewhere. Under vocabulary padding the local rows on the padded axis are
// those read plus the padding rows, which come last.
struct Selection {
  std::vector<std::vector<IndexRange>> axes;
};

Result<Selection> select(const LocalTensorLayout& tensor) {
  const std::vector<std::uint64_t>& shape = tensor.global_shape();
  const TensorPlacement& placement = tensor.placement;
  const bool selects = placement.kind == PlacementKind::Shard ||
                       placement.kind == PlacementKind::Range ||
                       placement.kind == PlacementKind::Indices;
  const std::optional<std::uint64_t> expert_axis = tensor.member->sharding().expert_axis;
  const std::uint64_t padded_axis = tensor.member->sharding().axis;
  Selection selection;
  for (std::uint64_t axis = 0; axis < shape.size(); ++axis) {
    std::vector<IndexRange> ranges{{0, shape[axis]}};
    if (selects && placement.axis == axis) ranges = selection_on_axis(placement, shape, axis);
    if (expert_axis == axis && tensor.expert_range) ranges = {*tensor.expert_range};
    std::uint64_t held = tensor.padding_rows != 0 && axis == padded_axis ? tensor.padding_rows : 0;
    std::vector<IndexRange> nonempty;
    for (const IndexRange& range : ranges) {
      held += range.end - range.start;
      if (range.start < range.end) nonempty.push_back(range);
    }
    if (axis >= tensor.local_shape.size() || held != tensor.local_shape[axis]) {
      return failf(Status::Internal, "tensor {}: local shape {} disagrees with its selection",
                   debug_quoted(tensor.target()), shape_text(tensor.local_shape));
    }
    selection.axes.push_back(std::move(nonempty));
  }
  return selection;
}

// Byte strides of a row-major shape.
std::vector<std::uint64_t> strides(const std::vector<std::uint64_t>& shape,
                                   std::uint64_t element_bytes) {
  std::vector<std::uint64_t> out(shape.size());
  std::uint64_t stride = element_bytes;
  for (std::size_t axis = shape.size(); axis-- > 0;) {
    out[axis] = stride;
    stride *= shape[axis];
  }
  return out;
}

// Emits the extents of one tensor (see build_read_plan).
class ExtentWriter {
 public:
  ExtentWriter(const Selection& selection, const StoredShape& stored,
               const std::vector<std::uint64_t>& local_shape, std::uint32_t file,
               std::uint64_t base)
      : selection_(selection),
        stored_(stored),
        source_(strides(stored.shape, stored.element_bytes)),
        dest_(strides(local_shape, stored.element_bytes)),
        file_(file),
        base_(base) {
    for (std::size_t axis = 0; axis < stored.shape.size(); ++axis) {
      const auto& ranges = selection.axes[axis];
      const bool whole = ranges.size() == 1 && ranges[0].start == 0 &&
                         ranges[0].end == stored.shape[axis] &&
                         local_shape[axis] == stored.shape[axis];
      if (!whole) partial_.push_back(axis);
    }
  }

  std::vector<ReadExtent> write() {
    for (const auto& ranges : selection_.axes) {
      if (ranges.empty()) return {};
    }
    if (partial_.empty()) {
      std::uint64_t bytes = stored_.element_bytes;
      for (std::uint64_t dimension : stored_.shape) bytes *= dimension;
      return {ReadExtent{file_, base_, bytes, 1, bytes, 0, bytes}};
    }
    inner_ = partial_.back();
    // The partial axis outside the innermost (if any): the extents' counts
    // walk its runs and the whole axes between the two; every axis before
    // it is walked index by index.
    outer_ = partial_.size() > 1 ? std::optional(partial_[partial_.size() - 2]) : std::nullopt;
    walk(0, base_, 0);
    return std::move(extents_);
  }

 private:
  // Fixes the index of every axis before outer_, one axis at a time.
  void walk(std::size_t axis, std::uint64_t offset, std::uint64_t dest) {
    if (axis == (outer_ ? *outer_ : 0)) {
      emit(offset, dest);
      return;
    }
    std::uint64_t local = 0;
    for (const IndexRange& range : selection_.axes[axis]) {
      for (std::uint64_t index = range.start; index < range.end; ++index, ++local) {
        walk(axis + 1, offset + index * source_[axis], dest + local * dest_[axis]);
      }
    }
  }

  // The extents for one choice of the axes before outer_.
  void emit(std::uint64_t offset, std::uint64_t dest) {
    // Rows between outer_ and inner_ (all whole) repeat with the stride of
    // the axis just outside inner_; outer_'s runs extend that repetition.
    const std::size_t first_whole = outer_ ? *outer_ + 1 : 0;
    std::uint64_t repeat = 1;
    for (std::size_t axis = first_whole; axis < inner_; ++axis) repeat *= stored_.shape[axis];
    const std::uint64_t stride = inner_ > 0 ? source_[inner_ - 1] : 0;
    const std::uint64_t dest_stride = inner_ > 0 ? dest_[inner_ - 1] : 0;
    std::vector<IndexRange> outer_runs{{0, 1}};
    if (outer_) outer_runs = selection_.axes[*outer_];
    std::uint64_t outer_local = 0;
    for (const IndexRange& outer : outer_runs) {
      const std::uint64_t count = (outer.end - outer.start) * repeat;
      const std::uint64_t outer_offset = outer_ ? outer.start * source_[*outer_] : 0;
      const std::uint64_t outer_dest = outer_ ? outer_local * dest_[*outer_] : 0;
      std::uint64_t inner_local = 0;
      for (const IndexRange& inner : selection_.axes[inner_]) {
        const std::uint64_t length = (inner.end - inner.start) * source_[inner_];
        ReadExtent extent{file_,
                          offset + outer_offset + inner.start * source_[inner_],
                          length,
                          count,
                          count == 1 ? length : stride,
                          dest + outer_dest + inner_local * dest_[inner_],
                          count == 1 ? length : dest_stride};
        extents_.push_back(extent);
        inner_local += inner.end - inner.start;
      }
      outer_local += outer.end - outer.start;
    }
  }

  const Selection& selection_;
  const StoredShape& stored_;
  std::vector<std::uint64_t> source_;
  std::vector<std::uint64_t> dest_;
  std::uint32_t file_;
  std::uint64_t base_;
  std::vector<std::size_t> partial_;
  std::size_t inner_ = 0;
  std::optional<std::size_t> outer_;
  std::vector<ReadExtent> extents_;
};

}  // namespace

Result<ReadPlan> build_read_plan(const LocalModelLayout& layout, const Checkpoint& checkpoint) {
  ReadPlan plan;
  plan.model = layout.model->info().name.value_or("");
  plan.rank = layout.rank;
  plan.root = checkpoint.root;
  std::map<std::uint32_t, std::uint32_t> file_numbers;  // checkpoint file -> plan file
  for (const LocalTensorLayout& tensor : layout.tensors) {
    if (tensor.placement.kind == PlacementKind::Omit) continue;
    const CheckpointTensor* stored = checkpoint.find(tensor.target());
    if (stored == nullptr) {
      return failf(Status::CheckpointMismatch,
                   "rank {} materializes tensor {}, which the checkpoint does not hold",
                   layout.rank, debug_quoted(tensor.target()));
    }
    const StoredShape shape = stored_shape(*stored);
    EREDU_TRY(check_stored(tensor, *stored, shape));
    EREDU_TRY(selection, select(tensor));
    auto [number, added] =
        file_numbers.try_emplace(stored->file, static_cast<std::uint32_t>(plan.files.size()));
    if (added) plan.files.push_back(checkpoint.files[stored->file]);
    TensorReadPlan read;
    read.target = tensor.target();
    read.dtype = stored->type;
    read.local_shape = tensor.local_shape;
    const auto local_elements = checked_element_count(tensor.local_shape);
    const auto local_bytes =
        local_elements ? checked_mul(*local_elements, shape.element_bytes) : std::nullopt;
    if (!local_bytes) {
      return failf(Status::Internal, "tensor {}: local bytes overflow",
                   debug_quoted(tensor.target()));
    }
    read.local_bytes = *local_bytes;
    read.padding_rows = tensor.padding_rows;
    read.extents =
        ExtentWriter(selection, shape, tensor.local_shape, number->second, stored->offset).write();
    for (const ReadExtent& extent : read.extents) read.read_bytes += extent.length * extent.count;
    // Both sums are bounded by the bytes of one file and one rank's layout.
    plan.read_bytes += read.read_bytes;
    plan.local_bytes += read.local_bytes;
    plan.tensors.push_back(std::move(read));
  }
  return plan;
}

}  // namespace eredu
