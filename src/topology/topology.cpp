// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "topology/topology.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <string>
#include <string_view>

#include "core/checked.hpp"

namespace eredu {
namespace {

constexpr std::array<ParallelAxis, 4> kAxes{ParallelAxis::Tensor, ParallelAxis::Pipeline,
                                            ParallelAxis::Expert, ParallelAxis::Data};
// Subgroup colors are mixed-radix numbers over the other axes in this order.
constexpr std::array<ParallelAxis, 4> kColorOrder{ParallelAxis::Data, ParallelAxis::Pipeline,
                                                  ParallelAxis::Tensor, ParallelAxis::Expert};

// EmptyPartition for fewer layers or experts than their axis has ranks.
Error too_few(std::uint64_t items, std::string_view noun, std::uint64_t parts,
              std::string_view part_noun, std::string_view axis) {
  std::string text = fmt::format("{} {} cannot be split over {} {}", items, noun, parts, part_noun);
  if (items > 0) text += fmt::format("; {} sizes from 1 to {} work", axis, items);
  return Error{Status::EmptyPartition, std::move(text)};
}

auto world_size_overflow() {
  return fail(Status::WorldSizeOverflow, "parallel topology world size overflows usize");
}

}  // namespace

std::string_view axis_debug_name(ParallelAxis axis) {
  switch (axis) {
    case ParallelAxis::Tensor:
      return "Tensor";
    case ParallelAxis::Pipeline:
      return "Pipeline";
    case ParallelAxis::Expert:
      return "Expert";
    case ParallelAxis::Data:
      return "Data";
  }
  return "Unknown";
}

std::uint64_t ParallelCoordinates::get(ParallelAxis axis) const {
  switch (axis) {
    case ParallelAxis::Tensor:
      return tensor;
    case ParallelAxis::Pipeline:
      return pipeline;
    case ParallelAxis::Expert:
      return expert;
    case ParallelAxis::Data:
      return data;
  }
  return 0;
}

void ParallelCoordinates::set(ParallelAxis axis, std::uint64_t value) {
  switch (axis) {
    case ParallelAxis::Tensor:
      tensor = value;
      break;
    case ParallelAxis::Pipeline:
      pipeline = value;
      break;
    case ParallelAxis::Expert:
      expert = value;
      break;
    case ParallelAxis::Data:
      data = value;
      break;
  }
}

Result<ParallelTopology> ParallelTopology::create(std::uint64_t tensor, std::uint64_t pipeline,
                                                  std::uint64_t expert, std::uint64_t data) {
  ParallelTopology topology;
  topology.sizes_ = {tensor, pipeline, expert, data};
  for (std::uint64_t size : topology.sizes_) {
    if (size == 0) {
      return fail(Status::ZeroAxis, "parallel topology axis sizes must be positive");
    }
  }
  std::uint64_t world = 1;
  for (std::uint64_t size : topology.sizes_) {
    auto next = checked_mul(world, size);
    if (!next) return world_size_overflow();
    world = *next;
  }
  topology.world_size_ = world;
  return topology;
}

Result<ParallelTopology> ParallelTopology::with_pipeline_layers(
    std::vector<std::uint64_t> counts) const {
  if (counts.size() != pipeline()) {
    return failf(Status::InvalidArgument,
                 "pipeline layers: {} count{} for {} pipeline stage{}; give one per stage",
                 counts.size(), counts.size() == 1 ? "" : "s", pipeline(),
                 pipeline() == 1 ? "" : "s");
  }
  std::uint64_t total = 0;
  for (std::size_t stage = 0; stage < counts.size(); ++stage) {
    if (counts[stage] == 0) {
      return failf(Status::InvalidArgument,
                   "pipeline layers: stage {} has 0 layers; every stage needs at least one", stage);
    }
    auto sum = checked_add(total, counts[stage]);
    if (!sum) return fail(Status::InvalidArgument, "pipeline layers: the sum overflows 64 bits");
    total = *sum;
  }
  ParallelTopology topology = *this;
  topology.pipeline_layers_ = std::move(counts);
  return topology;
}

Result<IndexRange> ParallelTopology::stage_layers(std::uint64_t layers, std::uint64_t stage) const {
  if (pipeline_layers_.empty()) {
    if (layers < pipeline()) {
      return too_few(layers, "decoder layers", pipeline(), "pipeline stages", "pipeline");
    }
    return balanced_contiguous_range(layers, pipeline(), stage, false);
  }
  std::uint64_t total = 0;
  IndexRange range;
  for (std::size_t s = 0; s < pipeline_layers_.size(); ++s) {
    if (s == stage) range = {total, total + pipeline_layers_[s]};
    total += pipeline_layers_[s];  // checked by with_pipeline_layers
  }
  if (total != layers) {
    return failf(Status::InvalidArgument,
                 "pipeline layers {} sum to {}, not the model's {} decoder layers",
                 fmt::join(pipeline_layers_, ", "), total, layers);
  }
  if (stage >= pipeline_layers_.size()) {
    return failf(Status::PartitionOutOfRange, "partition index {} is outside {} parts", stage,
                 pipeline_layers_.size());
  }
  return range;
}

Result<ParallelCoordinates> ParallelTopology::coordinates(std::uint64_t rank) const {
  if (rank >= world_size_) {
    return failf(Status::RankOutOfRange, "rank {} is outside world size {}", rank, world_size_);
  }
  ParallelCoordinates coordinates;
  coordinates.expert = rank % expert();
  std::uint64_t rest = rank / expert();
  coordinates.tensor = rest % tensor();
  rest /= tensor();
  coordinates.pipeline = rest % pipeline();
  coordinates.data = rest / pipeline();
  return coordinates;
}

Result<std::uint64_t> ParallelTopology::rank_for(const ParallelCoordinates& coordinates) const {
  for (ParallelAxis axis : kAxes) {
    if (coordinates.get(axis) >= size(axis)) {
      return failf(Status::CoordinateOutOfRange, "{} coordinate {} is outside axis size {}",
                   axis_debug_name(axis), coordinates.get(axis), size(axis));
    }
  }
  // ((d·P + p)·T + t)·E + e
  auto step = [](std::optional<std::uint64_t> acc, std::uint64_t size, std::uint64_t coord) {
    auto scaled = acc ? checked_mul(*acc, size) : std::nullopt;
    return scaled ? checked_add(*scaled, coord) : std::nullopt;
  };
  auto rank = step(coordinates.data, pipeline(), coordinates.pipeline);
  rank = step(rank, tensor(), coordinates.tensor);
  rank = step(rank, expert(), coordinates.expert);
  if (!rank) return world_size_overflow();
  return *rank;
}

Result<std::vector<std::uint64_t>> ParallelTopology::axis_members(std::uint64_t rank,
                                                                  ParallelAxis axis) const {
  EREDU_TRY(origin, coordinates(rank));
  std::vector<std::uint64_t> members;
  members.reserve(size(axis));
  for (std::uint64_t k = 0; k < size(axis); ++k) {
    ParallelCoordinates member = origin;
    member.set(axis, k);
    EREDU_TRY(member_rank, rank_for(member));
    members.push_back(member_rank);
  }
  return members;
}

Result<ParallelRankTopology> ParallelRankTopology::create(const ParallelTopology& topology,
                                                          std::uint64_t global_rank) {
  EREDU_TRY(validated, ParallelTopology::create(topology.tensor(), topology.pipeline(),
                                                topology.expert(), topology.data()));
  if (!topology.pipeline_layers().empty()) {
    EREDU_TRY(chosen, validated.with_pipeline_layers(topology.pipeline_layers()));
    validated = std::move(chosen);
  }
  EREDU_TRY(coordinates, validated.coordinates(global_rank));
  ParallelRankTopology rank;
  rank.topology_ = validated;
  rank.global_rank_ = global_rank;
  rank.coordinates_ = coordinates;
  return rank;
}

Result<SubgroupMembership> ParallelRankTopology::subgroup(ParallelAxis axis) const {
  EREDU_TRY(members, topology_.axis_members(global_rank_, axis));
  std::uint64_t color = 0;
  for (ParallelAxis other : kColorOrder) {
    if (other == axis) continue;
    auto scaled = checked_mul(color, topology_.size(other));
    auto next = scaled ? checked_add(*scaled, coordinates_.get(other)) : std::nullopt;
    if (!next) return world_size_overflow();
    color = *next;
  }
  const std::uint64_t rank = coordinates_.get(axis);
  if (rank >= members.size() || members[rank] != global_rank_) {
    return failf(Status::SubgroupIdentity,
                 "{} subgroup geometry does not map back to the represented rank",
                 axis_debug_name(axis));
  }
  SubgroupMembership membership;
  membership.axis = axis;
  membership.color = color;
  membership.rank = rank;
  membership.size = members.size();
  membership.global_ranks = std::move(members);
  return membership;
}

Result<std::vector<std::uint64_t>> ParallelRankTopology::tensor_parallel_peers() const {
  return topology_.axis_members(global_rank_, ParallelAxis::Tensor);
}

Result<std::vector<std::uint64_t>> ParallelRankTopology::expert_parallel_peers() const {
  return topology_.axis_members(global_rank_, ParallelAxis::Expert);
}

std::optional<std::uint64_t> ParallelRankTopology::pipeline_predecessor() const {
  if (coordinates_.pipeline == 0) return std::nullopt;
  ParallelCoordinates previous = coordinates_;
  previous.pipeline -= 1;
  auto rank = topology_.rank_for(previous);
  return rank ? std::optional<std::uint64_t>(rank.value()) : std::nullopt;
}

std::optional<std::uint64_t> ParallelRankTopology::pipeline_successor() const {
  if (coordinates_.pipeline + 1 >= topology_.pipeline()) return std::nullopt;
  ParallelCoordinates next = coordinates_;
  next.pipeline += 1;
  auto rank = topology_.rank_for(next);
  return rank ? std::optional<std::uint64_t>(rank.value()) : std::nullopt;
}

Result<IndexRange> ParallelRankTopology::layer_range(std::uint64_t layers) const {
  return topology_.stage_layers(layers, coordinates_.pipeline);
}

Result<IndexRange> ParallelRankTopology::expert_range(std::uint64_t experts) const {
  if (experts < topology_.expert()) {
    return too_few(experts, "routed experts", topology_.expert(), "expert ranks", "expert");
  }
  return balanced_contiguous_range(experts, topology_.expert(), coordinates_.expert, false);
}

Result<bool> ParallelRankTopology::owns_layer(std::uint64_t layers, std::uint64_t layer) const {
  EREDU_TRY(range, layer_range(layers));
  return range.contains(layer);
}

Result<bool> ParallelRankTopology::owns_expert(std::uint64_t experts, std::uint64_t expert) const {
  EREDU_TRY(range, expert_range(experts));
  return range.contains(expert);
}

Result<LocalRanges> ParallelRankTopology::local_ranges(
    std::optional<std::uint64_t> decoder_layers,
    std::optional<std::uint64_t> routed_experts) const {
  LocalRanges ranges;
  if (decoder_layers) {
    EREDU_TRY(range, layer_range(*decoder_layers));
    ranges.layers = range;
  } else if (topology_.pipeline() > 1) {
    return fail(Status::MissingLayerCount,
                "pipeline topology preflight requires the decoder-layer count");
  }
  if (routed_experts) {
    EREDU_TRY(range, expert_range(*routed_experts));
    ranges.experts = range;
  } else if (topology_.expert() > 1) {
    return fail(Status::MissingExpertCount,
                "expert topology preflight requires the routed-expert count");
  }
  return ranges;
}

Result<TopologyPreflightReport> ParallelRankTopology::preflight(
    std::optional<std::uint64_t> decoder_layers,
    std::optional<std::uint64_t> routed_experts) const {
  EREDU_TRY(ranges, local_ranges(decoder_layers, routed_experts));
  TopologyPreflightReport report;
  report.topology = topology_;
  report.local_layer_range = ranges.layers;
  report.local_expert_range = ranges.experts;
  EREDU_TRY(tensor_group, subgroup(ParallelAxis::Tensor));
  EREDU_TRY(pipeline_group, subgroup(ParallelAxis::Pipeline));
  EREDU_TRY(expert_group, subgroup(ParallelAxis::Expert));
  EREDU_TRY(data_group, subgroup(ParallelAxis::Data));
  report.tensor_subgroup = std::move(tensor_group);
  report.pipeline_subgroup = std::move(pipeline_group);
  report.expert_subgroup = std::move(expert_group);
  report.data_subgroup = std::move(data_group);
  report.owns_embedding = owns_embedding();
  report.owns_output_head = owns_output_head();
  return report;
}

}  // namespace eredu
