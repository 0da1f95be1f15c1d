// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Planning every rank of a topology (`eredu plan --all-ranks`, `eredu check`).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "core/result.hpp"
#include "model/model.hpp"
#include "plan/layout.hpp"
#include "topology/topology.hpp"
#include "world/coverage.hpp"

namespace eredu {

/// What a world plan keeps of one rank's layout.
struct RankSummary {
  std::uint64_t rank = 0;
  ParallelCoordinates coordinates;
  LayoutTotals totals;
  std::vector<std::uint32_t> fell_back_groups;  // group indices, document order
};

/// Every rank of a topology, summarized, and the coverage proof.
struct WorldPlan {
  std::shared_ptr<const ModelDescription> model;
  ParallelTopology topology;
  ShardingPolicy policy = ShardingPolicy::Require;
  std::vector<RankSummary> ranks;         // by global rank
  std::vector<CoverageProblem> problems;  // by target, problem, detail

  bool coverage_ok() const { return problems.empty(); }
};

/// Reports `planned` of `ranks` ranks done; returning false cancels the
/// plan. Calls are serialized but may come from any worker thread.
using WorldProgress = std::function<bool(std::uint64_t planned, std::uint64_t ranks)>;

/// Sees each rank's layout while it is alive, on the worker thread that
/// planned it (calls for different ranks may run at once); an error stops
/// the plan. Lets a caller derive what it needs of every rank without
/// planning it again.
using RankVisitor = std::function<Result<void>(const LocalModelLayout& layout)>;

/// How plan_world works.
struct WorldOptions {
  /// Worker threads, the calling one included; 0: the hardware's; 1: the
  /// calling thread only.
  unsigned threads = 0;
  WorldProgress progress;  // after each planned rank, when set
  RankVisitor visit;       // with each planned rank's layout, when set

  static WorldOptions on_threads(unsigned count) {
    WorldOptions options;
    options.threads = count;
    return options;
  }
};

/// The most ranks plan_world accepts: 2^20 = 1,048,576 (a world of exactly
/// this many is accepted). A summary per rank must fit in memory: about 104
/// bytes each plus the fell-back group indices, ~110 MB at the cap, and the
/// `eredu.world.v1` JSON of a rank is ~200 bytes, ~210 MB at the cap.
inline constexpr std::uint64_t kMaxWorldRanks = std::uint64_t{1} << 20;

/// Plans every rank of `topology` and verifies coverage (docs/interchange.md,
/// eredu.world.v1). Works one tensor-parallel group at a time on up to
/// `options.threads` threads, so at most threads × T layouts live at once.
/// Costs O(ranks × tensors) time, plus sorting the coverage problems' ranks:
/// each rank is planned once on one thread (plan_rank is O(tensors),
/// whatever the axis sizes), a group's ranks come from its coordinates, and
/// each group is checked once. Errors: the lowest failing rank's plan_rank
/// or visitor error; InvalidArgument when the world has more than
/// kMaxWorldRanks ranks; Cancelled when `progress` returned false;
/// OutOfMemory.
Result<WorldPlan> plan_world(const std::shared_ptr<const ModelDescription>& model,
                             const ParallelTopology& topology, ShardingPolicy policy,
                             const WorldOptions& options = {});

}  // namespace eredu
