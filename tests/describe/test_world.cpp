// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// plan_world on the real models: summaries, totals and coverage at several
// tensor / pipeline sizes (docs/interchange.md, eredu.world.v1).
#include <doctest/doctest.h>

#include <numeric>

#include "describe/describe.hpp"
#include "described_models.hpp"
#include "model_folders.hpp"
#include "world/world.hpp"
#include "world/world_json.hpp"

namespace eredu {
namespace {

using test::describe;

WorldPlan plan(const std::shared_ptr<const ModelDescription>& model, std::uint64_t tp,
               std::uint64_t pp, ShardingPolicy policy = ShardingPolicy::Require,
               std::uint64_t dp = 1) {
  auto topology = ParallelTopology::create(tp, pp, 1, dp);
  REQUIRE(topology.has_value());
  auto world = plan_world(model, topology.value(), policy);
  REQUIRE_MESSAGE(world.has_value(), world.error().message);
  return std::move(world).value();
}

TEST_CASE("reflection-llama-3.1-70b at TP 8: rank 0 holds 35281534976 bytes") {
  auto model = describe("reflection-llama-3.1-70b");
  WorldPlan world = plan(model, 8, 1);
  CHECK(world.coverage_ok());
  REQUIRE(world.ranks.size() == 8);
  CHECK(world.ranks[0].totals.local_bytes == 35281534976u);
  CHECK(world.ranks[0].totals.global_bytes == 282215219200u);
  CHECK(world.ranks[0].totals.materialized_tensors == 723);
  CHECK(world.ranks[0].totals.omitted_tensors == 0);
  for (std::uint64_t rank = 0; rank < 8; ++rank) {
    CHECK(world.ranks[rank].rank == rank);
    CHECK(world.ranks[rank].coordinates.tensor == rank);
    CHECK(world.ranks[rank].fell_back_groups.empty());
  }
  // Only the vocabulary rows split unevenly (128262 = 6 × 16033 + 2 × 16032).
  CHECK(world.ranks[7].totals.local_bytes == 35281534976u - 2 * 8192 * 4);
}

TEST_CASE("reflection-llama-3.1-70b at TP 4 × PP 2: each stage owns 40 layers") {
  auto model = describe("reflection-llama-3.1-70b");
  WorldPlan world = plan(model, 4, 2);
  CHECK(world.coverage_ok());
  REQUIRE(world.ranks.size() == 8);
  // Stage 0: embed + 40 layers × 9; stage 1: 40 layers × 9 + norm + lm_head.
  CHECK(world.ranks[0].totals.materialized_tensors == 361);
  CHECK(world.ranks[4].totals.materialized_tensors == 362);
  CHECK(world.ranks[4].coordinates.pipeline == 1);
  CHECK(world.ranks[0].totals.omitted_tensors + world.ranks[0].totals.materialized_tensors == 723);
}

TEST_CASE("coverage holds for every real model at several TP × PP sizes") {
  for (const char* name :
       {"reflection-llama-3.1-70b", "mistral-7b-v0.1", "qwen2.5-14b-sakura", "qwen3-1.7b"}) {
    auto model = describe(name);
    for (std::uint64_t tp : {1, 2, 3, 4, 8}) {
      for (std::uint64_t pp : {1, 2, 3, 7}) {
        CAPTURE(name);
        CAPTURE(tp);
        CAPTURE(pp);
        WorldPlan world = plan(model, tp, pp);
        CHECK(world.coverage_ok());
        CHECK(world.ranks.size() == tp * pp);
        // Every tensor lives on exactly one stage (tied embeddings on two).
        std::uint64_t materialized = 0;
        for (std::uint64_t stage = 0; stage < pp; ++stage) {
          materialized += world.ranks[stage * tp].totals.materialized_tensors;
        }
        const bool tied = model->groups().front().scope() == GroupScope::tied_embedding();
        CHECK(materialized == model->tensor_count() + (tied && pp > 1 ? 1 : 0));
      }
    }
  }
}

TEST_CASE("data-parallel replicas plan the same and coverage holds") {
  auto model = describe("qwen3-1.7b");
  WorldPlan world = plan(model, 2, 2, ShardingPolicy::Require, 2);
  CHECK(world.coverage_ok());
  REQUIRE(world.ranks.size() == 8);
  CHECK(world.ranks[5].totals == world.ranks[1].totals);
}

TEST_CASE("more TP ranks than query heads: an error under require, a fallback otherwise") {
  auto model = describe("qwen3-1.7b");  // 16 query heads, 8 kv heads
  auto topology = ParallelTopology::create(32, 1, 1, 1).value();
  auto failed = plan_world(model, topology, ShardingPolicy::Require);
  REQUIRE_FALSE(failed.has_value());
  CHECK(failed.error().code == Status::InvalidTensor);
  CHECK(failed.error().message.find("\"model.layers.0.self_attn\"") != std::string::npos);

  WorldPlan world = plan(model, 32, 1, ShardingPolicy::ReplicateUnsupported);
  CHECK(world.coverage_ok());
  REQUIRE(world.ranks[0].fell_back_groups.size() == 28);
  CHECK(model->groups()[world.ranks[0].fell_back_groups[0]].logical_name() ==
        "model.layers.0.self_attn");
  CHECK(world.ranks[31].fell_back_groups == world.ranks[0].fell_back_groups);
}

TEST_CASE("one thread and two threads plan the same world") {
  auto model = describe("mistral-7b-v0.1");
  auto topology = ParallelTopology::create(2, 4, 1, 1).value();
  auto one = plan_world(model, topology, ShardingPolicy::Require, WorldOptions::on_threads(1));
  auto two = plan_world(model, topology, ShardingPolicy::Require, WorldOptions::on_threads(2));
  REQUIRE(one.has_value());
  REQUIRE(two.has_value());
  CHECK(world_to_json(one.value()) == world_to_json(two.value()));
}

TEST_CASE("a missing layer count fails planning with rank 0's error") {
  auto builder = ModelBuilder::create(ModelInfo{});
  REQUIRE(builder.has_value());
  auto group = ParameterGroupSpec::create(
      "norm", ParameterRole::Replicated,
      {ParameterMemberSpec("norm.weight", {8}, MemberSharding::replicated(), Dtype::F32)});
  REQUIRE(builder.value().add_group(std::move(group).value()).has_value());
  auto model = std::move(builder).value().finish();
  REQUIRE(model.has_value());
  auto world = plan_world(model.value(), ParallelTopology::create(2, 2, 1, 1).value(),
                          ShardingPolicy::Require);
  REQUIRE_FALSE(world.has_value());
  CHECK(world.error().code == Status::MissingLayerCount);
}

TEST_CASE("kMaxWorldRanks ranks of a one-tensor model plan in linear time; one more is refused") {
  auto builder = ModelBuilder::create(ModelInfo{});
  REQUIRE(builder.has_value());
  auto group = ParameterGroupSpec::create(
      "norm", ParameterRole::Replicated,
      {ParameterMemberSpec("norm.weight", {8}, MemberSharding::replicated(), Dtype::F32)});
  REQUIRE(builder.value().add_group(std::move(group).value()).has_value());
  auto model = std::move(builder).value().finish();
  REQUIRE(model.has_value());

  // Planning each rank used to cost O(data-parallel size), so this world took
  // hours; it now takes seconds (the suite's timeout catches a regression).
  const std::uint64_t dp = kMaxWorldRanks / 4;
  auto topology = ParallelTopology::create(4, 1, 1, dp).value();
  auto world =
      plan_world(model.value(), topology, ShardingPolicy::Require, WorldOptions::on_threads(2));
  REQUIRE_MESSAGE(world.has_value(), world.error().message);
  CHECK(world.value().coverage_ok());
  REQUIRE(world.value().ranks.size() == kMaxWorldRanks);
  const RankSummary& last = world.value().ranks.back();
  CHECK(last.rank == kMaxWorldRanks - 1);
  CHECK(last.coordinates.tensor == 3);
  CHECK(last.coordinates.data == dp - 1);
  CHECK(last.totals == world.value().ranks.front().totals);

  auto too_big = ParallelTopology::create(1, 1, 1, kMaxWorldRanks + 1).value();
  auto refused = plan_world(model.value(), too_big, ShardingPolicy::Require);
  REQUIRE_FALSE(refused.has_value());
  CHECK(refused.error().code == Status::InvalidArgument);
  CHECK(refused.error().message ==
        "world size 1048577 is more than the 1048576 ranks eredu "
        "plans at once");
}

}  // namespace
}  // namespace eredu
