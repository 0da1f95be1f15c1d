// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "describe/physical_linear.hpp"

#include <numeric>
#include <utility>

#include "core/checked.hpp"

namespace eredu {
namespace {

Result<MemberSharding> physical_sharding(const MemberSharding& dense, const PhysicalMember& member,
                                         const std::string& module) {
  if (dense.kind == ShardingKind::Replicated) return MemberSharding::replicated();
  const AxisRule& rule = dense.axis == 0 ? member.out : member.in;
  if (!rule.axis) return MemberSharding::replicated();
  MemberSharding out = dense;
  out.axis = *rule.axis;
  for (IndexRange& segment : out.segments) {
    const std::optional<std::uint64_t> start = checked_mul(segment.start, rule.num);
    const std::optional<std::uint64_t> end = checked_mul(segment.end, rule.num);
    if (!start || !end || *start % rule.den != 0 || *end % rule.den != 0) {
      return failf(Status::InvalidTensor,
                   "packed companion {}.{} segment {}..{} is not aligned to {}", module,
                   member.suffix, segment.start, segment.end, rule.den / rule.num);
    }
    segment = IndexRange{*start / rule.den, *end / rule.den};
  }
  return out;
}

}  // namespace

std::optional<std::string> weight_module(const std::string& target) {
  constexpr std::string_view kSuffix = ".weight";
  if (target.size() <= kSuffix.size() ||
      target.compare(target.size() - kSuffix.size(), kSuffix.size(), kSuffix) != 0) {
    return std::nullopt;
  }
  return target.substr(0, target.size() - kSuffix.size());
}

std::optional<std::uint64_t> packed_words(std::uint64_t width, std::uint64_t bits) {
  // width must be a multiple of 32 / gcd(bits, 32); the words are then
  // never more than the width.
  const std::uint64_t common = std::gcd(bits, std::uint64_t{32});
  if (common == 0 || width % (32 / common) != 0) return std::nullopt;
  return width / (32 / common) * (bits / common);
}

Result<std::vector<ParameterGroupSpec>> expand_physical_linears(
    std::vector<ParameterGroupSpec> groups, std::string_view format,
    const PhysicalLinearDeclaration& declare) {
  std::vector<ParameterGroupSpec> expanded;
  expanded.reserve(groups.size());
  for (ParameterGroupSpec& group : groups) {
    std::vector<ParameterMemberSpec> members;
    bool changed = false;
    // A row split that cuts groups: 1 unit, and no KV-head replication
    // (which would split the row-parallel member by query heads).
    bool cuts_groups = false;
    for (const ParameterMemberSpec& member : group.members()) {
      const std::optional<std::string> module = weight_module(member.target());
      if (!module || member.global_shape().size() != 2) {
        members.push_back(member);
        continue;
      }
      EREDU_TRY(declared, declare(*module, member));
      if (!declared) {
        members.push_back(member);
        continue;
      }
      const MemberSharding& dense = member.sharding();
      if (dense.expert_axis || dense.kind == ShardingKind::Equal ||
          dense.kind == ShardingKind::Balanced) {
        return failf(Status::InvalidTensor, "{}: {} tensors cannot follow a {} split", *module,
                     format, sharding_kind_name(dense.kind));
      }
      for (const PhysicalMember& part : declared->members) {
        EREDU_TRY(sharding, physical_sharding(dense, part, *module));
        if (sharding.kind == ShardingKind::Replicated) sharding.per_kv_head = false;
        members.emplace_back(*module + "." + part.suffix, part.shape, std::move(sharding),
                             part.dtype);
      }
      if (dense.kind != ShardingKind::Replicated && dense.axis == 1 &&
          declared->row_split_cuts_groups) {
        cuts_groups = true;
      }
      changed = true;
    }
    if (!changed) {
      expanded.push_back(std::move(group));
      continue;
    }
    if (!group.encoded().empty()) {
      return failf(Status::InvalidGroup, "{}: {} members next to another linear format",
                   group.logical_name(), format);
    }
    if (cuts_groups) {
      for (ParameterMemberSpec& each : members) {
        MemberSharding sharding = each.sharding();
        sharding.per_kv_head = false;
        each = ParameterMemberSpec(each.target(), each.global_shape(), std::move(sharding),
                                   each.dtype());
      }
    }
    Result<ParameterGroupSpec> rebuilt =
        group.partition_units()
            ? partitioned_group_with_preferred_units(
                  group.logical_name(), group.role(), cuts_groups ? 1 : *group.partition_units(),
                  std::move(members), group.scope(),
                  cuts_groups ? std::nullopt : group.query_units())
            : ParameterGroupSpec::create(group.logical_name(), group.role(), std::move(members),
                                         group.scope());
    EREDU_TRY(done, std::move(rebuilt));
    expanded.push_back(std::move(done));
  }
  return expanded;
}

}  // namespace eredu
