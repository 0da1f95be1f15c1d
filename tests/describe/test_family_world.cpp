// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The other families' real models planned on whole worlds: coverage, exact
// rank bytes at TP 1, 2, 4, 8, the clear error where a model cannot be split,
// expert parallelism over gpt-oss's stacked experts, and the JSON round trip.
#include <doctest/doctest.h>

#include "describe/describe.hpp"
#include "described_models.hpp"
#include "interchange/groups_json.hpp"
#include "interchange/groups_write.hpp"
#include "interchange/layout_json.hpp"
#include "model_folders.hpp"
#include "plan/planner.hpp"
#include "world/world.hpp"

namespace eredu {
namespace {

using test::describe;

Result<WorldPlan> plan(const std::shared_ptr<const ModelDescription>& model, std::uint64_t tp,
                       std::uint64_t pp = 1, std::uint64_t ep = 1) {
  auto topology = ParallelTopology::create(tp, pp, ep, 1);
  REQUIRE(topology.has_value());
  return plan_world(model, topology.value(), ShardingPolicy::Require);
}

struct RankBytes {
  std::uint64_t tp;
  std::uint64_t first;  // rank 0's local bytes
  std::uint64_t last;   // the last rank's local bytes
};

struct Expected {
  const char* name;
  std::uint64_t global_bytes;
  RankBytes ranks[4];  // TP 1, 2, 4, 8
};

const Expected kModels[] = {
    {"phi-3-mini-3b-slerp",
     7642159104u,
     {{1, 7642159104u, 7642159104u},
      {2, 3821279232u, 3821279232u},
      {4, 1910839296u, 1910839296u},
      {8, 955619328u, 955619328u}}},
    {"falcon-180b-chat",
     359045130240u,
     {{1, 359045130240u, 359045130240u},
      {2, 179527346176u, 179527346176u},
      {4, 89768454144u, 89768454144u},
      {8, 44889008128u, 44889008128u}}},
    // 90 expert units split unevenly from TP 4: 23, 23, 22, 22 (TP 8: 12, 12,
    // then 11), 4704256 bytes per unit and layer.
    {"gpt-oss-20b",
     13761264768u,
     {{1, 13761264768u, 13761264768u},
      {2, 6885267072u, 6885267072u},
      {4, 3503719296u, 3390817152u},
      {8, 1812945408u, 1700043264u}}},
    {"qwen3-14b-mlx-4bit",
     8307783680u,
     {{1, 8307783680u, 8307783680u},
      {2, 4154316800u, 4154316800u},
      {4, 2077583360u, 2077583360u},
      {8, 1039216640u, 1039216640u}}},
};

TEST_CASE("families at TP 1, 2, 4, 8: coverage and exact rank bytes") {
  for (const Expected& expected : kModels) {
    auto model = describe(expected.name);
    for (const RankBytes& ranks : expected.ranks) {
      CAPTURE(expected.name);
      CAPTURE(ranks.tp);
      auto world = plan(model, ranks.tp);
      REQUIRE_MESSAGE(world.has_value(), world.error().message);
      CHECK(world.value().coverage_ok());
      REQUIRE(world.value().ranks.size() == ranks.tp);
      const RankSummary& first = world.value().ranks.front();
      CHECK(first.totals.local_bytes == ranks.first);
      CHECK(first.totals.global_bytes == expected.global_bytes);
      CHECK(first.totals.materialized_tensors == model->tensor_count());
      CHECK(first.totals.omitted_tensors == 0);
      CHECK(first.fell_back_groups.empty());
      CHECK(world.value().ranks.back().totals.local_bytes == ranks.last);
      std::uint64_t sum = 0;
      for (const RankSummary& rank : world.value().ranks) sum += rank.totals.local_bytes;
      // Only replicated tensors are held more than once.
      CHECK(sum >= expected.global_bytes);
    }
  }
}

TEST_CASE("families with pipeline stages: coverage holds and every tensor has one stage") {
  for (const Expected& expected : kModels) {
    auto model = describe(expected.name);
    CAPTURE(expected.name);
    auto world = plan(model, 2, 3);
    REQUIRE_MESSAGE(world.has_value(), world.error().message);
    CHECK(world.value().coverage_ok());
    std::uint64_t materialized = 0;
    for (std::uint64_t stage = 0; stage < 3; ++stage) {
      materialized += world.value().ranks[stage * 2].totals.materialized_tensors;
    }
    CHECK(materialized == model->tensor_count());
  }
}

TEST_CASE("more TP ranks than KV heads: KV heads replicated, or an error naming the sizes") {
  // Falcon's fused QKV interleaves each KV group's heads: no query_units, so
  // T > 8 is refused as before (docs/describe.md).
  auto falcon = plan(describe("falcon-180b-chat"), 16);
  REQUIRE_FALSE(falcon.has_value());
  CHECK(falcon.error().code == Status::InvalidTensor);
  CHECK(falcon.error().message ==
        "logical parameter \"transformer.h.0.self_attention\": 8 partition units — declared by "
        "the group — cannot be split 16 ways; tensor sizes up to 64 that work for this group: 1, "
        "2, 3, 4, 5, 6, 7, 8");
  // Qwen3-14B: 40 query heads over 16 ranks do not split.
  auto qwen = plan(describe("qwen3-14b-mlx-4bit"), 16);
  REQUIRE_FALSE(qwen.has_value());
  CHECK(qwen.error().code == Status::InvalidTensor);
  CHECK(qwen.error().message ==
        "logical parameter \"model.layers.0.self_attn\": 8 KV heads and 40 query heads cannot be "
        "split 16 ways: KV heads are replicated only at a multiple of 8 that divides 40; tensor "
        "sizes up to 64 that work for this group: 1, 2, 3, 4, 5, 6, 7, 8, 40");
  // gpt-oss-20b: 64 query heads, 8 KV heads: each KV head on two ranks.
  auto gpt_oss = plan(describe("gpt-oss-20b"), 16);
  REQUIRE_MESSAGE(gpt_oss.has_value(), gpt_oss.error().message);
  CHECK(gpt_oss.value().coverage_ok());
  // Phi-3 has 32 KV heads: TP 32 splits, TP 64 does not.
  auto phi3 = describe("phi-3-mini-3b-slerp");
  auto world = plan(phi3, 32);
  REQUIRE_MESSAGE(world.has_value(), world.error().message);
  CHECK(world.value().coverage_ok());
  auto failed = plan(phi3, 64);
  REQUIRE_FALSE(failed.has_value());
  CHECK(failed.error().code == Status::InvalidTensor);
  CHECK(failed.error().message ==
        "logical parameter \"model.layers.0.self_attn\": 32 partition units — declared by the "
        "group — cannot be split 64 ways; tensor sizes up to 64 that work for this group: 1, 2, 3, "
        "4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, "
        "28, 29, 30, 31, 32");
}

TEST_CASE("gpt-oss-20b: expert sizes 2, 4, 8 with TP 2 cover; 64 is refused") {
  const auto model = describe("gpt-oss-20b");
  for (std::uint64_t ep : {2u, 4u, 8u}) {
    CAPTURE(ep);
    auto world = plan(model, 2, 1, ep);
    REQUIRE_MESSAGE(world.has_value(), world.error().message);
    CHECK(world.value().coverage_ok());
    CHECK(world.value().ranks.size() == 2 * ep);
  }
  auto refused = plan(model, 1, 1, 64);
  REQUIRE_FALSE(refused);
  CHECK(refused.error().code == Status::EmptyPartition);
  CHECK(refused.error().message ==
        "32 routed experts cannot be split over 64 expert ranks; expert sizes from 1 to 32 work");
}

TEST_CASE("a dense model planned with expert ranks stops at preflight") {
  // The description carries no expert count, so a planner asked for expert
  // ranks stops instead of silently replicating everything.
  auto world = plan(describe("falcon-180b-chat"), 1, 1, 2);
  REQUIRE_FALSE(world.has_value());
  CHECK(world.error().code == Status::MissingExpertCount);
}

std::string plan_json(const std::shared_ptr<const ModelDescription>& model,
                      const ParallelTopology& topology, std::uint64_t rank) {
  auto layout = plan_rank(model, topology, rank, ShardingPolicy::Require);
  REQUIRE_MESSAGE(layout.has_value(), layout.error().message);
  return layout_to_json(layout.value());
}

TEST_CASE("families round trip through eredu.groups.v1 with identical layouts") {
  for (const Expected& expected : kModels) {
    CAPTURE(expected.name);
    auto described = describe(expected.name);
    const std::string text = groups_to_json(*described);
    auto loaded = load_groups_json(text);
    REQUIRE_MESSAGE(loaded.has_value(), loaded.error().message);
    CHECK(groups_to_json(*loaded.value()) == text);
    CHECK(loaded.value()->info() == described->info());
    CHECK(loaded.value()->groups() == described->groups());
    for (std::uint64_t tp : {2, 8}) {
      const ParallelTopology topology = ParallelTopology::create(tp, 2, 1, 1).value();
      for (std::uint64_t rank : {std::uint64_t{0}, 2 * tp - 1}) {
        CAPTURE(tp);
        CAPTURE(rank);
        CHECK(plan_json(loaded.value(), topology, rank) == plan_json(described, topology, rank));
      }
    }
  }
}

}  // namespace
}  // namespace eredu
