// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "plan/planner.hpp"

#include <algorithm>
#include <iterator>
#include <system_error>
#include <thread>

#include "plan/rank_experts.hpp"
#include "plan/rank_planner.hpp"

namespace eredu {

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
  LocalModelLayout layout;
  EREDU_TRY(plan_rank_into(model, topology, rank, policy, threads, verdicts, layout));
  return layout;
}

Result<void> plan_rank_into(const std::shared_ptr<const ModelDescription>& model,
                            const ParallelTopology& topology, std::uint64_t rank,
                            ShardingPolicy policy, unsigned threads,
                            const CompanionVerdicts* verdicts, LocalModelLayout& layout) {
  EREDU_TRY(rank_topology, ParallelRankTopology::create(topology, rank));
  // A preflight error is reported after the groups' errors (docs/interchange.md,
  // "Planning errors"): the groups are still resolved, without ownership.
  auto ranges = rank_topology.local_ranges(model->info().layers, model->info().experts);

  layout.model = model;
  layout.topology = rank_topology.topology();
  layout.rank = rank;
  layout.coordinates = rank_topology.coordinates();
  layout.policy = policy;
  // Every entry is written by the planners (plan_group): a reused one keeps
  // only its memory.
  layout.tensors.resize(model->tensor_count());
  layout.totals = LayoutTotals{};
  layout.totals.global_bytes = model->global_bytes();
  layout.totals.unknown_bytes_tensors = model->unknown_bytes_tensors();
  layout.fell_back_groups.clear();
  layout.experts.reset();

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
  return outcome::success();
}

Result<std::vector<std::optional<std::uint64_t>>> owned_group_bytes(
    const ModelDescription& model, std::uint32_t group, const ParallelRankTopology& rank,
    const LocalRanges& ranges, ShardingPolicy policy) {
  RankPlanner planner(model, rank, &ranges, policy, nullptr, nullptr);
  return planner.owned_bytes(group);
}

}  // namespace eredu
