#include "world/coverage.hpp"

#include <algorithm>
#include <tuple>

#include "world/ownership.hpp"
#include "world/tiling.hpp"

namespace eredu {

std::string_view coverage_kind_name(CoverageKind kind) {
  switch (kind) {
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
  for (std::size_t k = 0; k < by_target.size(); ++k) {
    const ParameterMemberSpec& member = model.member(by_target[k]);
    const ParameterGroupSpec& group = model.groups()[model.members()[by_target[k]].group];
    EREDU_TRY(owned, scope_owned_by(group.scope(), model.info(), topology, coordinates));
    held.clear();
    omitted_by_owner.clear();
    held_by_other.clear();
    for (const LocalModelLayout& layout : layouts) {
      const LocalTensorLayout& tensor = layout.tensors[k];
      if (tensor.member != &member) {
        return failf(Status::Internal, "rank {} lists {} where the model has {}", layout.rank,
                     tensor.member == nullptr ? std::string("nothing") : tensor.target(),
                     member.target());
      }
      const bool materialized = tensor.placement.kind != PlacementKind::Omit;
      if (materialized) held.push_back({layout.rank, &tensor.placement});
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
    if (!held.empty()) check_tiling(member, held, out);
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
