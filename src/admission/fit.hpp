// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// `eredu fit`: which tensor × pipeline × expert sizes plan and fit
// (docs/interchange.md, eredu.fit.v1).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "admission/policy.hpp"
#include "core/result.hpp"
#include "model/model.hpp"
#include "plan/layout.hpp"
#include "topology/topology.hpp"

namespace eredu {

/// The largest world `eredu fit` searches unless told (`--max-world`).
inline constexpr std::uint64_t kDefaultFitWorld = 64;
/// The largest `max_world` accepted: fit plans every rank of every
/// topology it searches.
inline constexpr std::uint64_t kMaxFitWorld = 1024;

/// One topology T × P × E (data 1) and what planning it gave.
struct FitTopology {
  ParallelTopology topology;
  /// Planned, with the coverage proof holding.
  bool plans = false;
  /// Every rank fits its budgets (false when it does not plan).
  bool fits = false;
  /// The largest device peak of its ranks, when it plans.
  std::optional<std::uint64_t> device_peak_bytes;
  /// The first error, when it does not plan (Internal for a coverage proof
  /// that fails, a bug).
  std::optional<Error> error;
};

/// Every topology searched, ordered by world size, then T, P, E.
struct FitReport {
  std::shared_ptr<const ModelDescription> model;  // the description searched
  ShardingPolicy policy = ShardingPolicy::Require;
  AdmissionPolicy admission;
  std::uint64_t max_world = kDefaultFitWorld;
  std::vector<FitTopology> topologies;

  /// The smallest world size with a topology that fits; nullopt if none.
  std::optional<std::uint64_t> smallest_fitting_world() const;
};

/// Called after each topology with (topologies done, topologies in all);
/// false cancels.
using FitProgress = std::function<bool(std::uint64_t done, std::uint64_t total)>;

/// The row of one topology, planned and admitted in full (check_world on
/// `threads` threads): what fit_topologies' memoized rows must equal.
FitTopology fit_topology(const std::shared_ptr<const ModelDescription>& model,
                         const ParallelTopology& topology, ShardingPolicy policy,
                         const AdmissionPolicy& admission, unsigned threads);

/// Plans and admits every topology T × P × E × 1 with T·P·E ≤ `max_world`.
/// Each distinct group is planned once per tensor rank and expert range and
/// every rank's figures are summed from those answers (FitFigures); a
/// topology whose figures would overflow is planned in full (fit_topology,
/// on `threads` threads). A topology's own errors are recorded, not
/// returned: its lowest failing rank's code and message. Errors: InvalidArgument (max_world 0 or
/// above kMaxFitWorld); Cancelled when `progress` returned false; OutOfMemory.
Result<FitReport> fit_topologies(std::shared_ptr<const ModelDescription> model,
                                 ShardingPolicy policy, const AdmissionPolicy& admission,
                                 std::uint64_t max_world, unsigned threads = 0,
                                 const FitProgress& progress = {});

}  // namespace eredu
