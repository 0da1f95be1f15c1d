// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Seed `TensorPlacement` and the planner's placement validation
// (docs/planning.md, "Placements" and "Placement validation"). Index
// selections are kept as ordered runs.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "topology/balanced_range.hpp"

namespace eredu {

/// Values match EREDU_PLACEMENT_*.
enum class PlacementKind : std::uint32_t {
  Replicated = 0,
  Local = 1,
  Omit = 2,
  Rank = 3,
  Shard = 4,
  Range = 5,
  Indices = 6,
};
inline constexpr std::uint32_t kPlacementKindCount = 7;

std::string_view placement_kind_name(PlacementKind kind);

/// One rank's selection of one physical tensor. Fields by kind:
/// Rank: `rank`; Shard: `axis`, `index`, `parts`; Range: `axis`, `start`,
/// `end` (elements, half-open); Indices: `axis`, `runs` (ordered half-open
/// runs, adjacent runs merged) and `count` (total indices).
struct TensorPlacement {
  PlacementKind kind = PlacementKind::Replicated;
  std::uint64_t axis = 0;
  std::uint64_t rank = 0;
  std::uint64_t index = 0;
  std::uint64_t parts = 0;
  std::uint64_t start = 0;
  std::uint64_t end = 0;
  std::vector<IndexRange> runs;
  std::uint64_t count = 0;

  static TensorPlacement replicated() { return {}; }
  static TensorPlacement local() { return of(PlacementKind::Local); }
  static TensorPlacement omit() { return of(PlacementKind::Omit); }
  static TensorPlacement owner(std::uint64_t rank) {
    TensorPlacement placement = of(PlacementKind::Rank);
    placement.rank = rank;
    return placement;
  }
  static TensorPlacement shard(std::uint64_t axis, std::uint64_t index, std::uint64_t parts) {
    TensorPlacement placement = of(PlacementKind::Shard);
    placement.axis = axis;
    placement.index = index;
    placement.parts = parts;
    return placement;
  }
  static TensorPlacement range(std::uint64_t axis, std::uint64_t start, std::uint64_t end) {
    TensorPlacement placement = of(PlacementKind::Range);
    placement.axis = axis;
    placement.start = start;
    placement.end = end;
    return placement;
  }
  /// Builds an Indices placement from runs, merging adjacent ones.
  static TensorPlacement indices(std::uint64_t axis, std::span<const IndexRange> runs);

  /// The seed's index list (expands the runs). Empty for other kinds.
  std::vector<std::uint64_t> expanded_indices() const;

  friend bool operator==(const TensorPlacement&, const TensorPlacement&) = default;

 private:
  static TensorPlacement of(PlacementKind kind) {
    TensorPlacement placement;
    placement.kind = kind;
    return placement;
  }
};

/// What placement validation needs to know of the topology.
struct PlacementBounds {
  std::uint64_t world_size = 1;
};

/// Reference `validate_placement` (docs/planning.md, "Placement validation"):
/// checks `placement` against the tensor's global `shape`. Messages are the
/// reference texts; the code is InvalidTensor.
Result<void> validate_placement(const TensorPlacement& placement,
                                std::span<const std::uint64_t> shape,
                                const PlacementBounds& bounds);

/// Reference `TensorSlice::for_shape`: the [start, end) element range of
/// shard `index` of `parts` on `axis`. Errors: InvalidTensor.
Result<IndexRange> tensor_slice_for_shape(std::span<const std::uint64_t> shape, std::uint64_t axis,
                                          std::uint64_t index, std::uint64_t parts);

/// The index ranges `placement` selects on `axis` of a tensor of `shape`, in
/// the placement's order: its slice, range or runs when it selects on `axis`;
/// the whole axis for complete placements (replicated, local, rank) and for
/// selections on another axis; nothing for Omit, an invalid shard or an axis
/// outside `shape`.
std::vector<IndexRange> selection_on_axis(const TensorPlacement& placement,
                                          std::span<const std::uint64_t> shape, std::uint64_t axis);

}  // namespace eredu
