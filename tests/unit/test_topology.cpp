// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Topologies and balanced ranges (docs/planning.md, "Topology" and "Balanced
// contiguous ranges"), with the examples given there.
#include <doctest/doctest.h>

#include "topology/topology.hpp"

using namespace eredu;

namespace {

ParallelTopology topology(std::uint64_t t, std::uint64_t p, std::uint64_t e, std::uint64_t d) {
  auto created = ParallelTopology::create(t, p, e, d);
  REQUIRE(created);
  return created.value();
}

std::vector<IndexRange> all_ranges(std::uint64_t total, std::uint64_t parts) {
  std::vector<IndexRange> out;
  for (std::uint64_t i = 0; i < parts; ++i) {
    out.push_back(balanced_contiguous_range(total, parts, i, false).value());
  }
  return out;
}

}  // namespace

TEST_CASE("balanced ranges give the first total % parts parts one extra item") {
  CHECK(all_ranges(8, 3) == std::vector<IndexRange>{{0, 3}, {3, 6}, {6, 8}});
  CHECK(all_ranges(7, 3) == std::vector<IndexRange>{{0, 3}, {3, 5}, {5, 7}});
  CHECK(all_ranges(5, 3) == std::vector<IndexRange>{{0, 2}, {2, 4}, {4, 5}});
  CHECK(all_ranges(11, 3) == std::vector<IndexRange>{{0, 4}, {4, 8}, {8, 11}});
  CHECK(all_ranges(5, 2) == std::vector<IndexRange>{{0, 3}, {3, 5}});
  CHECK(balanced_contiguous_range(2, 3, 2, true).value() == IndexRange{2, 2});
}

TEST_CASE("balanced ranges fail closed in the reference order") {
  auto zero = balanced_contiguous_range(4, 0, 0, false);
  CHECK(zero.error().code == Status::ZeroPartitions);
  CHECK(zero.error().message == "partition count must be nonzero");
  auto outside = balanced_contiguous_range(4, 2, 2, false);
  CHECK(outside.error().code == Status::PartitionOutOfRange);
  CHECK(outside.error().message == "partition index 2 is outside 2 parts");
  auto empty = balanced_contiguous_range(2, 3, 0, false);
  CHECK(empty.error().code == Status::EmptyPartition);
  CHECK(empty.error().message == "cannot divide 2 items among 3 non-empty partitions");
  auto overflow = balanced_contiguous_range(UINT64_MAX, 2, 1, false);
  CHECK(overflow.value() == IndexRange{UINT64_MAX / 2 + 1, UINT64_MAX});
}

TEST_CASE("topology construction checks zero axes before overflow") {
  auto zero = ParallelTopology::create(0, 1, 1, 1);
  CHECK(zero.error().code == Status::ZeroAxis);
  CHECK(zero.error().message == "parallel topology axis sizes must be positive");
  auto both = ParallelTopology::create(UINT64_MAX, 2, 1, 0);
  CHECK(both.error().code == Status::ZeroAxis);
  auto overflow = ParallelTopology::create(UINT64_MAX, 2, 1, 1);
  CHECK(overflow.error().code == Status::WorldSizeOverflow);
  CHECK(overflow.error().message == "parallel topology world size overflows usize");
}

TEST_CASE("rank topology is the authoritative coordinate and membership plan") {
  const ParallelTopology world = topology(2, 3, 2, 2);
  auto rank = ParallelRankTopology::create(world, 22).value();
  CHECK(rank.coordinates() == ParallelCoordinates{1, 2, 0, 1});
  CHECK(rank.global_rank_for(rank.coordinates()).value() == 22);

  auto tensor = rank.subgroup(ParallelAxis::Tensor).value();
  CHECK(tensor.global_ranks == std::vector<std::uint64_t>{20, 22});
  CHECK(tensor.color == 10);
  CHECK(tensor.rank == 1);
  CHECK(tensor.size == 2);
  auto pipeline = rank.subgroup(ParallelAxis::Pipeline).value();
  CHECK(pipeline.global_ranks == std::vector<std::uint64_t>{14, 18, 22});
  CHECK(pipeline.color == 6);
  auto expert = rank.subgroup(ParallelAxis::Expert).value();
  CHECK(expert.global_ranks == std::vector<std::uint64_t>{22, 23});
  CHECK(expert.color == 11);
  auto data = rank.subgroup(ParallelAxis::Data).value();
  CHECK(data.global_ranks == std::vector<std::uint64_t>{10, 22});
  CHECK(data.color == 10);

  CHECK(rank.pipeline_predecessor() == std::optional<std::uint64_t>{18});
  CHECK_FALSE(rank.pipeline_successor().has_value());
  CHECK_FALSE(rank.owns_embedding());
  CHECK(rank.owns_output_head());
  CHECK(rank.tensor_parallel_peers().value() == std::vector<std::uint64_t>{20, 22});
  CHECK(rank.expert_parallel_peers().value() == std::vector<std::uint64_t>{22, 23});

  auto report = rank.preflight(7, 5).value();
  CHECK(report.local_layer_range == IndexRange{5, 7});
  CHECK(report.local_expert_range == IndexRange{0, 3});
  CHECK(report.data_subgroup.global_ranks == std::vector<std::uint64_t>{10, 22});
  CHECK_FALSE(report.owns_embedding);
  CHECK(report.owns_output_head);
  CHECK(rank.owns_layer(7, 6).value());
  CHECK_FALSE(rank.owns_layer(7, 4).value());
  CHECK(rank.owns_expert(5, 2).value());
  CHECK_FALSE(rank.owns_expert(5, 3).value());
}

TEST_CASE("rank mapping is exhaustive for all axes") {
  const ParallelTopology world = topology(3, 2, 2, 2);
  REQUIRE(world.world_size() == 24);
  for (std::uint64_t r = 0; r < 24; ++r) {
    auto rank = ParallelRankTopology::create(world, r).value();
    CHECK(world.rank_for(rank.coordinates()).value() == r);
    for (ParallelAxis axis :
         {ParallelAxis::Tensor, ParallelAxis::Pipeline, ParallelAxis::Expert, ParallelAxis::Data}) {
      auto group = rank.subgroup(axis).value();
      CHECK(group.global_ranks[group.rank] == r);
      CHECK(group.global_ranks == world.axis_members(r, axis).value());
    }
  }
}

TEST_CASE("rank and coordinate errors name the axis and numbers") {
  const ParallelTopology world = topology(2, 2, 2, 2);
  auto out = world.coordinates(16);
  CHECK(out.error().code == Status::RankOutOfRange);
  CHECK(out.error().message == "rank 16 is outside world size 16");
  auto coordinate = world.rank_for({0, 2, 0, 0});
  CHECK(coordinate.error().code == Status::CoordinateOutOfRange);
  CHECK(coordinate.error().message == "Pipeline coordinate 2 is outside axis size 2");
  CHECK(ParallelRankTopology::create(world, 16).error().code == Status::RankOutOfRange);
  // A rank round-trips through its derived coordinates.
  auto nine = ParallelRankTopology::create(world, 9).value();
  CHECK(world.rank_for(nine.coordinates()).value() == 9);
  CHECK(nine.coordinates() == ParallelCoordinates{0, 0, 1, 1});
}

TEST_CASE("preflight fails closed on missing counts and empty stages") {
  auto pipeline = ParallelRankTopology::create(topology(1, 4, 1, 1), 0).value();
  auto missing_layers = pipeline.preflight(std::nullopt, std::nullopt);
  CHECK(missing_layers.error().code == Status::MissingLayerCount);
  CHECK(missing_layers.error().message ==
        "pipeline topology preflight requires the decoder-layer count");
  CHECK(pipeline.preflight(3, std::nullopt).error().code == Status::EmptyPartition);

  auto expert = ParallelRankTopology::create(topology(1, 1, 4, 1), 0).value();
  auto missing_experts = expert.preflight(std::nullopt, std::nullopt);
  CHECK(missing_experts.error().code == Status::MissingExpertCount);
  CHECK(missing_experts.error().message ==
        "expert topology preflight requires the routed-expert count");

  auto single = ParallelRankTopology::create(topology(1, 1, 1, 1), 0).value();
  auto report = single.preflight(std::nullopt, std::nullopt).value();
  CHECK_FALSE(report.local_layer_range.has_value());
  CHECK(report.owns_embedding);
  CHECK(report.owns_output_head);
  CHECK(single.is_replicated());
  CHECK_FALSE(single.is_axis_active(ParallelAxis::Tensor));
}
