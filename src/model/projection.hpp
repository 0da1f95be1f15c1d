// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Projection group helpers (seed projection_parameter_group,
// partitioned_projection_group, segmented_projection_group,
// assemble_segmented_projection_group). The seed visits a backend module's
// parameters; here a module is the ordered list of its parameters.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/result.hpp"
#include "format/dtype.hpp"
#include "model/group.hpp"

namespace eredu {

/// Seed `ProjectionSharding`. Values match EREDU_PROJECTION_*.
enum class ProjectionSharding : std::uint32_t { Replicated = 0, Column = 1, Row = 2 };
inline constexpr std::uint32_t kProjectionShardingCount = 3;
std::optional<ProjectionSharding> projection_sharding_from_value(std::uint32_t value);

/// One parameter of a module in visit order: its checkpoint id (the
/// member target), its shape in elements (outermost first) and its
/// optional dtype.
struct ModuleParameter {
  std::string id;
  std::vector<std::uint64_t> shape;
  std::optional<Dtype> dtype;
  friend bool operator==(const ModuleParameter&, const ModuleParameter&) = default;
};

/// A module: its parameters in visit order (weight, then companions).
using ProjectionModule = std::vector<ModuleParameter>;

/// A module and how it is sharded, for partitioned_projection_group.
struct PlacedProjection {
  ProjectionModule module;
  ProjectionSharding placement = ProjectionSharding::Replicated;
};

/// Seed `projection_parameter_group`: every parameter of `module` as one
/// unpartitioned group. Replicated -> Replicated; Column -> Equal{0}
/// (InvalidTensor `column projection parameter ID is scalar` for a 0-D
/// parameter); Row -> Equal{1} with at least 2 axes, else Replicated. Then
/// ParameterGroupSpec::create's errors (InvalidGroup).
Result<ParameterGroupSpec> projection_parameter_group(std::string logical_name, ParameterRole role,
                                                      const ProjectionModule& module,
                                                      ProjectionSharding placement,
                                                      GroupScope scope = {});

/// Seed `partitioned_projection_group`: the projections' parameters, in
/// order, as one group sharing a logical partition: Column -> Partitioned{0};
/// Row with at least 2 axes -> Partitioned{1}; Replicated, and Row with 0–1
/// axes -> Replicated; units reduced from `preferred_units` by
/// partitioned_group_with_preferred_units. Errors: preferred_units 0
/// (InvalidGroup `partitioned projection group has zero preferred units`),
/// then each projection as projection_parameter_group (named "projection"),
/// then partitioned_group_with_preferred_units'.
Result<ParameterGroupSpec> partitioned_projection_group(
    std::string logical_name, ParameterRole role, std::span<const PlacedProjection> projections,
    std::uint64_t preferred_units, GroupScope scope = {});

/// Seed `segmented_projection_group`: a component-major fused column
/// projection (`segments`: positive, contiguous, ordered output ranges
/// starting at 0) and its row projection as one partition. Errors:
/// preferred_units 0 or no segments (InvalidGroup `segmented projection
/// requires positive logical units and at least one segment`); a segment
/// not starting at the previous end or empty (InvalidGroup `segmented
/// projection ranges must be positive, contiguous, and ordered, got
/// [a..b, ...]`); the two projection groups ("fused" as Column, "row" as
/// Row); then assemble_segmented_projection_group with the segments' end as
/// the fused width.
Result<ParameterGroupSpec> segmented_projection_group(std::string logical_name, ParameterRole role,
                                                      const ProjectionModule& fused,
                                                      const ProjectionModule& row,
                                                      std::vector<IndexRange> segments,
                                                      std::uint64_t preferred_units,
                                                      GroupScope scope = {});

/// Seed `assemble_segmented_projection_group`: every fused member becomes
/// PartitionedSegments{0, segments} (InvalidTensor `segmented projection
/// parameter T is scalar`, or `... has output dimension d, expected W` when
/// its axis 0 is not `expected_fused_width`); every row member with at least
/// 2 axes Partitioned{1}, else Replicated; then
/// partitioned_group_with_preferred_units(units). Fused members first.
Result<ParameterGroupSpec> assemble_segmented_projection_group(
    std::string logical_name, ParameterRole role, const ParameterGroupSpec& fused_group,
    const ParameterGroupSpec& row_group, std::vector<IndexRange> segments, std::uint64_t units,
    std::uint64_t expected_fused_width, GroupScope scope = {});

}  // namespace eredu
