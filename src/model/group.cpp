// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "model/group.hpp"

#include <algorithm>
#include <array>
#include <unordered_set>

#include "core/checked.hpp"
#include "core/enum_words.hpp"
#include "core/text.hpp"

namespace eredu {
namespace {

constexpr std::array<std::string_view, kRoleCount> kRoleNames{
    "replicated",          "column_projection", "row_projection",
    "vocabulary",          "attention_heads",   "feed_forward_intermediate",
    "expert_intermediate", "channels",          "segmented"};

constexpr std::array<std::string_view, kShardingKindCount> kShardingNames{
    "replicated", "equal", "balanced", "partitioned", "partitioned_segments", "segmented"};

}  // namespace

std::string_view role_name(ParameterRole role) { return enum_word(kRoleNames, role); }

std::optional<ParameterRole> parse_role(std::string_view name) {
  return parse_enum_word<ParameterRole>(kRoleNames, name);
}

std::optional<ParameterRole> role_from_value(std::uint32_t value) {
  return enum_from_value<ParameterRole>(value, kRoleCount);
}

std::string_view sharding_kind_name(ShardingKind kind) { return enum_word(kShardingNames, kind); }

std::optional<ShardingKind> parse_sharding_kind(std::string_view name) {
  return parse_enum_word<ShardingKind>(kShardingNames, name);
}

std::optional<ShardingKind> sharding_kind_from_value(std::uint32_t value) {
  return enum_from_value<ShardingKind>(value, kShardingKindCount);
}

Result<ParameterGroupSpec> ParameterGroupSpec::create(std::string logical_name, ParameterRole role,
                                                      std::vector<ParameterMemberSpec> members,
                                                      GroupScope scope) {
  return build(std::move(logical_name), role, std::nullopt, std::move(members), scope,
               std::nullopt);
}

Result<ParameterGroupSpec> ParameterGroupSpec::partitioned(
    std::string logical_name, ParameterRole role, std::uint64_t units,
    std::vector<ParameterMemberSpec> members, GroupScope scope,
    std::optional<std::uint64_t> query_units) {
  if (units == 0) {
    return fail(Status::InvalidGroup, "parallel logical partition must contain at least one unit");
  }
  return build(std::move(logical_name), role, units, std::move(members), scope, query_units);
}

Result<ParameterGroupSpec> ParameterGroupSpec::build(std::string logical_name, ParameterRole role,
                                                     std::optional<std::uint64_t> partition_units,
                                                     std::vector<ParameterMemberSpec> members,
                                                     GroupScope scope,
                                                     std::optional<std::uint64_t> query_units) {
  if (is_blank(logical_name)) {
    return fail(Status::InvalidGroup, "parallel parameter logical name must not be empty");
  }
  // A C caller reads names as NUL-terminated strings: one holding a NUL
  // would read as a shorter name, and two such names as the same one.
  if (logical_name.find('\0') != std::string::npos) {
    return failf(Status::InvalidGroup,
                 "parallel parameter logical name {} contains a NUL character",
                 debug_quoted(logical_name));
  }
  if (members.empty()) {
    return failf(Status::InvalidGroup,
                 "parallel parameter group {} must contain at least one tensor",
                 debug_quoted(logical_name));
  }
  // Groups hold a handful of members: a linear scan beats a tree of views,
  // and the first repeat in member order is the one the seed reports.
  std::unordered_set<std::string_view> large_group_targets;
  const bool large = members.size() > 32;
  bool has_partitioned_member = false;
  for (std::size_t i = 0; i < members.size(); ++i) {
    const std::string& target = members[i].target();
    if (is_blank(target)) {
      return failf(Status::InvalidGroup,
                   "parallel parameter group {} contains an empty tensor target",
                   debug_quoted(logical_name));
    }
    if (target.find('\0') != std::string::npos) {
      return failf(Status::InvalidGroup,
                   "parallel parameter group {}: tensor target {} contains a NUL character",
                   debug_quoted(logical_name), debug_quoted(target));
    }
    if (members[i].global_shape().size() > kMaxAxes) {
      return failf(Status::InvalidTensor, "tensor {} has {} axes, more than the {} eredu accepts",
                   debug_quoted(target), members[i].global_shape().size(), kMaxAxes);
    }
    const bool repeated =
        large ? !large_group_targets.insert(target).second
              : std::any_of(
                    members.begin(), members.begin() + static_cast<std::ptrdiff_t>(i),
                    [&](const ParameterMemberSpec& earlier) { return earlier.target() == target; });
    if (repeated) {
      return failf(Status::InvalidGroup, "parallel parameter group {} repeats tensor target {}",
                   debug_quoted(logical_name), debug_quoted(target));
    }
    has_partitioned_member |= members[i].sharding().is_partitioned();
    if (members[i].sharding().per_kv_head && !members[i].sharding().is_partitioned()) {
      return failf(Status::InvalidGroup,
                   "parallel parameter group {}: per_kv_head member {} must be partitioned",
                   debug_quoted(logical_name), debug_quoted(target));
    }
    if (members[i].sharding().per_kv_head && !query_units) {
      return failf(Status::InvalidGroup,
                   "parallel parameter group {}: per_kv_head member {} needs the group's "
                   "query_units",
                   debug_quoted(logical_name), debug_quoted(target));
    }
    if (const auto experts = members[i].sharding().expert_axis) {
      if (scope.expert) {
        return failf(Status::InvalidGroup,
                     "parallel parameter group {}: member {} stacks experts on axis {}, so the "
                     "group cannot be scoped to expert {}",
                     debug_quoted(logical_name), debug_quoted(target), *experts, *scope.expert);
      }
      if (members[i].sharding().kind != ShardingKind::Replicated &&
          members[i].sharding().axis == *experts) {
        return failf(Status::InvalidGroup,
                     "parallel parameter group {}: member {} stacks experts on axis {}, its "
                     "tensor-parallel axis",
                     debug_quoted(logical_name), debug_quoted(target), *experts);
      }
    }
  }
  if (has_partitioned_member != partition_units.has_value()) {
    return failf(Status::InvalidGroup,
                 "parallel parameter group {} must declare exactly one group-level logical "
                 "partition for its partitioned members",
                 debug_quoted(logical_name));
  }
  if (query_units && (*query_units == 0 || *query_units % *partition_units != 0)) {
    return failf(Status::InvalidGroup,
                 "parallel parameter group {}: query_units {} must be a positive multiple of "
                 "its {} partition units",
                 debug_quoted(logical_name), *query_units, *partition_units);
  }
  ParameterGroupSpec group;
  group.logical_name_ = std::move(logical_name);
  group.role_ = role;
  group.partition_units_ = partition_units;
  group.query_units_ = query_units;
  group.members_ = std::move(members);
  group.scope_ = scope;
  return group;
}

std::optional<std::uint64_t> ParameterGroupSpec::padded_vocabulary() const {
  if (!vocab_pad_multiple_) return std::nullopt;
  for (const ParameterMemberSpec& member : members_) {
    const MemberSharding& sharding = member.sharding();
    if (sharding.kind == ShardingKind::Balanced && sharding.axis < member.global_shape().size()) {
      return member.global_shape()[sharding.axis];
    }
  }
  return std::nullopt;
}

bool ParameterGroupSpec::stacks_experts() const {
  return std::any_of(members_.begin(), members_.end(), [](const ParameterMemberSpec& member) {
    return member.sharding().expert_axis.has_value();
  });
}

Result<ParameterGroupSpec> ParameterGroupSpec::with_vocab_pad_multiple(
    std::uint64_t multiple) const {
  const auto invalid = [&](std::string_view detail) {
    return failf(Status::InvalidGroup, "parallel parameter group {}: vocab_pad_multiple {}",
                 debug_quoted(logical_name_), detail);
  };
  if (multiple == 0) return invalid("must be at least 1");
  if (role_ != ParameterRole::Vocabulary) return invalid("needs role vocabulary");
  std::optional<std::uint64_t> vocabulary;
  bool balanced = false;
  for (const ParameterMemberSpec& member : members_) {
    const MemberSharding& sharding = member.sharding();
    if (sharding.kind != ShardingKind::Balanced) continue;
    balanced = true;
    // An axis outside the shape is member resolution's error.
    if (sharding.axis >= member.global_shape().size()) continue;
    const std::uint64_t extent = member.global_shape()[sharding.axis];
    if (vocabulary && *vocabulary != extent) {
      return invalid(fmt::format("needs one vocabulary: balanced member {} has extent {}, not {}",
                                 debug_quoted(member.target()), extent, *vocabulary));
    }
    vocabulary = extent;
  }
  if (!balanced) return invalid("needs a balanced member");
  ParameterGroupSpec padded = *this;
  padded.vocab_pad_multiple_ = multiple;
  return padded;
}

Result<ParameterGroupSpec> partitioned_group_with_preferred_units(
    std::string logical_name, ParameterRole role, std::uint64_t preferred_units,
    std::vector<ParameterMemberSpec> members, GroupScope scope,
    std::optional<std::uint64_t> query_units) {
  std::uint64_t units = preferred_units;
  for (const ParameterMemberSpec& member : members) {
    const MemberSharding& sharding = member.sharding();
    const auto& shape = member.global_shape();
    switch (sharding.kind) {
      case ShardingKind::Partitioned:
        if (sharding.axis >= shape.size()) {
          return failf(Status::InvalidTensor, "partitioned parameter {} has no axis {}",
                       member.target(), sharding.axis);
        }
        units = greatest_common_divisor(units, shape[sharding.axis]);
        break;
      case ShardingKind::PartitionedSegments:
      case ShardingKind::Segmented:
        if (sharding.axis >= shape.size()) {
          return failf(Status::InvalidTensor, "segmented parameter {} has no axis {}",
                       member.target(), sharding.axis);
        }
        for (const IndexRange& segment : sharding.segments) {
          units = greatest_common_divisor(units, segment.length());
        }
        break;
      case ShardingKind::Replicated:
      case ShardingKind::Equal:
      case ShardingKind::Balanced:
        break;
    }
  }
  return ParameterGroupSpec::partitioned(std::move(logical_name), role, units, std::move(members),
                                         scope, query_units);
}

Result<std::uint64_t> aligned_partition_units(std::string_view name, std::uint64_t semantic_units,
                                              std::uint64_t elements_per_unit,
                                              std::uint64_t required_alignment) {
  if (semantic_units == 0 || elements_per_unit == 0 || required_alignment == 0) {
    return failf(Status::InvalidGroup,
                 "{} aligned partition dimensions must be positive, got units={}, width={}, "
                 "alignment={}",
                 name, semantic_units, elements_per_unit, required_alignment);
  }
  const std::uint64_t units_per_partition =
      required_alignment / greatest_common_divisor(elements_per_unit, required_alignment);
  if (semantic_units % units_per_partition != 0) {
    return failf(Status::InvalidGroup,
                 "{} has {} semantic units of width {}, which cannot form complete "
                 "alignment-{} partitions",
                 name, semantic_units, elements_per_unit, required_alignment);
  }
  return semantic_units / units_per_partition;
}

}  // namespace eredu
