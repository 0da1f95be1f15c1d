// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "model/projection.hpp"

#include <fmt/format.h>

#include <utility>

#include "core/enum_words.hpp"

namespace eredu {
namespace {

std::string format_segments(const std::vector<IndexRange>& segments) {
  std::string text = "[";
  for (std::size_t i = 0; i < segments.size(); ++i) {
    if (i != 0) text += ", ";
    text += fmt::format("{}..{}", segments[i].start, segments[i].end);
  }
  return text + "]";
}

}  // namespace

std::optional<ProjectionSharding> projection_sharding_from_value(std::uint32_t value) {
  return enum_from_value<ProjectionSharding>(value, kProjectionShardingCount);
}

Result<ParameterGroupSpec> projection_parameter_group(std::string logical_name, ParameterRole role,
                                                      const ProjectionModule& module,
                                                      ProjectionSharding placement,
                                                      GroupScope scope) {
  std::vector<ParameterMemberSpec> members;
  members.reserve(module.size());
  for (const ModuleParameter& parameter : module) {
    MemberSharding sharding;
    switch (placement) {
      case ProjectionSharding::Replicated:
        break;
      case ProjectionSharding::Column:
        if (parameter.shape.empty()) {
          return failf(Status::InvalidTensor, "column projection parameter {} is scalar",
                       parameter.id);
        }
        sharding = MemberSharding::equal(0);
        break;
      case ProjectionSharding::Row:
        if (parameter.shape.size() >= 2) sharding = MemberSharding::equal(1);
        break;
    }
    members.emplace_back(parameter.id, parameter.shape, std::move(sharding), parameter.dtype);
  }
  return ParameterGroupSpec::create(std::move(logical_name), role, std::move(members), scope);
}

Result<ParameterGroupSpec> partitioned_projection_group(
    std::string logical_name, ParameterRole role, std::span<const PlacedProjection> projections,
    std::uint64_t preferred_units, GroupScope scope) {
  if (preferred_units == 0) {
    return fail(Status::InvalidGroup, "partitioned projection group has zero preferred units");
  }
  std::vector<ParameterMemberSpec> members;
  for (const PlacedProjection& projection : projections) {
    EREDU_TRY(group, projection_parameter_group("projection", role, projection.module,
                                                projection.placement));
    for (const ParameterMemberSpec& member : group.members()) {
      const std::size_t ndim = member.global_shape().size();
      MemberSharding sharding;
      if (projection.placement == ProjectionSharding::Column) {
        sharding = MemberSharding::partitioned(0);
      } else if (projection.placement == ProjectionSharding::Row && ndim >= 2) {
        sharding = MemberSharding::partitioned(1);
      }
      members.emplace_back(member.target(), member.global_shape(), std::move(sharding),
                           member.dtype());
    }
  }
  return partitioned_group_with_preferred_units(std::move(logical_name), role, preferred_units,
                                                std::move(members), scope);
}

Result<ParameterGroupSpec> segmented_projection_group(std::string logical_name, ParameterRole role,
                                                      const ProjectionModule& fused,
                                                      const ProjectionModule& row,
                                                      std::vector<IndexRange> segments,
                                                      std::uint64_t preferred_units,
                                                      GroupScope scope) {
  if (preferred_units == 0 || segments.empty()) {
    return fail(Status::InvalidGroup,
                "segmented projection requires positive logical units and at least one segment");
  }
  std::uint64_t previous_end = 0;
  for (const IndexRange& segment : segments) {
    if (segment.start != previous_end || segment.start >= segment.end) {
      return failf(Status::InvalidGroup,
                   "segmented projection ranges must be positive, contiguous, and ordered, got {}",
                   format_segments(segments));
    }
    previous_end = segment.end;
  }
  EREDU_TRY(fused_group,
            projection_parameter_group("fused", role, fused, ProjectionSharding::Column));
  EREDU_TRY(row_group, projection_parameter_group("row", role, row, ProjectionSharding::Row));
  return assemble_segmented_projection_group(std::move(logical_name), role, fused_group, row_group,
                                             std::move(segments), preferred_units, previous_end,
                                             scope);
}

Result<ParameterGroupSpec> assemble_segmented_projection_group(
    std::string logical_name, ParameterRole role, const ParameterGroupSpec& fused_group,
    const ParameterGroupSpec& row_group, std::vector<IndexRange> segments, std::uint64_t units,
    std::uint64_t expected_fused_width, GroupScope scope) {
  std::vector<ParameterMemberSpec> members;
  members.reserve(fused_group.members().size() + row_group.members().size());
  for (const ParameterMemberSpec& member : fused_group.members()) {
    if (member.global_shape().empty()) {
      return failf(Status::InvalidTensor, "segmented projection parameter {} is scalar",
                   member.target());
    }
    const std::uint64_t dimension = member.global_shape().front();
    if (dimension != expected_fused_width) {
      return failf(Status::InvalidTensor,
                   "segmented projection parameter {} has output dimension {}, expected {}",
                   member.target(), dimension, expected_fused_width);
    }
    members.emplace_back(member.target(), member.global_shape(),
                         MemberSharding::partitioned_segments(0, segments), member.dtype());
  }
  for (const ParameterMemberSpec& member : row_group.members()) {
    members.emplace_back(member.target(), member.global_shape(),
                         member.global_shape().size() >= 2 ? MemberSharding::partitioned(1)
                                                           : MemberSharding::replicated(),
                         member.dtype());
  }
  return partitioned_group_with_preferred_units(std::move(logical_name), role, units,
                                                std::move(members), scope);
}

}  // namespace eredu
