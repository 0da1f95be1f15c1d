// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "world/world.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <iterator>
#include <mutex>
#include <new>
#include <optional>
#include <system_error>
#include <thread>
#include <utility>

#include "plan/planner.hpp"

namespace eredu {
namespace {

// Shared state of the workers: the next tensor-parallel group to take, the
// summaries (each slot written by one worker), the lowest failing rank.
class WorldPlanner {
 public:
  WorldPlanner(const std::shared_ptr<const ModelDescription>& model,
               const ParallelTopology& topology, ShardingPolicy policy,
               std::vector<RankSummary>& summaries, const WorldOptions& options)
      : model_(model),
        topology_(topology),
        policy_(policy),
        verdicts_(companion_verdicts(*model, topology.tensor())),
        summaries_(summaries),
        options_(options) {}

  std::uint64_t group_count() const { return topology_.world_size() / topology_.tensor(); }

  // Takes groups until none is left; problems go to the worker's own vector.
  void work(std::vector<CoverageProblem>& problems) {
    std::vector<LocalModelLayout> layouts;
    std::uint64_t rank = 0;
    try {
      for (std::uint64_t group = next_group_++; group < group_count(); group = next_group_++) {
        if (!plan_group(group, layouts, rank)) continue;
        auto checked = check_tensor_parallel_group(*model_, topology_, layouts, problems);
        if (!checked) record(layouts.front().rank, std::move(checked).error());
      }
    } catch (const std::bad_alloc&) {
      record(rank, Error{Status::OutOfMemory, "out of memory while planning every rank"});
    }
  }

  std::optional<Error> failure() && {
    if (!failure_) return std::nullopt;
    return std::move(failure_->second);
  }

 private:
  // Plans the T ranks of `group` into `layouts`, reusing the previous
  // group's memory; false when one failed or a lower rank already did (its
  // error wins, so this group need not finish).
  bool plan_group(std::uint64_t group, std::vector<LocalModelLayout>& layouts,
                  std::uint64_t& rank) {
    layouts.resize(topology_.tensor());
    const std::uint64_t experts = topology_.expert();
    const std::uint64_t stages = topology_.pipeline();
    ParallelCoordinates coordinates;
    coordinates.expert = group % experts;
    coordinates.pipeline = (group / experts) % stages;
    coordinates.data = group / experts / stages;
    for (std::uint64_t t = 0; t < topology_.tensor(); ++t) {
      coordinates.tensor = t;
      auto global = topology_.rank_for(coordinates);
      if (!global) {
        record(0, std::move(global).error());
        return false;
      }
      rank = global.value();
      if (failed_below(rank)) return false;
      LocalModelLayout& layout = layouts[t];
      auto planned = plan_rank_into(model_, topology_, rank, policy_, 1, &verdicts_, layout);
      if (!planned) {
        record(rank, std::move(planned).error());
        return false;
      }
      if (options_.visit) {
        if (auto visited = options_.visit(layout); !visited) {
          record(rank, std::move(visited).error());
          return false;
        }
      }
      RankSummary& summary = summaries_[rank];
      summary.rank = rank;
      summary.coordinates = layout.coordinates;
      summary.totals = layout.totals;
      summary.fell_back_groups = layout.fell_back_groups;
      if (!report_progress()) return false;
    }
    return true;
  }

  // False when the plan is cancelled: the callback asked to stop now (its
  // cancellation then wins over every error) or earlier.
  bool report_progress() {
    if (!options_.progress) return true;
    std::lock_guard lock(mutex_);
    if (cancelled_) return false;
    if (options_.progress(++planned_, topology_.world_size())) return true;
    cancelled_ = true;
    failure_.emplace(0, Error{Status::Cancelled,
                              fmt::format("cancelled by the progress callback after {} of {} ranks",
                                          planned_, topology_.world_size())});
    return false;
  }

  bool failed_below(std::uint64_t rank) {
    std::lock_guard lock(mutex_);
    return cancelled_ || (failure_ && failure_->first < rank);
  }

  void record(std::uint64_t rank, Error error) {
    std::lock_guard lock(mutex_);
    if (cancelled_) return;
    if (!failure_ || rank < failure_->first) failure_.emplace(rank, std::move(error));
  }

  const std::shared_ptr<const ModelDescription>& model_;
  const ParallelTopology& topology_;
  ShardingPolicy policy_;
  const CompanionVerdicts verdicts_;  // the same for every rank of the world
  std::vector<RankSummary>& summaries_;
  const WorldOptions& options_;
  std::uint64_t planned_ = 0;
  bool cancelled_ = false;
  std::atomic<std::uint64_t> next_group_{0};
  std::mutex mutex_;  // guards planned_, cancelled_ and failure_
  std::optional<std::pair<std::uint64_t, Error>> failure_;
};

}  // namespace

Result<WorldPlan> plan_world(const std::shared_ptr<const ModelDescription>& model,
                             const ParallelTopology& topology, ShardingPolicy policy,
                             const WorldOptions& options) {
  if (topology.world_size() > kMaxWorldRanks) {
    return failf(Status::InvalidArgument,
                 "world size {} is more than the {} ranks eredu plans at once",
                 topology.world_size(), kMaxWorldRanks);
  }
  WorldPlan world{model, topology, policy, {}, {}};
  world.ranks.resize(topology.world_size());
  WorldPlanner planner(model, topology, policy, world.ranks, options);

  const unsigned threads =
      options.threads != 0 ? options.threads : std::max(1u, std::thread::hardware_concurrency());
  const std::uint64_t workers = std::min<std::uint64_t>(threads, planner.group_count());
  std::vector<std::vector<CoverageProblem>> problems(workers);
  {
    std::vector<std::jthread> pool;
    for (std::uint64_t w = 1; w < workers; ++w) {
      // Without another thread the ones already running take every group.
      try {
        pool.emplace_back([&planner, &problems, w] { planner.work(problems[w]); });
      } catch (const std::system_error&) {
        break;
      }
    }
    planner.work(problems[0]);
  }  // joins the pool
  if (auto error = std::move(planner).failure()) return outcome::failure(std::move(*error));

  std::vector<CoverageProblem> all;
  for (auto& part : problems) std::move(part.begin(), part.end(), std::back_inserter(all));
  world.problems = merge_problems(std::move(all));
  return world;
}

}  // namespace eredu
