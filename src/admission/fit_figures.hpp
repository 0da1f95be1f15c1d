// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// `eredu fit` without a layout per rank: each distinct group is planned once
// per tensor rank (and expert range, for stacked experts) and every rank's
// admission figures are summed from those answers per layer
// (docs/residency.md, "Fit").
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <tuple>
#include <vector>

#include "admission/fit.hpp"
#include "admission/policy.hpp"
#include "model/model.hpp"
#include "plan/layout.hpp"
#include "topology/topology.hpp"

namespace eredu {

/// The rows of fit for one model, policy and admission policy, memoized
/// across topologies. Not thread-safe: one caller at a time.
class FitFigures {
 public:
  /// Counts the model's groups of each class (group_classes) per layer.
  /// O(groups + members).
  FitFigures(std::shared_ptr<const ModelDescription> model, ShardingPolicy policy,
             AdmissionPolicy admission);

  /// The row fit gives `topology` (data size 1), as planning and admitting
  /// every rank would give it: when every group plans on every rank, plans,
  /// fits and the largest device peak of its ranks; else the code and
  /// message of the lowest failing rank's error (its preflight's, else its
  /// first group's in document order; without the per-group entries).
  /// nullopt when a figure would overflow 64 bits: the caller plans that
  /// topology in full.
  std::optional<FitTopology> row(const ParallelTopology& topology);

 private:
  // A group of each class (ModelDescription::group_classes) stands for all.
  struct GroupClass {
    std::uint32_t representative = 0;
    bool stacks_experts = false;
    std::vector<bool> counted;  // members admission counts (routed ones apart under a cache)
  };
  // The groups of one layer of one class: `plain` without an expert, and
  // the experts of those that have one.
  struct LayerClass {
    std::uint32_t group_class = 0;
    std::uint64_t plain = 0;
    std::vector<std::uint64_t> experts;  // ascending
  };
  // One layer's bytes on one rank, and whether the rank holds a tensor of it.
  struct LayerFigure {
    bool held = false;
    std::uint64_t bytes = 0;
  };
  // The counted bytes of one class on one tensor rank and expert range;
  // nullopt when it does not plan there.
  using ClassBytes = std::optional<std::pair<bool, std::uint64_t>>;
  using ClassKey = std::tuple<std::uint32_t, std::uint64_t, std::uint64_t, std::uint64_t,
                              std::uint64_t>;  // class, T, t, experts start, end
  using RankKey = std::tuple<std::uint64_t, std::uint64_t, std::uint64_t, std::uint64_t>;

  const ClassBytes& class_bytes(std::uint32_t group_class, const ParallelRankTopology& rank,
                                const LocalRanges& ranges);
  const std::optional<std::vector<LayerFigure>>& layer_figures(const ParallelRankTopology& rank,
                                                               const LocalRanges& ranges);
  std::optional<Error> first_group_error(const ParallelRankTopology& rank,
                                         const LocalRanges& ranges);
  std::optional<std::uint64_t> static_bytes(const ParallelRankTopology& rank,
                                            const LocalRanges& ranges);

  std::shared_ptr<const ModelDescription> model_;
  ShardingPolicy policy_;
  AdmissionPolicy admission_;
  std::vector<GroupClass> classes_;
  std::vector<std::uint32_t> class_of_;                 // by group index
  std::vector<std::uint64_t> layers_;                   // the layers groups belong to, ascending
  std::vector<std::vector<LayerClass>> layer_classes_;  // by position in layers_
  std::vector<std::uint32_t> static_groups_;            // groups of no layer
  std::map<ClassKey, ClassBytes> class_memo_;
  std::map<RankKey, std::optional<std::vector<LayerFigure>>> layer_memo_;  // T, t, E, e
};

}  // namespace eredu
