// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// KV-head replication (docs/planning.md, "KV-head replication"): the
// planner's placements and the coverage proof's count of identical copies.
#include <doctest/doctest.h>

#include "interchange/layout_json.hpp"
#include "plan/planner.hpp"
#include "unit/members.hpp"
#include "world/tiling.hpp"
#include "world/world.hpp"

using namespace eredu;

namespace {

using eredu::test::member;
using eredu::test::Shape;

// Two KV heads, eight query heads, head width 2.
std::shared_ptr<const ModelDescription> gqa_model() {
  auto group = ParameterGroupSpec::partitioned(
                   "attn", ParameterRole::AttentionHeads, 2,
                   {member("q", {16, 4}, MemberSharding::partitioned(0), Dtype::BF16),
                    member("k", {4, 4}, MemberSharding::partitioned(0).kv_head(), Dtype::BF16),
                    member("v", {4, 4}, MemberSharding::partitioned(0).kv_head(), Dtype::BF16),
                    member("o", {4, 16}, MemberSharding::partitioned(1), Dtype::BF16),
                    member("k.bias", {4}, MemberSharding::partitioned(0).kv_head(), Dtype::BF16),
                    member("norm", {2}, MemberSharding::replicated(), Dtype::BF16),
                    member("sinks", {8}, MemberSharding::partitioned(0), Dtype::BF16)},
                   {}, 8)
                   .value();
  auto builder = ModelBuilder::create({}).value();
  REQUIRE(builder.add_group(std::move(group)));
  return std::move(builder).finish().value();
}

LocalModelLayout plan(std::uint64_t tp, std::uint64_t rank) {
  auto layout = plan_rank(gqa_model(), ParallelTopology::create(tp, 1, 1, 1).value(), rank,
                          ShardingPolicy::Require);
  REQUIRE_MESSAGE(layout.has_value(), layout.error().message);
  return std::move(layout).value();
}

TensorPlacement runs(std::vector<IndexRange> selected) {
  return TensorPlacement::indices(0, selected);
}

const LocalTensorLayout& at(const LocalModelLayout& layout, std::string_view target) {
  const LocalTensorLayout* entry = layout.tensor(target);
  REQUIRE(entry != nullptr);
  return *entry;
}

}  // namespace

TEST_CASE("T above H: each KV head whole on T/H ranks, query heads split T ways") {
  for (std::uint64_t t = 0; t < 4; ++t) {
    CAPTURE(t);
    const LocalModelLayout layout = plan(4, t);
    const std::uint64_t head = t / 2;
    CHECK(at(layout, "q").placement == TensorPlacement::range(0, 4 * t, 4 * t + 4));
    CHECK(at(layout, "q").kv_head_copies == 1);
    for (const char* kv : {"k", "v"}) {
      CHECK(at(layout, kv).placement == TensorPlacement::range(0, 2 * head, 2 * head + 2));
      CHECK(at(layout, kv).local_shape == Shape{2, 4});
      CHECK(at(layout, kv).kv_head_copies == 2);
    }
    CHECK(at(layout, "k.bias").placement == TensorPlacement::range(0, 2 * head, 2 * head + 2));
    CHECK(at(layout, "o").placement == TensorPlacement::range(1, 4 * t, 4 * t + 4));
    CHECK(at(layout, "sinks").placement == TensorPlacement::range(0, 2 * t, 2 * t + 2));
    CHECK(at(layout, "norm").placement == TensorPlacement::replicated());
    CHECK(at(layout, "q").logical_range == IndexRange{head, head + 1});
    CHECK(at(layout, "q").logical_units() == std::optional<std::uint64_t>{2});
  }
  // One query head per rank at T = 8, each KV head on four ranks.
  const LocalModelLayout eight = plan(8, 5);
  CHECK(at(eight, "q").placement == TensorPlacement::range(0, 10, 12));
  CHECK(at(eight, "k").placement == TensorPlacement::range(0, 2, 4));
  CHECK(at(eight, "k").kv_head_copies == 4);
  CHECK(at(eight, "sinks").placement == TensorPlacement::range(0, 5, 6));
  // BF16 bytes of q, k, v, o, k.bias, norm and sinks: q, o and sinks shrink
  // with T, k, v and k.bias stay one KV head.
  CHECK(eight.totals.local_bytes == 2 * (2 * 4 + 2 * 4 + 2 * 4 + 4 * 2 + 2 + 2 + 1));
  CHECK(plan(2, 1).totals.local_bytes == 2 * (8 * 4 + 2 * 4 + 2 * 4 + 4 * 8 + 2 + 2 + 4));
}

TEST_CASE("T up to H plans exactly as without query units") {
  const LocalModelLayout layout = plan(2, 1);
  CHECK(at(layout, "q").placement == TensorPlacement::range(0, 8, 16));
  CHECK(at(layout, "k").placement == TensorPlacement::range(0, 2, 4));
  CHECK(at(layout, "k").kv_head_copies == 1);
  CHECK(at(layout, "sinks").placement == TensorPlacement::range(0, 4, 8));
  CHECK(layout_to_json(layout).find("kv_head_copies") == std::string::npos);
}

TEST_CASE("sizes that are not a multiple of H or do not divide Q are refused") {
  for (std::uint64_t tp : {3u, 6u, 16u}) {
    CAPTURE(tp);
    auto layout = plan_rank(gqa_model(), ParallelTopology::create(tp, 1, 1, 1).value(), 0,
                            ShardingPolicy::Require);
    REQUIRE_FALSE(layout);
    CHECK(layout.error().code == Status::InvalidTensor);
    CHECK(layout.error().message ==
          fmt::format("logical parameter \"attn\": 2 KV heads and 8 query heads cannot be split {} "
                      "ways: KV heads are replicated only at a multiple of 2 that divides 8; "
                      "tensor sizes up to 64 that work for this group: 1, 2, 4, 8",
                      tp));
  }
  auto fallback = plan_rank(gqa_model(), ParallelTopology::create(3, 1, 1, 1).value(), 1,
                            ShardingPolicy::ReplicateUnsupported);
  REQUIRE(fallback);
  CHECK(at(fallback.value(), "k").placement == TensorPlacement::replicated());
  CHECK(at(fallback.value(), "k").kv_head_copies == 1);
}

TEST_CASE("the coverage proof accepts exactly the KV-head copies") {
  auto world = plan_world(gqa_model(), ParallelTopology::create(4, 1, 1, 1).value(),
                          ShardingPolicy::Require);
  REQUIRE(world);
  CHECK(world.value().coverage_ok());

  const ParameterMemberSpec k("k", {4, 4}, MemberSharding::partitioned(0).kv_head());
  const TensorPlacement first = TensorPlacement::range(0, 0, 2);
  const TensorPlacement second = TensorPlacement::range(0, 2, 4);
  std::vector<CoverageProblem> problems;
  const std::vector<HeldPlacement> exact{{0, &first}, {1, &first}, {2, &second}, {3, &second}};
  check_tiling(k, std::nullopt, exact, 2, problems);
  CHECK(problems.empty());
  // Three copies of one head and one of the other.
  const std::vector<HeldPlacement> uneven{{0, &first}, {1, &first}, {2, &first}, {3, &second}};
  check_tiling(k, std::nullopt, uneven, 2, problems);
  REQUIRE(problems.size() == 1);
  CHECK(problems[0].problem == CoverageKind::Overlap);
  CHECK(problems[0].detail ==
        "axis 0: [0, 2) not held by exactly 2 KV-head copies; [2, 4) not held by exactly 2 "
        "KV-head copies");
  CHECK(problems[0].ranks == std::vector<std::uint64_t>{0, 1, 2, 3});
  // Without KV-head replication the same copies overlap.
  problems.clear();
  check_tiling(k, std::nullopt, exact, 1, problems);
  REQUIRE(problems.size() == 1);
  CHECK(problems[0].problem == CoverageKind::Overlap);
}

TEST_CASE("per_kv_head needs partitioned members and query units; query units a multiple") {
  auto no_query = ParameterGroupSpec::partitioned(
      "attn", ParameterRole::AttentionHeads, 2,
      {member("k", {4, 4}, MemberSharding::partitioned(0).kv_head())});
  REQUIRE_FALSE(no_query);
  CHECK(no_query.error().code == Status::InvalidGroup);
  CHECK(no_query.error().message ==
        "parallel parameter group \"attn\": per_kv_head member \"k\" needs the group's "
        "query_units");
  MemberSharding equal = MemberSharding::equal(0);
  equal.per_kv_head = true;
  auto not_partitioned = ParameterGroupSpec::partitioned(
      "attn", ParameterRole::AttentionHeads, 2,
      {member("q", {4, 4}, MemberSharding::partitioned(0)), member("k", {4, 4}, equal)}, {}, 8);
  REQUIRE_FALSE(not_partitioned);
  CHECK(not_partitioned.error().message ==
        "parallel parameter group \"attn\": per_kv_head member \"k\" must be partitioned");
  auto not_multiple =
      ParameterGroupSpec::partitioned("attn", ParameterRole::AttentionHeads, 2,
                                      {member("q", {4, 4}, MemberSharding::partitioned(0))}, {}, 7);
  REQUIRE_FALSE(not_multiple);
  CHECK(not_multiple.error().message ==
        "parallel parameter group \"attn\": query_units 7 must be a positive multiple of its 2 "
        "partition units");
}

TEST_CASE("partitioned segments follow the query heads, or hold the KV head, per segment") {
  auto group =
      ParameterGroupSpec::partitioned(
          "fused", ParameterRole::AttentionHeads, 2,
          {member("qg", {32, 4}, MemberSharding::partitioned_segments(0, {{0, 16}, {16, 32}})),
           member("kv", {8, 4},
                  MemberSharding::partitioned_segments(0, {{0, 4}, {4, 8}}).kv_head())},
          {}, 8)
          .value();
  auto builder = ModelBuilder::create({}).value();
  REQUIRE(builder.add_group(std::move(group)));
  auto model = std::move(builder).finish().value();
  const auto topology = ParallelTopology::create(4, 1, 1, 1).value();
  const LocalModelLayout rank1 = plan_rank(model, topology, 1, ShardingPolicy::Require).value();
  CHECK(at(rank1, "qg").placement == runs({{4, 8}, {20, 24}}));
  CHECK(at(rank1, "kv").placement == runs({{0, 2}, {4, 6}}));
  CHECK(at(rank1, "kv").kv_head_copies == 2);
  const LocalModelLayout rank3 = plan_rank(model, topology, 3, ShardingPolicy::Require).value();
  CHECK(at(rank3, "qg").placement == runs({{12, 16}, {28, 32}}));
  CHECK(at(rank3, "kv").placement == runs({{2, 4}, {6, 8}}));
  auto world = plan_world(model, topology, ShardingPolicy::Require);
  REQUIRE(world);
  CHECK(world.value().coverage_ok());
}
