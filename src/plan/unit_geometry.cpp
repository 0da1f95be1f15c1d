// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "plan/unit_geometry.hpp"

#include <fmt/format.h>

#include <string_view>
#include <vector>

#include "core/checked.hpp"

namespace eredu {
namespace {

// One partitioned extent: a member's whole axis or one of its segments.
struct Extent {
  const ParameterMemberSpec* member = nullptr;
  std::uint64_t length = 0;
  std::optional<IndexRange> segment;
};

std::vector<Extent> partitioned_extents(const ParameterGroupSpec& group) {
  std::vector<Extent> extents;
  for (const ParameterMemberSpec& member : group.members()) {
    const MemberSharding& sharding = member.sharding();
    const auto& shape = member.global_shape();
    if (sharding.axis >= shape.size()) continue;
    if (sharding.kind == ShardingKind::Partitioned) {
      extents.push_back({&member, shape[sharding.axis], std::nullopt});
    } else if (sharding.kind == ShardingKind::PartitionedSegments) {
      for (const IndexRange& segment : sharding.segments) {
        extents.push_back({&member, segment.length(), segment});
      }
    }
  }
  return extents;
}

// The length of the dotted prefix all `targets` share ("a.b." of "a.b.c"
// and "a.b.d"), never a whole target.
std::size_t shared_prefix(const std::vector<std::string_view>& targets) {
  std::size_t prefix = targets.front().size();
  for (std::string_view target : targets) {
    std::size_t same = 0;
    while (same < prefix && same < target.size() && target[same] == targets.front()[same]) ++same;
    prefix = same;
  }
  while (prefix > 0) {
    bool whole_component = targets.front()[prefix - 1] == '.';
    for (std::string_view target : targets) whole_component &= target.size() > prefix;
    if (whole_component) break;
    --prefix;
  }
  return prefix;
}

std::string axis_words(const Extent& extent) {
  const std::uint64_t axis = extent.member->sharding().axis;
  const std::size_t rank = extent.member->global_shape().size();
  if (extent.segment) {
    return fmt::format("segment {}..{} ({})", extent.segment->start, extent.segment->end,
                       extent.length);
  }
  if (rank == 2 && axis == 0) return fmt::format("rows {}", extent.length);
  if (rank == 2 && axis == 1) return fmt::format("columns {}", extent.length);
  return fmt::format("axis {} extent {}", axis, extent.length);
}

}  // namespace

std::string unit_geometry(const ParameterGroupSpec& group) {
  const std::uint64_t units = group.partition_units().value_or(0);
  const std::string count = fmt::format("{} partition unit{}", units, units == 1 ? "" : "s");
  std::vector<Extent> named;
  std::uint64_t divisor = 0;
  for (const Extent& extent : partitioned_extents(group)) {
    const std::uint64_t lowered = greatest_common_divisor(divisor, extent.length);
    if (lowered == divisor) continue;
    divisor = lowered;
    named.push_back(extent);
  }
  if (named.empty() || divisor != units) return count + " — declared by the group —";
  std::vector<std::string_view> targets;
  for (const Extent& extent : named) targets.push_back(extent.member->target());
  const std::size_t prefix = named.size() > 1 ? shared_prefix(targets) : 0;
  std::string text = count + " — " + (named.size() > 1 ? "gcd of " : "");
  for (std::size_t i = 0; i < named.size(); ++i) {
    if (i > 0) text += i + 1 == named.size() ? " and " : ", ";
    text += fmt::format("{} {}", targets[i].substr(prefix), axis_words(named[i]));
  }
  return text + " —";
}

}  // namespace eredu
