// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "plan/rank_planner.hpp"

#include <fmt/ranges.h>

#include <utility>

#include "core/checked.hpp"
#include "core/text.hpp"
#include "plan/planner.hpp"
#include "plan/unit_geometry.hpp"

namespace eredu {
namespace {

constexpr const char* kLocalBytesOverflow = "the rank's local bytes overflow 64 bits";

// Local shapes never exceed the global one, whose bytes fit 64 bits;
// resolution checked the bytes of a padded one.
std::uint64_t shape_bytes(Dtype dtype, const LocalShape& shape) {
  std::uint64_t bytes = dtype_size(dtype);
  for (std::uint64_t dimension : shape) bytes *= dimension;
  return bytes;
}

}  // namespace

LocalShape Resolution::local_shape(const ParameterMemberSpec& member, std::size_t i) const {
  LocalShape shape = members[i].local_shape(member);
  if (const auto& experts = expert_ranges[i])
    shape[*member.sharding().expert_axis] = experts->length();
  return shape;
}

RankPlanner::RankPlanner(const ModelDescription& model, const ParallelRankTopology& rank,
                         const LocalRanges* ranges, ShardingPolicy policy,
                         const CompanionVerdicts* verdicts, LocalModelLayout* layout)
    : model_(model),
      rank_(rank),
      ranges_(ranges),
      policy_(policy),
      verdicts_(verdicts),
      layout_(layout),
      resolutions_(model.class_count()) {}

void RankPlanner::plan_groups(std::uint32_t begin, std::uint32_t end, std::uint32_t first_flat) {
  const auto& groups = model_.groups();
  for (std::uint32_t g = begin; g < end; ++g) {
    failed_tensor_.clear();
    if (auto planned = plan_group(g, first_flat); !planned) {
      Error error = std::move(planned).error();
      errors_.push_back(ErrorEntry{error.code, groups[g].logical_name(), std::move(failed_tensor_),
                                   std::move(error.message)});
    }
    first_flat += static_cast<std::uint32_t>(groups[g].members().size());
  }
}

Result<void> RankPlanner::merge_into(LocalModelLayout& layout) const {
  const auto local = checked_add(layout.totals.local_bytes, totals_.local_bytes);
  if (!local) return fail(Status::InvalidTensor, kLocalBytesOverflow);
  layout.totals.local_bytes = *local;
  layout.totals.materialized_tensors += totals_.materialized_tensors;
  layout.totals.omitted_tensors += totals_.omitted_tensors;
  layout.fell_back_groups.insert(layout.fell_back_groups.end(), fell_back_groups_.begin(),
                                 fell_back_groups_.end());
  return outcome::success();
}

Result<std::vector<std::optional<std::uint64_t>>> RankPlanner::owned_bytes(
    std::uint32_t group_index) {
  EREDU_TRY(resolved, resolution(group_index));
  const auto& members = model_.groups()[group_index].members();
  std::vector<std::optional<std::uint64_t>> bytes(members.size());
  for (std::size_t i = 0; i < members.size(); ++i) {
    if (auto dtype = members[i].dtype()) {
      bytes[i] = shape_bytes(*dtype, resolved->local_shape(members[i], i));
    }
  }
  return bytes;
}

// Group `group_index` resolved for this rank: its class's resolution when a
// group of its class resolved before (groups of a class resolve alike; an
// error is never kept, its message names its group).
Result<const Resolution*> RankPlanner::resolution(std::uint32_t group_index) {
  std::optional<Resolution>& kept = resolutions_[model_.group_classes()[group_index]];
  if (!kept) {
    EREDU_TRY(resolve_group(group_index));
    kept = std::move(scratch_);
  }
  return &*kept;
}

// Resolves group `group_index` for this rank as if it owned it, into
// scratch_. Errors as plan_rank's for one group; failed_tensor_ names the
// member that failed.
Result<void> RankPlanner::resolve_group(std::uint32_t group_index) {
  const ParameterGroupSpec& group = model_.groups()[group_index];
  EREDU_TRY(resolve_or_fall_back(group_index));
  EREDU_TRY(resolve_logical_range(group));
  EREDU_TRY(validate_placements(group));
  return resolve_expert_ranges(group);
}

// The members of group `group_index` resolved into scratch_.members or, when
// they cannot be, replicated (the fallback) unless the policy refuses it.
Result<void> RankPlanner::resolve_or_fall_back(std::uint32_t group_index) {
  const ParameterGroupSpec& group = model_.groups()[group_index];
  const std::optional<Error> unresolved = resolve_members(group_index);
  scratch_.fell_back = unresolved.has_value();
  if (scratch_.fell_back && refuses_fallback(policy_)) {
    return failf(Status::InvalidTensor, "logical parameter {}: {}",
                 debug_quoted(group.logical_name()), unresolved->message);
  }
  failed_tensor_.clear();  // the fallback replaces the failed member
  if (scratch_.fell_back) {
    scratch_.members.assign(group.members().size(),
                            ResolvedMember{TensorPlacement::replicated(), 0});
  }
  return outcome::success();
}

// Resolves each member of group `group_index` into scratch_.members; the
// reason the group does not split on the tensor ranks, if any (its units,
// under require_even its scope, a member, then the companion rule), with
// failed_tensor_ naming the member that failed.
std::optional<Error> RankPlanner::resolve_members(std::uint32_t group_index) {
  const ParameterGroupSpec& group = model_.groups()[group_index];
  const bool even = policy_ == ShardingPolicy::RequireEven;
  scratch_.members.clear();
  if (auto unsplittable = unsplittable_units(group)) return unsplittable;
  if (even) {
    if (auto uneven = uneven_scope(group)) return uneven;
  }
  for (const ParameterMemberSpec& member : group.members()) {
    auto resolved = resolve_member(group, member, rank_.tensor_parallel_size(),
                                   rank_.tensor_parallel_rank(), even);
    if (!resolved) {
      failed_tensor_ = member.target();
      return std::move(resolved).error();
    }
    scratch_.members.push_back(std::move(resolved).value());
  }
  return companion_refusal(group_index);
}

// The companion rule's answer for group `group_index`, split over more than
// one tensor rank with encoded matrices: `verdicts_`' when given, else
// checked here.
std::optional<Error> RankPlanner::companion_refusal(std::uint32_t group_index) const {
  const ParameterGroupSpec& group = model_.groups()[group_index];
  const std::uint64_t parts = rank_.tensor_parallel_size();
  if (group.encoded().empty() || parts <= 1) return std::nullopt;
  if (verdicts_ != nullptr) return (*verdicts_)[group_index];
  if (auto rule = check_companion_rule(group, parts); !rule) return std::move(rule).error();
  return std::nullopt;
}

// Fewer partition units than tensor ranks, named by what fixed the count;
// with query units, KV heads that cannot be replicated at this size.
std::optional<Error> RankPlanner::unsplittable_units(const ParameterGroupSpec& group) const {
  const std::uint64_t parts = rank_.tensor_parallel_size();
  const auto units = group.partition_units();
  if (!units || *units >= parts) return std::nullopt;
  const auto kv = kv_replication(group, parts);
  if (kv && kv->valid()) return std::nullopt;
  const std::string sizes =
      fmt::format("tensor sizes up to {} that work for this group: {}", kTensorSizeSearch,
                  fmt::join(working_tensor_sizes(group, kTensorSizeSearch), ", "));
  if (kv) {
    return Error{
        Status::InvalidTensor,
        fmt::format("{} KV heads and {} query heads cannot be split {} ways: KV heads "
                    "are replicated only at a multiple of {} that divides {}; {}",
                    kv->kv_heads, kv->query_heads, parts, kv->kv_heads, kv->query_heads, sizes)};
  }
  return Error{Status::InvalidTensor,
               fmt::format("{} cannot be split {} ways; {}", unit_geometry(group), parts, sizes)};
}

// require_even's group-level splits: the partition units over the tensor
// ranks and, for a routed expert, the experts over the expert ranks.
std::optional<Error> RankPlanner::uneven_scope(const ParameterGroupSpec& group) const {
  const std::uint64_t parts = rank_.tensor_parallel_size();
  if (auto units = group.partition_units(); units && *units % parts != 0) {
    return Error{Status::InvalidTensor,
                 fmt::format("the group's {} partition unit{} do not split evenly {} ways under "
                             "require_even; {}",
                             *units, *units == 1 ? "" : "s", parts,
                             dividing_sizes_text(*units, kTensorSizeSearch))};
  }
  const std::uint64_t experts_parts = rank_.expert_parallel_size();
  const auto experts = model_.info().experts;
  if ((group.scope().expert || group.stacks_experts()) && experts && experts_parts > 1 &&
      *experts % experts_parts != 0) {
    return Error{
        Status::InvalidTensor,
        fmt::format("{} routed experts do not split evenly over {} expert ranks under "
                    "require_even; expert {}",
                    *experts, experts_parts, dividing_sizes_text(*experts, kTensorSizeSearch))};
  }
  return std::nullopt;
}

// The group's range of partition units on this rank, by placement kind:
// every unit when it fell back; one KV head under KV-head replication
// (whose tensor ranks per head it notes in scratch_.kv_copies); else a
// balanced contiguous range of the units. None without partition units.
Result<void> RankPlanner::resolve_logical_range(const ParameterGroupSpec& group) {
  const std::uint64_t parts = rank_.tensor_parallel_size();
  const std::uint64_t tp_rank = rank_.tensor_parallel_rank();
  scratch_.logical_range.reset();
  scratch_.kv_copies = 0;
  if (auto kv = kv_replication(group, parts); kv && !scratch_.fell_back) {
    scratch_.kv_copies = kv->copies();
  }
  const auto units = group.partition_units();
  if (!units) return outcome::success();
  if (scratch_.fell_back) {
    scratch_.logical_range = IndexRange{0, *units};
  } else if (scratch_.kv_copies != 0) {
    const std::uint64_t head = tp_rank / scratch_.kv_copies;
    scratch_.logical_range = IndexRange{head, head + 1};
  } else {
    auto range = balanced_contiguous_range(*units, parts, tp_rank, false);
    if (!range) return fail(Status::InvalidTensor, range.error().message);
    scratch_.logical_range = range.value();
  }
  return outcome::success();
}

// Validates each member's resolved placement against its global shape; the
// error names the logical parameter too when the policy refuses fallbacks.
Result<void> RankPlanner::validate_placements(const ParameterGroupSpec& group) {
  const auto& members = group.members();
  const PlacementBounds bounds{rank_.world_size()};
  for (std::size_t i = 0; i < members.size(); ++i) {
    // A rank holding only vocabulary padding reads the empty range [V, V).
    const TensorPlacement& placement = scratch_.members[i].placement;
    if (scratch_.members[i].padding_rows != 0 && placement.start == placement.end) continue;
    auto valid = validate_placement(placement, members[i].global_shape(), bounds);
    if (!valid) {
      failed_tensor_ = members[i].target();
      std::string text =
          fmt::format("placement for tensor {}: {}", members[i].target(), valid.error().message);
      if (refuses_fallback(policy_)) {
        return failf(Status::InvalidTensor, "logical parameter {}: {}",
                     debug_quoted(group.logical_name()), text);
      }
      return fail(Status::InvalidTensor, std::move(text));
    }
  }
  return outcome::success();
}

// The experts this rank holds of each member, into scratch_.expert_ranges.
Result<void> RankPlanner::resolve_expert_ranges(const ParameterGroupSpec& group) {
  const auto& members = group.members();
  scratch_.expert_ranges.assign(members.size(), std::nullopt);
  for (std::size_t i = 0; i < members.size(); ++i) {
    auto range = stacked_expert_range(members[i]);
    if (!range) {
      failed_tensor_ = members[i].target();
      return failf(Status::InvalidTensor, "logical parameter {}: {}",
                   debug_quoted(group.logical_name()), range.error().message);
    }
    scratch_.expert_ranges[i] = range.value();
  }
  return outcome::success();
}

// The experts this rank holds of a member stacking them (docs/planning.md,
// "Stacked experts"): its balanced expert range, or the whole axis
// without an expert count; nullopt for a member that stacks none, and
// without the preflight's ranges.
Result<std::optional<IndexRange>> RankPlanner::stacked_expert_range(
    const ParameterMemberSpec& member) const {
  const auto axis = member.sharding().expert_axis;
  if (!axis) return std::optional<IndexRange>{};
  const auto& shape = member.global_shape();
  if (*axis >= shape.size()) {
    return failf(Status::InvalidTensor, "tensor {} expert axis {} is outside shape [{}]",
                 debug_quoted(member.target()), *axis, fmt::join(shape, ", "));
  }
  const auto experts = model_.info().experts;
  if (!experts) return std::optional<IndexRange>{IndexRange{0, shape[*axis]}};
  if (shape[*axis] != *experts) {
    return failf(Status::InvalidTensor,
                 "tensor {} expert axis {} extent {} does not match the model's {} routed "
                 "experts",
                 debug_quoted(member.target()), *axis, shape[*axis], *experts);
  }
  if (ranges_ == nullptr) return std::optional<IndexRange>{};
  return ranges_->experts;
}

// Writes the layout entries of group `group_index`, whose first member has
// flat index `first_flat`: each tensor omitted or held by this rank.
Result<void> RankPlanner::plan_group(std::uint32_t group_index, std::uint32_t first_flat) {
  EREDU_TRY(resolved, resolution(group_index));
  const ParameterGroupSpec& group = model_.groups()[group_index];
  const auto& members = group.members();
  if (resolved->fell_back) fell_back_groups_.push_back(group_index);
  // Without the preflight's ranges (it failed) ownership is not decided;
  // the layout is not returned then.
  const bool owned = ranges_ == nullptr || owns_scope(group.scope(), rank_, *ranges_);
  for (std::size_t i = 0; i < members.size(); ++i) {
    const std::uint32_t flat = first_flat + static_cast<std::uint32_t>(i);
    LocalTensorLayout& entry = layout_->tensors[model_.position_of()[flat]];
    entry.group = &group;
    entry.member = &members[i];
    entry.fell_back_to_replication = resolved->fell_back;
    clear_selection(entry);
    if (owned) {
      EREDU_TRY(place_held(entry, *resolved, i));
    } else {
      place_omitted(entry);
    }
  }
  return outcome::success();
}

// Resets what a placement sets in `entry`, which may hold another rank's
// (plan_rank_into reuses layouts); local_shape keeps its memory.
void RankPlanner::clear_selection(LocalTensorLayout& entry) {
  entry.local_shape.clear();
  entry.logical_range.reset();
  entry.kv_head_copies = 1;
  entry.padding_rows = 0;
  entry.expert_range.reset();
  entry.local_bytes.reset();
}

// The entry of a tensor this rank omits.
void RankPlanner::place_omitted(LocalTensorLayout& entry) {
  entry.placement = TensorPlacement::omit();
  entry.local_bytes = 0;
  totals_.omitted_tensors += 1;
}

// The entry of a tensor this rank holds, member `i` of the group `resolved`
// resolves.
Result<void> RankPlanner::place_held(LocalTensorLayout& entry, const Resolution& resolved,
                                     std::size_t i) {
  const ParameterMemberSpec& member = *entry.member;
  entry.local_shape = resolved.local_shape(member, i);
  entry.placement = resolved.members[i].placement;
  if (const auto& experts = resolved.expert_ranges[i]) {
    // The expert range on top of the tensor-parallel selection; a member
    // the tensor ranks replicate selects it as its range.
    const std::uint64_t axis = *member.sharding().expert_axis;
    if (entry.placement.kind == PlacementKind::Replicated) {
      entry.placement = TensorPlacement::range(axis, experts->start, experts->end);
    }
    entry.expert_range = experts;
  }
  entry.logical_range = resolved.logical_range;
  if (resolved.kv_copies != 0 && member.sharding().per_kv_head) {
    entry.kv_head_copies = resolved.kv_copies;
  }
  entry.padding_rows = resolved.members[i].padding_rows;
  totals_.materialized_tensors += 1;
  return add_local_bytes(entry);
}

// The local bytes of a held tensor with a dtype, added to the totals.
Result<void> RankPlanner::add_local_bytes(LocalTensorLayout& entry) {
  const auto dtype = entry.member->dtype();
  if (!dtype) return outcome::success();
  const std::uint64_t bytes = shape_bytes(*dtype, entry.local_shape);
  entry.local_bytes = bytes;
  // Padded shapes can sum past 64 bits where global ones cannot.
  const auto total = checked_add(totals_.local_bytes, bytes);
  if (!total) {
    failed_tensor_ = entry.member->target();
    return failf(Status::InvalidTensor, "logical parameter {}: {}",
                 debug_quoted(entry.group->logical_name()), kLocalBytesOverflow);
  }
  totals_.local_bytes = *total;
  return outcome::success();
}

}  // namespace eredu
