// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// eredu_*projection*_group, eredu_aligned_partition_units,
// eredu_partitioned_group_with_preferred_units: the seed's group helpers.
#include <fmt/format.h>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "firewall.hpp"
#include "group_arguments.hpp"
#include "handles.hpp"
#include "model/projection.hpp"

namespace eredu::capi {
namespace {

static_assert(EREDU_PROJECTION_REPLICATED == static_cast<int>(ProjectionSharding::Replicated));
static_assert(EREDU_PROJECTION_COLUMN == static_cast<int>(ProjectionSharding::Column));
static_assert(EREDU_PROJECTION_ROW == static_cast<int>(ProjectionSharding::Row));
static_assert(kProjectionShardingCount == 3);

Result<ModuleParameter> parameter_argument(const eredu_module_parameter* const* parameters,
                                           const char* base, std::size_t index) {
  const auto field = [base, index](const char* name) { return ArgumentName(base, index, name); };
  EREDU_TRY(read, read_sized(parameters[index], SizedDefaults<eredu_module_parameter>::value(),
                             field("")));
  const eredu_module_parameter* parameter = &read;
  EREDU_TRY(id, text_argument(parameter->id, field("->id")));
  EREDU_TRY(require_array(parameter->shape, parameter->ndim, field("->shape")));
  if (parameter->ndim > EREDU_MAX_NDIM) {
    return failf(Status::InvalidArgument,
                 "{} is too large: {} axes, more than the {} eredu accepts", field("->ndim").text(),
                 parameter->ndim, EREDU_MAX_NDIM);
  }
  EREDU_TRY(has_dtype, flag_argument(parameter->has_dtype, field("->has_dtype")));
  std::optional<Dtype> dtype;
  if (has_dtype) {
    EREDU_TRY(value, enum_argument(dtype_from_value(parameter->dtype), parameter->dtype,
                                   field("->dtype")));
    dtype = value;
  }
  return ModuleParameter{
      std::string(id),
      std::vector<std::uint64_t>(parameter->shape, parameter->shape + parameter->ndim), dtype};
}

/// A module: `count` parameter pointers named `base[i]` in messages.
Result<ProjectionModule> module_argument(const eredu_module_parameter* const* parameters,
                                         std::size_t count, const char* base,
                                         const char* count_name) {
  EREDU_TRY(require_array(parameters, count, base));
  EREDU_TRY(count_argument(count, sizeof(const eredu_module_parameter*), sizeof(ModuleParameter),
                           count_name));
  ProjectionModule module;
  module.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    EREDU_TRY(parameter, parameter_argument(parameters, base, i));
    module.push_back(std::move(parameter));
  }
  return module;
}

Result<ProjectionSharding> placement_argument(eredu_projection_sharding placement,
                                              const ArgumentName& name) {
  return enum_argument(projection_sharding_from_value(placement), placement, name);
}

Result<std::vector<PlacedProjection>> projections_argument(
    const eredu_projection* const* projections, std::size_t count) {
  EREDU_TRY(require_array(projections, count, "projections"));
  EREDU_TRY(count_argument(count, sizeof(const eredu_projection*), sizeof(PlacedProjection),
                           "projection_count"));
  std::vector<PlacedProjection> placed;
  placed.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    EREDU_TRY(read, read_sized(projections[i], SizedDefaults<eredu_projection>::value(),
                               ArgumentName("projections", i)));
    const eredu_projection* projection = &read;
    const std::string base = fmt::format("projections[{}]->parameters", i);
    const std::string count_name = fmt::format("projections[{}]->parameter_count", i);
    EREDU_TRY(module, module_argument(projection->parameters, projection->parameter_count,
                                      base.c_str(), count_name.c_str()));
    EREDU_TRY(placement, placement_argument(projection->placement,
                                            ArgumentName("projections", i, "->placement")));
    placed.push_back(PlacedProjection{std::move(module), placement});
  }
  return placed;
}

Result<std::vector<IndexRange>> segments_argument(const uint64_t* segments, std::size_t count) {
  EREDU_TRY(require_array(segments, count, "segments"));
  EREDU_TRY(count_argument(count, 2 * sizeof(std::uint64_t), sizeof(IndexRange), "segment_count"));
  std::vector<IndexRange> ranges;
  ranges.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    ranges.push_back(IndexRange{segments[2 * i], segments[2 * i + 1]});
  }
  return ranges;
}

/// Runs a group builder and publishes its result in `*out`.
template <class Build>
Result<void> publish(eredu_group** out, Build&& build) {
  EREDU_TRY(require(out, "out"));
  EREDU_TRY(group, std::forward<Build>(build)());
  *out = new eredu_group(std::move(group));
  return outcome::success();
}

}  // namespace
}  // namespace eredu::capi

// Defined at global scope: GCC gives extern "C" definitions inside a
// namespace that namespace's (hidden) visibility.
using namespace eredu;
using namespace eredu::capi;

extern "C" {

eredu_status eredu_module_parameter_init(eredu_module_parameter* parameter, size_t size,
                                         eredu_error** error) {
  return init_sized(parameter, size, "parameter", error);
}

eredu_status eredu_projection_init(eredu_projection* projection, size_t size, eredu_error** error) {
  return init_sized(projection, size, "projection", error);
}

eredu_status eredu_aligned_partition_units(const char* name, uint64_t semantic_units,
                                           uint64_t elements_per_unit, uint64_t required_alignment,
                                           uint64_t* out, eredu_error** error) {
  return firewall(
      error,
      [&]() -> Result<void> {
        EREDU_TRY(text, text_argument(name, "name"));
        EREDU_TRY(require(out, "out"));
        EREDU_TRY(units, aligned_partition_units(text, semantic_units, elements_per_unit,
                                                 required_alignment));
        *out = units;
        return outcome::success();
      },
      out);
}

eredu_status eredu_partitioned_group_with_preferred_units(const char* name, eredu_role role,
                                                          uint64_t preferred_units,
                                                          const eredu_group_scope* scope,
                                                          const eredu_member_desc* const* members,
                                                          size_t member_count, eredu_group** out,
                                                          eredu_error** error) {
  return firewall(
      error,
      [&]() -> Result<void> {
        EREDU_TRY(head, group_head_argument(name, role, scope));
        EREDU_TRY(specs, members_argument(members, member_count));
        return publish(out, [&] {
          return partitioned_group_with_preferred_units(
              std::string(head.name), head.role, preferred_units, std::move(specs), head.scope);
        });
      },
      out);
}

eredu_status eredu_projection_parameter_group(const char* name, eredu_role role,
                                              const eredu_group_scope* scope,
                                              const eredu_module_parameter* const* parameters,
                                              size_t parameter_count,
                                              eredu_projection_sharding placement,
                                              eredu_group** out, eredu_error** error) {
  return firewall(
      error,
      [&]() -> Result<void> {
        EREDU_TRY(head, group_head_argument(name, role, scope));
        EREDU_TRY(module,
                  module_argument(parameters, parameter_count, "parameters", "parameter_count"));
        EREDU_TRY(sharding, placement_argument(placement, "placement"));
        return publish(out, [&] {
          return projection_parameter_group(std::string(head.name), head.role, module, sharding,
                                            head.scope);
        });
      },
      out);
}

eredu_status eredu_partitioned_projection_group(const char* name, eredu_role role,
                                                const eredu_group_scope* scope,
                                                const eredu_projection* const* projections,
                                                size_t projection_count, uint64_t preferred_units,
                                                eredu_group** out, eredu_error** error) {
  return firewall(
      error,
      [&]() -> Result<void> {
        EREDU_TRY(head, group_head_argument(name, role, scope));
        EREDU_TRY(placed, projections_argument(projections, projection_count));
        return publish(out, [&] {
          return partitioned_projection_group(std::string(head.name), head.role, placed,
                                              preferred_units, head.scope);
        });
      },
      out);
}

eredu_status eredu_segmented_projection_group(
    const char* name, eredu_role role, const eredu_group_scope* scope,
    const eredu_module_parameter* const* fused, size_t fused_count,
    const eredu_module_parameter* const* row, size_t row_count, const uint64_t* segments,
    size_t segment_count, uint64_t preferred_units, eredu_group** out, eredu_error** error) {
  return firewall(
      error,
      [&]() -> Result<void> {
        EREDU_TRY(head, group_head_argument(name, role, scope));
        EREDU_TRY(fused_module, module_argument(fused, fused_count, "fused", "fused_count"));
        EREDU_TRY(row_module, module_argument(row, row_count, "row", "row_count"));
        EREDU_TRY(ranges, segments_argument(segments, segment_count));
        return publish(out, [&] {
          return segmented_projection_group(std::string(head.name), head.role, fused_module,
                                            row_module, std::move(ranges), preferred_units,
                                            head.scope);
        });
      },
      out);
}

}  // extern "C"
