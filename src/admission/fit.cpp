// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "admission/fit.hpp"

#include <algorithm>

#include "admission/check.hpp"
#include "admission/fit_figures.hpp"

namespace eredu {

FitTopology fit_topology(const std::shared_ptr<const ModelDescription>& model,
                         const ParallelTopology& topology, ShardingPolicy policy,
                         const AdmissionPolicy& admission, unsigned threads) {
  FitTopology row{topology, false, false, std::nullopt, std::nullopt};
  auto report = check_world(model, topology, policy, admission, WorldOptions::on_threads(threads));
  if (!report) {
    row.error = std::move(report).error();
    return row;
  }
  if (!report.value().world.coverage_ok()) {
    row.error = Error{Status::Internal, "the coverage proof failed"};
    return row;
  }
  std::uint64_t peak = 0;
  for (const RankCheck& rank : report.value().ranks) {
    peak = std::max(peak, rank.figures.device_bytes);
  }
  row.plans = true;
  row.fits = report.value().fits();
  row.device_peak_bytes = peak;
  return row;
}

std::optional<std::uint64_t> FitReport::smallest_fitting_world() const {
  for (const FitTopology& row : topologies) {
    if (row.fits) return row.topology.world_size();  // ordered by world size
  }
  return std::nullopt;
}

Result<FitReport> fit_topologies(std::shared_ptr<const ModelDescription> model,
                                 ShardingPolicy policy, const AdmissionPolicy& admission,
                                 std::uint64_t max_world, unsigned threads,
                                 const FitProgress& progress) {
  if (max_world == 0 || max_world > kMaxFitWorld) {
    return failf(Status::InvalidArgument, "the largest world must be from 1 to {}, got {}",
                 kMaxFitWorld, max_world);
  }
  FitReport report{std::move(model), policy, admission, max_world, {}};
  for (std::uint64_t world = 1; world <= max_world; ++world) {
    for (std::uint64_t tp = 1; tp <= world; ++tp) {
      if (world % tp != 0) continue;
      for (std::uint64_t pp = 1; pp <= world / tp; ++pp) {
        if (world / tp % pp != 0) continue;
        EREDU_TRY(topology, ParallelTopology::create(tp, pp, world / tp / pp, 1));
        report.topologies.push_back(FitTopology{topology, false, false, {}, {}});
      }
    }
  }
  const std::uint64_t total = report.topologies.size();
  FitFigures figures(report.model, policy, admission);
  for (std::uint64_t i = 0; i < total; ++i) {
    FitTopology& row = report.topologies[i];
    // A topology some group does not plan on is planned in full for its
    // exact error.
    std::optional<FitTopology> fast = figures.row(row.topology);
    row = fast ? std::move(*fast)
               : fit_topology(report.model, row.topology, policy, admission, threads);
    if (progress && !progress(i + 1, total)) {
      return failf(Status::Cancelled,
                   "cancelled by the progress callback after {} of {} topologies", i + 1, total);
    }
  }
  return report;
}

}  // namespace eredu
