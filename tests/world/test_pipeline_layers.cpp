// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Pipeline stages of chosen sizes (docs/planning.md): the topology's
// checks, the planner's ownership and the coverage proof.
#include <doctest/doctest.h>

#include "plan/planner.hpp"
#include "unit/members.hpp"
#include "world/world.hpp"
#include "world/world_json.hpp"

using namespace eredu;

namespace {

using eredu::test::member;

// One replicated group per layer of a five-layer model, plus an embedding.
std::shared_ptr<const ModelDescription> five_layers() {
  auto builder = ModelBuilder::create(ModelInfo{"five", 5, std::nullopt}).value();
  REQUIRE(builder.add_group(
      ParameterGroupSpec::create("embed", ParameterRole::Vocabulary,
                                 {member("embed", {8, 4}, MemberSharding::balanced(0))},
                                 GroupScope::embedding())
          .value()));
  for (std::uint64_t layer = 0; layer < 5; ++layer) {
    REQUIRE(builder.add_group(
        ParameterGroupSpec::create(
            fmt::format("layer.{}", layer), ParameterRole::Replicated,
            {member(fmt::format("layer.{}", layer), {4}, MemberSharding::replicated())},
            GroupScope::indexed(layer, std::nullopt))
            .value()));
  }
  return std::move(builder).finish().value();
}

ParallelTopology stages(std::vector<std::uint64_t> counts, std::uint64_t tp = 1) {
  const auto pipeline = counts.size();
  return ParallelTopology::create(tp, pipeline, 1, 1)
      .value()
      .with_pipeline_layers(std::move(counts))
      .value();
}

std::vector<std::string> held(const LocalModelLayout& layout) {
  std::vector<std::string> targets;
  for (const LocalTensorLayout& tensor : layout.tensors) {
    if (tensor.placement.kind != PlacementKind::Omit) targets.push_back(tensor.target());
  }
  return targets;
}

}  // namespace

TEST_CASE("stage s owns the chosen number of consecutive layers") {
  const ParallelTopology topology = stages({1, 3, 1});
  CHECK(topology.pipeline_layers() == std::vector<std::uint64_t>{1, 3, 1});
  CHECK(topology.stage_layers(5, 0).value() == IndexRange{0, 1});
  CHECK(topology.stage_layers(5, 1).value() == IndexRange{1, 4});
  CHECK(topology.stage_layers(5, 2).value() == IndexRange{4, 5});
  const auto model = five_layers();
  CHECK(held(plan_rank(model, topology, 0, ShardingPolicy::Require).value()) ==
        std::vector<std::string>{"embed", "layer.0"});
  CHECK(held(plan_rank(model, topology, 1, ShardingPolicy::Require).value()) ==
        std::vector<std::string>{"layer.1", "layer.2", "layer.3"});
  CHECK(held(plan_rank(model, topology, 2, ShardingPolicy::Require).value()) ==
        std::vector<std::string>{"layer.4"});
  // The balanced split of the same sizes differs: 2, 2, 1.
  const auto balanced = ParallelTopology::create(1, 3, 1, 1).value();
  CHECK(held(plan_rank(model, balanced, 1, ShardingPolicy::Require).value()) ==
        std::vector<std::string>{"layer.2", "layer.3"});
}

TEST_CASE("the coverage proof places scopes by the chosen stages") {
  auto world = plan_world(five_layers(), stages({1, 3, 1}, 2), ShardingPolicy::Require);
  REQUIRE(world);
  CHECK(world.value().coverage_ok());
  CHECK(world.value().ranks[2].totals.materialized_tensors == 3);
  CHECK(world_to_json(world.value()).find(R"("data":1,"pipeline_layers":[1,3,1]})") !=
        std::string::npos);
}

TEST_CASE("chosen stages: one count per stage, none zero, summing to the layers") {
  const auto three = ParallelTopology::create(1, 3, 1, 1).value();
  auto short_list = three.with_pipeline_layers({2, 3});
  REQUIRE_FALSE(short_list);
  CHECK(short_list.error().code == Status::InvalidArgument);
  CHECK(short_list.error().message ==
        "pipeline layers: 2 counts for 3 pipeline stages; give one per stage");
  auto zero = three.with_pipeline_layers({2, 0, 3});
  REQUIRE_FALSE(zero);
  CHECK(zero.error().message ==
        "pipeline layers: stage 1 has 0 layers; every stage needs at least one");
  auto overflow =
      ParallelTopology::create(1, 2, 1, 1).value().with_pipeline_layers({UINT64_MAX, 1});
  REQUIRE_FALSE(overflow);
  CHECK(overflow.error().message == "pipeline layers: the sum overflows 64 bits");
  auto planned = plan_rank(five_layers(), stages({2, 2, 2}), 0, ShardingPolicy::Require);
  REQUIRE_FALSE(planned);
  CHECK(planned.error().code == Status::InvalidArgument);
  CHECK(planned.error().message ==
        "pipeline layers 2, 2, 2 sum to 6, not the model's 5 decoder layers");
}
