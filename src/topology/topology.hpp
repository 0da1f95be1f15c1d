// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// ParallelTopology and ParallelRankTopology (docs/planning.md, "Topology").
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "topology/balanced_range.hpp"

namespace eredu {

/// The four parallel axes, in declaration order.
enum class ParallelAxis : std::uint32_t { Tensor = 0, Pipeline = 1, Expert = 2, Data = 3 };

/// "Tensor", "Pipeline", "Expert", "Data" (Rust Debug form, used in messages).
std::string_view axis_debug_name(ParallelAxis axis);

/// One rank's coordinate on every axis.
struct ParallelCoordinates {
  std::uint64_t tensor = 0;
  std::uint64_t pipeline = 0;
  std::uint64_t expert = 0;
  std::uint64_t data = 0;

  std::uint64_t get(ParallelAxis axis) const;
  void set(ParallelAxis axis, std::uint64_t value);
  friend bool operator==(const ParallelCoordinates&, const ParallelCoordinates&) = default;
};

/// Axis sizes T × P × E × D. Ranks enumerate expert fastest, then tensor,
/// then pipeline, data outermost: rank = ((d·P + p)·T + t)·E + e.
class ParallelTopology {
 public:
  /// Errors: ZeroAxis (any size 0, checked first), WorldSizeOverflow.
  static Result<ParallelTopology> create(std::uint64_t tensor, std::uint64_t pipeline,
                                         std::uint64_t expert, std::uint64_t data);

  std::uint64_t tensor() const { return sizes_[0]; }
  std::uint64_t pipeline() const { return sizes_[1]; }
  std::uint64_t expert() const { return sizes_[2]; }
  std::uint64_t data() const { return sizes_[3]; }
  std::uint64_t size(ParallelAxis axis) const { return sizes_[static_cast<std::uint32_t>(axis)]; }
  std::uint64_t world_size() const { return world_size_; }

  /// This topology with pipeline stage s owning counts[s] consecutive
  /// decoder layers instead of the balanced split (docs/planning.md,
  /// "Pipeline stages of chosen sizes"). Errors: InvalidArgument when there
  /// is not one count per pipeline stage, a count is 0, or their sum
  /// overflows. Whether they sum to the model's layers is checked when a
  /// layer range is taken (stage_layers).
  Result<ParallelTopology> with_pipeline_layers(std::vector<std::uint64_t> counts) const;
  /// The chosen layer counts, one per stage; empty for the balanced split.
  const std::vector<std::uint64_t>& pipeline_layers() const { return pipeline_layers_; }
  /// The decoder layers [start, end) of pipeline stage `stage` of a model of
  /// `layers`: the chosen counts, or balanced_contiguous_range. Errors:
  /// InvalidArgument (chosen counts that do not sum to `layers`),
  /// EmptyPartition (fewer layers than stages, naming the sizes that work),
  /// balanced_contiguous_range's.
  Result<IndexRange> stage_layers(std::uint64_t layers, std::uint64_t stage) const;

  /// Errors: RankOutOfRange.
  Result<ParallelCoordinates> coordinates(std::uint64_t rank) const;
  /// Errors: CoordinateOutOfRange (tensor, pipeline, expert, data order),
  /// WorldSizeOverflow.
  Result<std::uint64_t> rank_for(const ParallelCoordinates& coordinates) const;
  /// The ranks that differ from `rank` only on `axis`, in coordinate order.
  Result<std::vector<std::uint64_t>> axis_members(std::uint64_t rank, ParallelAxis axis) const;

  friend bool operator==(const ParallelTopology&, const ParallelTopology&) = default;

 private:
  std::array<std::uint64_t, 4> sizes_{1, 1, 1, 1};
  std::uint64_t world_size_ = 1;
  std::vector<std::uint64_t> pipeline_layers_;
};

/// One axis subgroup of a rank: its color (a mixed-radix number over the other
/// axes in the order Data, Pipeline, Tensor, Expert), its rank inside the
/// subgroup, and the member global ranks.
struct SubgroupMembership {
  ParallelAxis axis = ParallelAxis::Tensor;
  std::uint64_t color = 0;
  std::uint64_t rank = 0;
  std::uint64_t size = 0;
  std::vector<std::uint64_t> global_ranks;
};

struct TopologyPreflightReport;

/// The layers and routed experts one rank owns (the first half of preflight).
struct LocalRanges {
  std::optional<IndexRange> layers;
  std::optional<IndexRange> experts;
};

/// One global rank of a validated topology and everything derived from it.
class ParallelRankTopology {
 public:
  /// Errors: ZeroAxis, WorldSizeOverflow, RankOutOfRange.
  static Result<ParallelRankTopology> create(const ParallelTopology& topology,
                                             std::uint64_t global_rank);

  const ParallelTopology& topology() const { return topology_; }
  std::uint64_t world_size() const { return topology_.world_size(); }
  std::uint64_t global_rank() const { return global_rank_; }
  const ParallelCoordinates& coordinates() const { return coordinates_; }
  std::uint64_t tensor_parallel_size() const { return topology_.tensor(); }
  std::uint64_t tensor_parallel_rank() const { return coordinates_.tensor; }
  std::uint64_t pipeline_parallel_size() const { return topology_.pipeline(); }
  std::uint64_t pipeline_parallel_rank() const { return coordinates_.pipeline; }
  std::uint64_t expert_parallel_size() const { return topology_.expert(); }
  std::uint64_t expert_parallel_rank() const { return coordinates_.expert; }
  std::uint64_t data_parallel_size() const { return topology_.data(); }
  std::uint64_t data_parallel_rank() const { return coordinates_.data; }

  bool is_replicated() const { return world_size() == 1; }
  bool is_axis_active(ParallelAxis axis) const { return topology_.size(axis) > 1; }
  Result<std::uint64_t> global_rank_for(const ParallelCoordinates& coordinates) const {
    return topology_.rank_for(coordinates);
  }

  /// Errors: WorldSizeOverflow (color), SubgroupIdentity (unreachable).
  Result<SubgroupMembership> subgroup(ParallelAxis axis) const;
  Result<std::vector<std::uint64_t>> tensor_parallel_peers() const;
  Result<std::vector<std::uint64_t>> expert_parallel_peers() const;
  std::optional<std::uint64_t> pipeline_predecessor() const;
  std::optional<std::uint64_t> pipeline_successor() const;
  bool owns_embedding() const { return coordinates_.pipeline == 0; }
  bool owns_output_head() const { return coordinates_.pipeline + 1 == topology_.pipeline(); }

  /// The layers of this pipeline stage (ParallelTopology::stage_layers,
  /// whose errors it returns).
  Result<IndexRange> layer_range(std::uint64_t layers) const;
  /// Balanced routed experts of this expert rank. Errors: EmptyPartition
  /// (fewer experts than expert ranks, naming the sizes that work), else as
  /// balanced_contiguous_range.
  Result<IndexRange> expert_range(std::uint64_t experts) const;
  Result<bool> owns_layer(std::uint64_t layers, std::uint64_t layer) const;
  Result<bool> owns_expert(std::uint64_t experts, std::uint64_t expert) const;

  /// The owned layer and expert ranges, without the subgroups: costs O(1)
  /// whatever the axis sizes. Errors in order: layer range /
  /// MissingLayerCount (no count with pipeline > 1), expert range /
  /// MissingExpertCount (no count with expert > 1).
  Result<LocalRanges> local_ranges(std::optional<std::uint64_t> decoder_layers,
                                   std::optional<std::uint64_t> routed_experts) const;

  /// local_ranges, then every subgroup (each allocates its axis's size).
  /// Errors: local_ranges', then subgroup errors.
  Result<TopologyPreflightReport> preflight(std::optional<std::uint64_t> decoder_layers,
                                            std::optional<std::uint64_t> routed_experts) const;

 private:
  ParallelTopology topology_;
  std::uint64_t global_rank_ = 0;
  ParallelCoordinates coordinates_;
};

/// Everything a rank needs to know before loading.
struct TopologyPreflightReport {
  ParallelTopology topology;
  SubgroupMembership tensor_subgroup;
  SubgroupMembership pipeline_subgroup;
  SubgroupMembership expert_subgroup;
  SubgroupMembership data_subgroup;
  std::optional<IndexRange> local_layer_range;
  std::optional<IndexRange> local_expert_range;
  bool owns_embedding = false;
  bool owns_output_head = false;
};

}  // namespace eredu
