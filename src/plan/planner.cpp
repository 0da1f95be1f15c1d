// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "plan/planner.hpp"

#include <fmt/ranges.h>

#include <algorithm>
#include <system_error>
#include <thread>

#include "core/checked.hpp"
#include "core/text.hpp"
#include "plan/rank_experts.hpp"
#include "plan/resolve.hpp"
#include "plan/unit_geometry.hpp"

namespace eredu {
namespace {

constexpr const char* kLocalBytesOverflow = "the rank's local bytes overflow 64 bits";

}  // namespace

bool owns_scope(const GroupScope& scope, const ParallelRankTopology& rank,
                const LocalRanges& ranges) {
  switch (scope.kind) {
    case GroupScope::Kind::All:
      return true;
    case GroupScope::Kind::Embedding:
      return rank.owns_embedding();
    case GroupScope::Kind::OutputHead:
      return rank.owns_output_head();
    case GroupScope::Kind::TiedEmbedding:
      return rank.owns_embedding() || rank.owns_output_head();
    case GroupScope::Kind::Indexed:
      break;
  }
  if (scope.layer && rank.pipeline_parallel_size() > 1 && !ranges.layers->contains(*scope.layer)) {
    return false;
  }
  if (scope.layer && rank.pipeline_parallel_size() == 1 && rank.pipeline_parallel_rank() != 0) {
    return false;
  }
  if (scope.expert && rank.expert_parallel_size() > 1 && !ranges.experts->contains(*scope.expert)) {
    return false;
  }
  return true;
}

namespace {

// Local shapes never exceed the global one, whose bytes fit 64 bits;
// resolution checked the bytes of a padded one.
std::uint64_t shape_bytes(Dtype dtype, const LocalShape& shape) {
  std::uint64_t bytes = dtype_size(dtype);
  for (std::uint64_t dimension : shape) bytes *= dimension;
  return bytes;
}

// One group resolved for one rank, as if the rank owned it.
struct Resolution {
  std::vector<ResolvedMember> members;
  std::vector<std::optional<IndexRange>> expert_ranges;  // per member, stacked experts
  std::optional<IndexRange> logical_range;
  std::uint64_t kv_copies = 0;  // tensor ranks per KV head under KV-head replication, else 0
  bool fell_back = false;       // fell back to replication

  // The local shape of member `i`.
  LocalShape local_shape(const ParameterMemberSpec& member, std::size_t i) const {
    LocalShape shape = members[i].local_shape(member);
    if (const auto& experts = expert_ranges[i])
      shape[*member.sharding().expert_axis] = experts->length();
    return shape;
  }
};

class RankPlanner {
 public:
  RankPlanner(const ModelDescription& model, const ParallelRankTopology& rank,
              const LocalRanges* ranges, ShardingPolicy policy, const CompanionVerdicts* verdicts,
              LocalModelLayout* layout)
      : model_(model),
        rank_(rank),
        ranges_(ranges),
        policy_(policy),
        verdicts_(verdicts),
        layout_(layout),
        resolutions_(model.class_count()) {}

  /// Plans groups [begin, end), whose first member has flat index
  /// `first_flat`; a group that fails adds its error to errors() and
  /// planning goes on with the next.
  void plan_groups(std::uint32_t begin, std::uint32_t end, std::uint32_t first_flat) {
    const auto& groups = model_.groups();
    for (std::uint32_t g = begin; g < end; ++g) {
      failed_tensor_.clear();
      if (auto planned = plan_group(g, first_flat); !planned) {
        Error error = std::move(planned).error();
        errors_.push_back(ErrorEntry{error.code, groups[g].logical_name(),
                                     std::move(failed_tensor_), std::move(error.message)});
      }
      first_flat += static_cast<std::uint32_t>(groups[g].members().size());
    }
  }

  /// The errors of the groups planned, in document order.
  std::vector<ErrorEntry>& errors() { return errors_; }

  /// Adds this planner's totals and fallbacks to the layout (in call order).
  Result<void> merge_into(LocalModelLayout& layout) const {
    const auto local = checked_add(layout.totals.local_bytes, totals_.local_bytes);
    if (!local) return fail(Status::InvalidTensor, kLocalBytesOverflow);
    layout.totals.local_bytes = *local;
    layout.totals.materialized_tensors += totals_.materialized_tensors;
    layout.totals.omitted_tensors += totals_.omitted_tensors;
    layout.fell_back_groups.insert(layout.fell_back_groups.end(), fell_back_groups_.begin(),
                                   fell_back_groups_.end());
    return outcome::success();
  }

  /// Resolves group `group_index` for this rank as if it owned it, into
  /// scratch_. Errors as plan_rank's for one group; failed_tensor_ names the
  /// member that failed.
  Result<void> resolve_group(std::uint32_t group_index) {
    const ParameterGroupSpec& group = model_.groups()[group_index];
    const auto& members = group.members();
    const std::uint64_t parts = rank_.tensor_parallel_size();
    const std::uint64_t tp_rank = rank_.tensor_parallel_rank();

    const bool even = policy_ == ShardingPolicy::RequireEven;
    scratch_.members.clear();
    std::optional<Error> unresolved = unsplittable_units(group);
    if (!unresolved && even) unresolved = uneven_scope(group);
    for (const ParameterMemberSpec& member : members) {
      if (unresolved) break;
      auto resolved = resolve_member(group, member, parts, tp_rank, even);
      if (!resolved) {
        unresolved = std::move(resolved).error();
        failed_tensor_ = member.target();
        break;
      }
      scratch_.members.push_back(std::move(resolved).value());
    }
    if (!unresolved && !group.encoded().empty() && parts > 1) {
      if (verdicts_ != nullptr) {
        unresolved = (*verdicts_)[group_index];
      } else if (auto rule = check_companion_rule(group, parts); !rule) {
        unresolved = std::move(rule).error();
      }
    }
    const bool fell_back = unresolved.has_value();
    if (fell_back && refuses_fallback(policy_)) {
      return failf(Status::InvalidTensor, "logical parameter {}: {}",
                   debug_quoted(group.logical_name()), unresolved->message);
    }
    failed_tensor_.clear();  // the fallback replaces the failed member
    if (fell_back) {
      scratch_.members.assign(members.size(), ResolvedMember{TensorPlacement::replicated(), 0});
    }

    scratch_.fell_back = fell_back;
    scratch_.logical_range.reset();
    scratch_.kv_copies = 0;
    if (auto kv = kv_replication(group, parts); kv && !fell_back) scratch_.kv_copies = kv->copies();
    if (auto units = group.partition_units()) {
      if (fell_back) {
        scratch_.logical_range = IndexRange{0, *units};
      } else if (scratch_.kv_copies != 0) {
        const std::uint64_t head = tp_rank / scratch_.kv_copies;
        scratch_.logical_range = IndexRange{head, head + 1};
      } else {
        auto range = balanced_contiguous_range(*units, parts, tp_rank, false);
        if (!range) return fail(Status::InvalidTensor, range.error().message);
        scratch_.logical_range = range.value();
      }
    }

    const PlacementBounds bounds{rank_.world_size()};
    for (std::size_t i = 0; i < members.size(); ++i) {
      // A rank holding only vocabulary padding reads the empty range [V, V).
      const TensorPlacement& placement = scratch_.members[i].placement;
      if (scratch_.members[i].padding_rows != 0 && placement.start == placement.end) continue;
      auto valid =
          validate_placement(scratch_.members[i].placement, members[i].global_shape(), bounds);
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

  /// Group `group_index` resolved for this rank: its class's resolution
  /// when a group of its class resolved before (groups of a class resolve
  /// alike; an error is never kept, its message names its group).
  Result<const Resolution*> resolution(std::uint32_t group_index) {
    std::optional<Resolution>& kept = resolutions_[model_.group_classes()[group_index]];
    if (!kept) {
      EREDU_TRY(resolve_group(group_index));
      kept = std::move(scratch_);
    }
    return &*kept;
  }

  /// Each member's local bytes (nullopt without a dtype) when this rank
  /// owns group `group_index`, ignoring its scope. Errors: resolve_group's.
  Result<std::vector<std::optional<std::uint64_t>>> owned_bytes(std::uint32_t group_index) {
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

  Result<void> plan_group(std::uint32_t group_index, std::uint32_t first_flat) {
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
      if (!owned) {
        entry.placement = TensorPlacement::omit();
        entry.local_bytes = 0;
        totals_.omitted_tensors += 1;
        continue;
      }
      entry.local_shape = resolved->local_shape(members[i], i);
      entry.placement = resolved->members[i].placement;
      if (const auto& experts = resolved->expert_ranges[i]) {
        // The expert range on top of the tensor-parallel selection; a member
        // the tensor ranks replicate selects it as its range.
        const std::uint64_t axis = *members[i].sharding().expert_axis;
        if (entry.placement.kind == PlacementKind::Replicated) {
          entry.placement = TensorPlacement::range(axis, experts->start, experts->end);
        }
        entry.expert_range = experts;
      }
      entry.logical_range = resolved->logical_range;
      if (resolved->kv_copies != 0 && members[i].sharding().per_kv_head) {
        entry.kv_head_copies = resolved->kv_copies;
      }
      entry.padding_rows = resolved->members[i].padding_rows;
      totals_.materialized_tensors += 1;
      if (auto dtype = members[i].dtype()) {
        const std::uint64_t bytes = shape_bytes(*dtype, entry.local_shape);
        entry.local_bytes = bytes;
        // Padded shapes can sum past 64 bits where global ones cannot.
        const auto total = checked_add(totals_.local_bytes, bytes);
        if (!total) {
          failed_tensor_ = members[i].target();
          return failf(Status::InvalidTensor, "logical parameter {}: {}",
                       debug_quoted(group.logical_name()), kLocalBytesOverflow);
        }
        totals_.local_bytes = *total;
      }
    }
    return outcome::success();
  }

 private:
  // The experts this rank holds of a member stacking them (docs/planning.md,
  // "Stacked experts"): its balanced expert range, or the whole axis
  // without an expert count; nullopt for a member that stacks none, and
  // without the preflight's ranges.
  Result<std::optional<IndexRange>> stacked_expert_range(const ParameterMemberSpec& member) const {
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

  // Fewer partition units than tensor ranks, named by what fixed the count;
  // with query units, KV heads that cannot be replicated at this size.
  std::optional<Error> unsplittable_units(const ParameterGroupSpec& group) const {
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
  std::optional<Error> uneven_scope(const ParameterGroupSpec& group) const {
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

  const ModelDescription& model_;
  const ParallelRankTopology& rank_;
  const LocalRanges* ranges_;  // nullptr when the preflight failed
  ShardingPolicy policy_;
  const CompanionVerdicts* verdicts_;
  LocalModelLayout* layout_;  // planners of one layout write disjoint tensors; nullptr: none
  Resolution scratch_;        // the group being resolved
  std::vector<std::optional<Resolution>> resolutions_;  // by group class, for this rank
  LayoutTotals totals_;
  std::vector<std::uint32_t> fell_back_groups_;
  std::vector<ErrorEntry> errors_;
  std::string failed_tensor_;  // the member of the group being planned that failed
};

// A contiguous run of groups planned by one thread.
struct GroupSpan {
  std::uint32_t begin = 0;
  std::uint32_t end = 0;
  std::uint32_t first_flat = 0;
};

// Splits the groups into `parts` spans of about equal tensor counts.
std::vector<GroupSpan> split_groups(const ModelDescription& model, unsigned parts) {
  const auto& groups = model.groups();
  const std::size_t per_part = (model.tensor_count() + parts - 1) / parts;
  std::vector<GroupSpan> spans;
  GroupSpan span;
  std::size_t members = 0;
  std::uint32_t flat = 0;
  for (std::uint32_t g = 0; g < groups.size(); ++g) {
    const auto size = static_cast<std::uint32_t>(groups[g].members().size());
    members += size;
    flat += size;
    if (members >= per_part && spans.size() + 1 < parts) {
      span.end = g + 1;
      spans.push_back(span);
      span = GroupSpan{g + 1, g + 1, flat};
      members = 0;
    }
  }
  span.end = static_cast<std::uint32_t>(groups.size());
  spans.push_back(span);
  return spans;
}

}  // namespace

Result<LocalModelLayout> plan_rank(const std::shared_ptr<const ModelDescription>& model,
                                   const ParallelTopology& topology, std::uint64_t rank,
                                   ShardingPolicy policy, unsigned threads,
                                   const CompanionVerdicts* verdicts) {
  EREDU_TRY(rank_topology, ParallelRankTopology::create(topology, rank));
  // A preflight error is reported after the groups' errors (docs/interchange.md,
  // "Planning errors"): the groups are still resolved, without ownership.
  auto ranges = rank_topology.local_ranges(model->info().layers, model->info().experts);

  LocalModelLayout layout;
  layout.model = model;
  layout.topology = rank_topology.topology();
  layout.rank = rank;
  layout.coordinates = rank_topology.coordinates();
  layout.policy = policy;
  layout.tensors.resize(model->tensor_count());
  layout.totals.global_bytes = model->global_bytes();
  layout.totals.unknown_bytes_tensors = model->unknown_bytes_tensors();

  // More threads than the hardware has only cost memory.
  const unsigned hardware = std::max(1u, std::thread::hardware_concurrency());
  const unsigned parts = model->tensor_count() >= kParallelTensors
                             ? std::min(threads == 0 ? 2u : threads, std::max(hardware, 2u))
                             : 1u;
  const std::vector<GroupSpan> spans = split_groups(*model, parts);
  std::vector<RankPlanner> planners(
      spans.size(), RankPlanner(*model, rank_topology, ranges ? &ranges.value() : nullptr, policy,
                                verdicts, &layout));
  auto plan_span = [&](std::size_t i) {
    planners[i].plan_groups(spans[i].begin, spans[i].end, spans[i].first_flat);
  };
  {
    std::vector<std::jthread> workers;
    std::size_t started = 1;
    for (; started < spans.size(); ++started) {
      // Without another thread the calling one plans the rest.
      try {
        workers.emplace_back(plan_span, started);
      } catch (const std::system_error&) {
        break;
      }
    }
    plan_span(0);
    for (std::size_t i = started; i < spans.size(); ++i) plan_span(i);
  }
  // Every error: the groups' in document order, as if planned on one
  // thread, then the preflight's. The failure's code and message stay what
  // they always were: the preflight's when it failed, else the first
  // group's.
  std::vector<ErrorEntry> errors;
  for (RankPlanner& planner : planners) {
    std::move(planner.errors().begin(), planner.errors().end(), std::back_inserter(errors));
  }
  if (!ranges) errors.push_back({ranges.error().code, {}, {}, ranges.error().message});
  if (!errors.empty()) {
    const ErrorEntry& first = ranges ? errors.front() : errors.back();
    const Status code = first.code;
    std::string message = first.message;
    return outcome::failure(Error{code, std::move(message), std::move(errors)});
  }
  for (const RankPlanner& planner : planners) {
    EREDU_TRY(planner.merge_into(layout));
  }
  EREDU_TRY(experts, rank_experts(layout));
  layout.experts = experts;
  return layout;
}

Result<std::vector<std::optional<std::uint64_t>>> owned_group_bytes(
    const ModelDescription& model, std::uint32_t group, const ParallelRankTopology& rank,
    const LocalRanges& ranges, ShardingPolicy policy) {
  RankPlanner planner(model, rank, &ranges, policy, nullptr, nullptr);
  return planner.owned_bytes(group);
}

}  // namespace eredu
