// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "world/coverage.hpp"

#include <algorithm>
#include <tuple>

#include "format/axis_cells.hpp"
#include "plan/companion_rule.hpp"
#include "plan/resolve.hpp"
#include "topology/balanced_range.hpp"
#include "world/ownership.hpp"
#include "world/tiling.hpp"

namespace eredu {
namespace {

// The encoded matrix member `index` of `group` belongs to, with its role.
std::optional<std::pair<const EncodedMatrix*, EncodedRole>> encoded_member(
    const ParameterGroupSpec& group, std::uint32_t index) {
  for (const EncodedMatrix& matrix : group.encoded()) {
    if (index >= matrix.first && index < matrix.first + matrix.count) {
      return std::pair{&matrix, static_cast<EncodedRole>(index - matrix.first)};
    }
  }
  return std::nullopt;
}

// What the ranks of a tensor-parallel group must cover on the sharded axis
// when it is not the whole axis: the segments. A member of an encoded matrix
// covers its logical declaration's segments mapped onto its own axis (each
// through the cells it starts and ends in), not the segments its expansion
// wrote.
std::optional<std::vector<IndexRange>> declared_domain(const ParameterGroupSpec& group,
                                                       std::uint32_t index) {
  const ParameterMemberSpec& member = group.members()[index];
  const MemberSharding& sharding = member.sharding();
  const auto& shape = member.global_shape();
  const std::uint64_t dim = sharding.axis < shape.size() ? shape[sharding.axis] : 0;
  auto segments_of = [](const MemberSharding& declared) {
    return declared.kind == ShardingKind::PartitionedSegments ||
           declared.kind == ShardingKind::Segmented;
  };
  if (auto encoded = encoded_member(group, index)) {
    const auto& [matrix, role] = *encoded;
    const MemberSharding& logical = matrix->logical.sharding();
    const auto& logical_shape = matrix->logical.global_shape();
    const auto cells =
        axis_cells(matrix->format.encoding(), role, logical.axis, logical_shape.size());
    if (segments_of(logical) && logical.axis < logical_shape.size() && cells) {
      std::vector<IndexRange> domain;
      for (const IndexRange& segment : logical.segments) {
        const std::uint64_t start = segment.start / cells->values * cells->units;
        const std::uint64_t end_cell =
            segment.end / cells->values + (segment.end % cells->values != 0);
        domain.push_back({std::min(start, dim), std::min(end_cell * cells->units, dim)});
      }
      return domain;
    }
    return std::nullopt;
  }
  if (segments_of(sharding)) return sharding.segments;
  return std::nullopt;
}

// The companion rule on every rank's own placements of each encoded matrix
// of `group`, whose first member is at flat index `first_flat`.
void check_companions(const ModelDescription& model, const ParameterGroupSpec& group,
                      std::uint32_t first_flat, std::span<const LocalModelLayout> layouts,
                      std::vector<CoverageProblem>& out) {
  std::vector<const TensorPlacement*> placements;
  for (const EncodedMatrix& matrix : group.encoded()) {
    for (const LocalModelLayout& layout : layouts) {
      placements.clear();
      bool omitted = false;
      for (std::uint32_t j = 0; j < matrix.count; ++j) {
        const std::uint32_t flat = first_flat + matrix.first + j;
        const TensorPlacement& placement = layout.tensors[model.position_of()[flat]].placement;
        omitted = omitted || placement.kind == PlacementKind::Omit;  // ownership's concern
        placements.push_back(&placement);
      }
      if (omitted) continue;
      if (auto violation = companion_violation(group, matrix, placements, layout.coordinates.tensor,
                                               layout.topology.tensor())) {
        out.push_back({group.members()[matrix.first].target(),
                       CoverageKind::Companion,
                       std::move(*violation),
                       {layout.rank}});
      }
    }
  }
}

// The experts the ranks at `expert` coordinate must hold of a member
// stacking them (docs/planning.md, "Stacked experts"), from the model and
// topology: the balanced range of the model's routed experts, or the whole
// axis without a count (the planner refuses expert ranks without one).
Result<IndexRange> expected_experts(const ParameterMemberSpec& member, const ModelInfo& info,
                                    const ParallelTopology& topology, std::uint64_t expert) {
  const std::uint64_t axis = *member.sharding().expert_axis;
  const auto& shape = member.global_shape();
  if (!info.experts) return IndexRange{0, axis < shape.size() ? shape[axis] : 0};
  return balanced_contiguous_range(*info.experts, topology.expert(), expert, false);
}

}  // namespace

std::string_view coverage_kind_name(CoverageKind kind) {
  switch (kind) {
    case CoverageKind::Companion:
      return "companion";
    case CoverageKind::Gap:
      return "gap";
    case CoverageKind::Overlap:
      return "overlap";
    case CoverageKind::Ownership:
      return "ownership";
  }
  return "gap";
}

Result<void> check_tensor_parallel_group(const ModelDescription& model,
                                         const ParallelTopology& topology,
                                         std::span<const LocalModelLayout> layouts,
                                         std::vector<CoverageProblem>& out) {
  if (layouts.empty()) return outcome::success();
  const std::vector<std::uint32_t>& by_target = model.by_target();
  for (const LocalModelLayout& layout : layouts) {
    if (layout.tensors.size() != by_target.size()) {
      return failf(Status::Internal, "rank {} lists {} tensors, the model has {}", layout.rank,
                   layout.tensors.size(), by_target.size());
    }
  }
  // The group shares pipeline and expert coordinates, so one answer per scope;
  // they come from the topology, not from what the planner reported.
  EREDU_TRY(coordinates, topology.coordinates(layouts.front().rank));
  std::vector<HeldPlacement> held;
  std::vector<std::uint64_t> omitted_by_owner;
  std::vector<std::uint64_t> held_by_other;
  std::vector<std::uint64_t> wrong_experts;
  static const TensorPlacement kComplete = TensorPlacement::replicated();
  for (std::size_t k = 0; k < by_target.size(); ++k) {
    const ParameterMemberSpec& member = model.member(by_target[k]);
    const ParameterGroupSpec& group = model.groups()[model.members()[by_target[k]].group];
    EREDU_TRY(owned, scope_owned_by(group.scope(), model.info(), topology, coordinates));
    held.clear();
    omitted_by_owner.clear();
    held_by_other.clear();
    wrong_experts.clear();
    std::optional<IndexRange> experts;
    if (member.sharding().expert_axis) {
      EREDU_TRY(range, expected_experts(member, model.info(), topology, coordinates.expert));
      experts = range;
    }
    for (const LocalModelLayout& layout : layouts) {
      const LocalTensorLayout& tensor = layout.tensors[k];
      if (tensor.member != &member) {
        return failf(Status::Internal, "rank {} lists {} where the model has {}", layout.rank,
                     tensor.member == nullptr ? std::string("nothing") : tensor.target(),
                     member.target());
      }
      const bool materialized = tensor.placement.kind != PlacementKind::Omit;
      if (materialized && experts) {
        // Every holder holds the coordinate's experts; a member the tensor
        // ranks replicate, whose placement selects them, is complete on the
        // tensor-parallel axis.
        if (tensor.expert_range != experts) wrong_experts.push_back(layout.rank);
        const bool replicated = member.sharding().kind == ShardingKind::Replicated;
        held.push_back({layout.rank, replicated ? &kComplete : &tensor.placement});
      } else if (materialized) {
        held.push_back({layout.rank, &tensor.placement});
      }
      if (owned && !materialized) omitted_by_owner.push_back(layout.rank);
      if (!owned && materialized) held_by_other.push_back(layout.rank);
    }
    if (!omitted_by_owner.empty()) {
      std::sort(omitted_by_owner.begin(), omitted_by_owner.end());
      out.push_back({member.target(), CoverageKind::Ownership,
                     fmt::format("scope {}: omitted on an owning rank", scope_text(group.scope())),
                     omitted_by_owner});
    }
    if (!held_by_other.empty()) {
      std::sort(held_by_other.begin(), held_by_other.end());
      out.push_back(
          {member.target(), CoverageKind::Ownership,
           fmt::format("scope {}: materialized on a non-owning rank", scope_text(group.scope())),
           held_by_other});
    }
    if (!wrong_experts.empty()) {
      std::sort(wrong_experts.begin(), wrong_experts.end());
      out.push_back({member.target(), CoverageKind::Ownership,
                     fmt::format("stacked experts on axis {}: not [{}, {}) as the expert "
                                 "coordinate owns",
                                 *member.sharding().expert_axis, experts->start, experts->end),
                     wrong_experts});
    }
    if (!held.empty()) {
      const MemberEntry& entry = model.members()[by_target[k]];
      // Expected from the model and topology, not from what the planner reported.
      const auto kv = kv_replication(group, topology.tensor());
      const std::uint64_t copies =
          kv && kv->valid() && member.sharding().per_kv_head ? kv->copies() : 1;
      check_tiling(member, declared_domain(group, entry.member), held, copies, out);
    }
  }
  std::uint32_t first_flat = 0;
  for (const ParameterGroupSpec& group : model.groups()) {
    if (!group.encoded().empty()) check_companions(model, group, first_flat, layouts, out);
    first_flat += static_cast<std::uint32_t>(group.members().size());
  }
  return outcome::success();
}

std::vector<CoverageProblem> merge_problems(std::vector<CoverageProblem> problems) {
  auto key = [](const CoverageProblem& p) { return std::tie(p.target, p.problem, p.detail); };
  std::sort(problems.begin(), problems.end(),
            [&](const CoverageProblem& a, const CoverageProblem& b) { return key(a) < key(b); });
  std::vector<CoverageProblem> merged;
  for (CoverageProblem& problem : problems) {
    if (!merged.empty() && key(merged.back()) == key(problem)) {
      auto& ranks = merged.back().ranks;
      ranks.insert(ranks.end(), problem.ranks.begin(), problem.ranks.end());
      continue;
    }
    merged.push_back(std::move(problem));
  }
  for (CoverageProblem& problem : merged) {
    std::sort(problem.ranks.begin(), problem.ranks.end());
    problem.ranks.erase(std::unique(problem.ranks.begin(), problem.ranks.end()),
                        problem.ranks.end());
  }
  return merged;
}

}  // namespace eredu
