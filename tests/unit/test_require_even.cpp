// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The require_even policy (docs/planning.md, "Sharding policies"): every
// split exact, or an error naming the extent and the sizes that divide it.
#include <doctest/doctest.h>

#include "members.hpp"
#include "plan/planner.hpp"

using namespace eredu;

namespace {

using eredu::test::member;
using eredu::test::model_of;
using eredu::test::Shape;

ParameterGroupSpec group(std::string name, std::vector<ParameterMemberSpec> m,
                         GroupScope scope = {}) {
  return ParameterGroupSpec::create(std::move(name), ParameterRole::Vocabulary, std::move(m), scope)
      .value();
}

Result<LocalModelLayout> plan(const std::shared_ptr<const ModelDescription>& model,
                              std::uint64_t rank, std::uint64_t tp, ShardingPolicy policy,
                              std::uint64_t ep = 1) {
  return plan_rank(model, ParallelTopology::create(tp, 1, ep, 1).value(), rank, policy);
}

std::string error_of(const Result<LocalModelLayout>& result) {
  REQUIRE_FALSE(result);
  CHECK(result.error().code == Status::InvalidTensor);
  return result.error().message;
}

}  // namespace

TEST_CASE("require_even plans an even split exactly as require does") {
  auto model = model_of({group("embed", {member("embed", {12, 4}, MemberSharding::balanced(0))})});
  for (std::uint64_t rank = 0; rank < 3; ++rank) {
    auto even = plan(model, rank, 3, ShardingPolicy::RequireEven).value();
    auto require = plan(model, rank, 3, ShardingPolicy::Require).value();
    CHECK(even.tensors[0].placement == TensorPlacement::range(0, 4 * rank, 4 * rank + 4));
    CHECK(even.tensors[0].placement == require.tensors[0].placement);
    CHECK(even.tensors[0].local_shape == Shape{4, 4});
    CHECK(even.totals == require.totals);
    CHECK(even.policy == ShardingPolicy::RequireEven);
  }
}

TEST_CASE("require_even refuses an uneven balanced extent on every rank") {
  auto model = model_of({group("embed", {member("embed", {11, 4}, MemberSharding::balanced(0))})});
  CHECK(plan(model, 2, 3, ShardingPolicy::Require));
  for (std::uint64_t rank = 0; rank < 3; ++rank) {
    CHECK(error_of(plan(model, rank, 3, ShardingPolicy::RequireEven)) ==
          "logical parameter \"embed\": tensor \"embed\" axis 0 extent 11 does not split evenly 3 "
          "ways under require_even; sizes up to 64 that divide it: 1, 11");
  }
}

TEST_CASE("require_even refuses uneven partition units before any member") {
  auto model = model_of(
      {ParameterGroupSpec::partitioned("aligned", ParameterRole::AttentionHeads, 5,
                                       {member("weight", {8, 20}, MemberSharding::partitioned(1)),
                                        member("scales", {8, 10}, MemberSharding::partitioned(1))})
           .value()});
  CHECK(plan(model, 1, 3, ShardingPolicy::Require));
  CHECK(error_of(plan(model, 1, 3, ShardingPolicy::RequireEven)) ==
        "logical parameter \"aligned\": the group's 5 partition units do not split evenly 3 ways "
        "under require_even; sizes up to 64 that divide it: 1, 5");
}

TEST_CASE("require_even refuses an uneven segment of a segmented member") {
  auto model = model_of({group(
      "qkv", {member("qkv", {16, 8}, MemberSharding::segmented(0, {{0, 8}, {8, 12}, {12, 16}}))})});
  CHECK(plan(model, 0, 4, ShardingPolicy::RequireEven));
  CHECK(error_of(plan(model, 0, 3, ShardingPolicy::RequireEven)) ==
        "logical parameter \"qkv\": tensor \"qkv\" segment 0..8 does not split evenly 3 ways "
        "under require_even; sizes up to 64 that divide it: 1, 2, 4, 8");
}

TEST_CASE("require_even refuses routed experts that do not split over the expert ranks") {
  auto model = model_of({group("dense", {member("dense", {6}, MemberSharding::replicated())}),
                         group("expert.1", {member("expert.1", {6}, MemberSharding::replicated())},
                               GroupScope::indexed(0, 1))},
                        ModelInfo{"moe", 1, 6});
  CHECK(plan(model, 0, 1, ShardingPolicy::RequireEven, 3));
  CHECK(plan(model, 0, 1, ShardingPolicy::Require, 4));
  // The dense group passes; the first routed expert's group is named.
  CHECK(error_of(plan(model, 0, 1, ShardingPolicy::RequireEven, 4)) ==
        "logical parameter \"expert.1\": 6 routed experts do not split evenly over 4 expert ranks "
        "under require_even; expert sizes up to 64 that divide it: 1, 2, 3, 6");
}

TEST_CASE("the sizes that divide an extent stop at the search limit") {
  auto model = model_of({group("embed", {member("embed", {67, 4}, MemberSharding::balanced(0))})});
  CHECK(error_of(plan(model, 0, 2, ShardingPolicy::RequireEven))
            .ends_with("sizes up to 64 that divide it: 1"));
  CHECK(dividing_sizes(134, 64) == std::vector<std::uint64_t>{1, 2});
  CHECK(dividing_sizes(128, 16) == std::vector<std::uint64_t>{1, 2, 4, 8, 16});
}

TEST_CASE("policy words round-trip") {
  CHECK(sharding_policy_name(ShardingPolicy::RequireEven) == "require_even");
  CHECK(parse_sharding_policy("require_even") == ShardingPolicy::RequireEven);
  CHECK(parse_sharding_policy("require-even") == std::nullopt);
}
