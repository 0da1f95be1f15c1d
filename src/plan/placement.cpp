// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "plan/placement.hpp"

#include <algorithm>
#include <array>

#include "core/checked.hpp"
#include "core/text.hpp"

namespace eredu {
namespace {

constexpr std::array<std::string_view, kPlacementKindCount> kPlacementNames{
    "replicated", "local", "omit", "rank", "shard", "range", "indices"};

auto invalid(std::string message) { return fail(Status::InvalidTensor, std::move(message)); }

Result<void> validate_indices(const TensorPlacement& placement,
                              std::span<const std::uint64_t> shape) {
  if (placement.axis >= shape.size()) {
    return invalid(fmt::format("tensor index axis {} is outside rank {} shape {}", placement.axis,
                               shape.size(), shape_text(shape)));
  }
  if (placement.runs.empty()) return invalid("tensor index selection must be non-empty");
  auto by_start = [](const IndexRange& a, const IndexRange& b) { return a.start < b.start; };
  auto overlaps = [](std::span<const IndexRange> runs) {
    for (std::size_t i = 1; i < runs.size(); ++i) {
      if (runs[i].start < runs[i - 1].end) return true;
    }
    return false;
  };
  // Planner runs are ascending already; only caller-made ones need sorting.
  bool duplicates = false;
  if (std::is_sorted(placement.runs.begin(), placement.runs.end(), by_start)) {
    duplicates = overlaps(placement.runs);
  } else {
    std::vector<IndexRange> sorted = placement.runs;
    std::sort(sorted.begin(), sorted.end(), by_start);
    duplicates = overlaps(sorted);
  }
  if (duplicates) return invalid("tensor index selection must not contain duplicates");
  const std::uint64_t dimension = shape[placement.axis];
  for (const IndexRange& run : placement.runs) {
    if (run.end > dimension) {
      return invalid(fmt::format("tensor index {} is outside dimension {} on axis {}",
                                 std::max(run.start, dimension), dimension, placement.axis));
    }
  }
  return outcome::success();
}

}  // namespace

std::string_view placement_kind_name(PlacementKind kind) {
  return kPlacementNames[static_cast<std::uint32_t>(kind)];
}

TensorPlacement TensorPlacement::indices(std::uint64_t axis, std::span<const IndexRange> runs) {
  TensorPlacement placement = of(PlacementKind::Indices);
  placement.axis = axis;
  for (const IndexRange& run : runs) {
    if (run.start >= run.end) continue;
    placement.count += run.length();
    if (!placement.runs.empty() && placement.runs.back().end == run.start) {
      placement.runs.back().end = run.end;
    } else {
      placement.runs.push_back(run);
    }
  }
  return placement;
}

std::vector<std::uint64_t> TensorPlacement::expanded_indices() const {
  std::vector<std::uint64_t> out;
  if (kind != PlacementKind::Indices) return out;
  out.reserve(count);
  for (const IndexRange& run : runs) {
    for (std::uint64_t i = run.start; i < run.end; ++i) out.push_back(i);
  }
  return out;
}

Result<IndexRange> tensor_slice_for_shape(std::span<const std::uint64_t> shape, std::uint64_t axis,
                                          std::uint64_t index, std::uint64_t parts) {
  if (axis >= shape.size()) {
    return invalid(fmt::format("tensor axis {} is outside rank {} shape {}", axis, shape.size(),
                               shape_text(shape)));
  }
  if (parts == 0) return invalid("tensor shard count must be nonzero");
  if (index >= parts) {
    return invalid(fmt::format("tensor shard index {} is outside {} parts", index, parts));
  }
  const std::uint64_t dimension = shape[axis];
  if (dimension == 0 || dimension % parts != 0) {
    return invalid(fmt::format("tensor dimension {} on axis {} is not nonzero and divisible by {}",
                               dimension, axis, parts));
  }
  const std::uint64_t width = dimension / parts;
  auto start = checked_mul(index, width);
  if (!start) return invalid("tensor slice offset overflowed usize");
  return IndexRange{*start, *start + width};
}

Result<void> validate_placement(const TensorPlacement& placement,
                                std::span<const std::uint64_t> shape,
                                const PlacementBounds& bounds) {
  switch (placement.kind) {
    case PlacementKind::Rank:
      if (placement.rank >= bounds.world_size) {
        return invalid(fmt::format("owner rank {} is outside world size {}", placement.rank,
                                   bounds.world_size));
      }
      return outcome::success();
    case PlacementKind::Shard: {
      EREDU_TRY(tensor_slice_for_shape(shape, placement.axis, placement.index, placement.parts));
      return outcome::success();
    }
    case PlacementKind::Range: {
      if (placement.axis >= shape.size()) {
        return invalid(fmt::format("tensor range axis {} is outside rank {} shape {}",
                                   placement.axis, shape.size(), shape_text(shape)));
      }
      const std::uint64_t dimension = shape[placement.axis];
      if (placement.start >= placement.end || placement.end > dimension) {
        return invalid(fmt::format("tensor range {}..{} is invalid for dimension {} on axis {}",
                                   placement.start, placement.end, dimension, placement.axis));
      }
      return outcome::success();
    }
    case PlacementKind::Indices:
      return validate_indices(placement, shape);
    case PlacementKind::Replicated:
    case PlacementKind::Local:
    case PlacementKind::Omit:
      return outcome::success();
  }
  return invalid("unknown tensor placement kind");
}

std::vector<IndexRange> selection_on_axis(const TensorPlacement& placement,
                                          std::span<const std::uint64_t> shape,
                                          std::uint64_t axis) {
  if (axis >= shape.size() || placement.kind == PlacementKind::Omit) return {};
  const bool on_axis = placement.axis == axis;
  switch (placement.kind) {
    case PlacementKind::Shard:
      if (!on_axis) break;
      if (auto slice = tensor_slice_for_shape(shape, axis, placement.index, placement.parts)) {
        return {slice.value()};
      }
      return {};
    case PlacementKind::Range:
      if (on_axis) return {IndexRange{placement.start, placement.end}};
      break;
    case PlacementKind::Indices:
      if (on_axis) return placement.runs;
      break;
    default:
      break;
  }
  return {IndexRange{0, shape[axis]}};
}

}  // namespace eredu
