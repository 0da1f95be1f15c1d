// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The planner of one rank over a span of groups (docs/planning.md, "Planning
// one rank"): each group resolved once per group class, then placed tensor by
// tensor; plan_rank and owned_group_bytes drive it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/result.hpp"
#include "model/model.hpp"
#include "plan/companion_rule.hpp"
#include "plan/layout.hpp"
#include "plan/resolve.hpp"
#include "topology/topology.hpp"

namespace eredu {

/// One group resolved for one rank, as if the rank owned it.
struct Resolution {
  std::vector<ResolvedMember> members;
  std::vector<std::optional<IndexRange>> expert_ranges;  // per member, stacked experts
  std::optional<IndexRange> logical_range;
  std::uint64_t kv_copies = 0;  // tensor ranks per KV head under KV-head replication, else 0
  bool fell_back = false;       // fell back to replication

  /// The local shape of member `i`.
  LocalShape local_shape(const ParameterMemberSpec& member, std::size_t i) const;
};

/// Plans groups of `model` for one rank into `layout`, keeping its own totals,
/// fallbacks and errors; planners of one layout write disjoint tensors.
class RankPlanner {
 public:
  /// A planner of `rank`. `ranges` is nullptr when the preflight failed;
  /// `verdicts`, when given, holds the companion rule's answers; `layout`
  /// is nullptr for a planner that only sizes groups (owned_bytes).
  RankPlanner(const ModelDescription& model, const ParallelRankTopology& rank,
              const LocalRanges* ranges, ShardingPolicy policy, const CompanionVerdicts* verdicts,
              LocalModelLayout* layout);

  /// Plans groups [begin, end), whose first member has flat index
  /// `first_flat`; a group that fails adds its error to errors() and
  /// planning goes on with the next.
  void plan_groups(std::uint32_t begin, std::uint32_t end, std::uint32_t first_flat);

  /// The errors of the groups planned, in document order.
  std::vector<ErrorEntry>& errors() { return errors_; }

  /// Adds this planner's totals and fallbacks to the layout (in call order).
  Result<void> merge_into(LocalModelLayout& layout) const;

  /// Each member's local bytes (nullopt without a dtype) when this rank
  /// owns group `group_index`, ignoring its scope. Errors: resolve_group's.
  Result<std::vector<std::optional<std::uint64_t>>> owned_bytes(std::uint32_t group_index);

 private:
  Result<const Resolution*> resolution(std::uint32_t group_index);
  Result<void> resolve_group(std::uint32_t group_index);
  Result<void> resolve_or_fall_back(std::uint32_t group_index);
  std::optional<Error> resolve_members(std::uint32_t group_index);
  std::optional<Error> companion_refusal(std::uint32_t group_index) const;
  std::optional<Error> unsplittable_units(const ParameterGroupSpec& group) const;
  std::optional<Error> uneven_scope(const ParameterGroupSpec& group) const;
  Result<void> resolve_logical_range(const ParameterGroupSpec& group);
  Result<void> validate_placements(const ParameterGroupSpec& group);
  Result<void> resolve_expert_ranges(const ParameterGroupSpec& group);
  Result<std::optional<IndexRange>> stacked_expert_range(const ParameterMemberSpec& member) const;

  Result<void> plan_group(std::uint32_t group_index, std::uint32_t first_flat);
  static void clear_selection(LocalTensorLayout& entry);
  void place_omitted(LocalTensorLayout& entry);
  Result<void> place_held(LocalTensorLayout& entry, const Resolution& resolved, std::size_t i);
  Result<void> add_local_bytes(LocalTensorLayout& entry);

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

}  // namespace eredu
