// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Messages that name what fixed a group's partition units
// (docs/planning.md, "Sharding policies").
#include <doctest/doctest.h>

#include "members.hpp"
#include "plan/planner.hpp"
#include "plan/unit_geometry.hpp"

using namespace eredu;

namespace {

using eredu::test::member;

std::shared_ptr<const ModelDescription> model_of(ParameterGroupSpec group) {
  auto builder = ModelBuilder::create({}).value();
  REQUIRE(builder.add_group(std::move(group)));
  return std::move(builder).finish().value();
}

// A block-FP8 gate projection whose scale rows leave one unit.
ParameterGroupSpec block_fp8_gate() {
  return partitioned_group_with_preferred_units(
             "mlp", ParameterRole::ColumnProjection, 320,
             {member("mlp.gate_proj.weight", {320, 64}, MemberSharding::partitioned(0)),
              member("mlp.gate_proj.weight_scale_inv", {3, 1}, MemberSharding::partitioned(0))})
      .value();
}

}  // namespace

TEST_CASE("a unit count fixed by a gcd names the extents that lower it") {
  const ParameterGroupSpec group = block_fp8_gate();
  CHECK(group.partition_units() == std::optional<std::uint64_t>{1});
  CHECK(unit_geometry(group) ==
        "1 partition unit — gcd of weight rows 320 and weight_scale_inv rows 3 —");
  auto planned = plan_rank(model_of(group), ParallelTopology::create(2, 1, 1, 1).value(), 0,
                           ShardingPolicy::Require);
  REQUIRE_FALSE(planned);
  CHECK(planned.error().code == Status::InvalidTensor);
  CHECK(planned.error().message ==
        "logical parameter \"mlp\": 1 partition unit — gcd of weight rows 320 and "
        "weight_scale_inv rows 3 — cannot be split 2 ways; tensor sizes up to 64 that work for "
        "this group: 1");
}

TEST_CASE("segments, columns and higher axes are named by their extent") {
  auto segments =
      ParameterGroupSpec::partitioned(
          "experts", ParameterRole::ExpertIntermediate, 2,
          {member("w13", {4, 20, 8}, MemberSharding::partitioned_segments(1, {{0, 10}, {10, 20}})),
           member("w2", {4, 8, 6}, MemberSharding::partitioned(2)),
           member("o", {8, 2}, MemberSharding::partitioned(1))})
          .value();
  // o's columns (2) do not lower the gcd further, so they are not named.
  CHECK(unit_geometry(segments) ==
        "2 partition units — gcd of w13 segment 0..10 (10) and w2 axis 2 extent 6 —");
  auto columns = ParameterGroupSpec::partitioned(
                     "down", ParameterRole::RowProjection, 2,
                     {member("down.weight", {8, 6}, MemberSharding::partitioned(1)),
                      member("down.scales", {8, 4}, MemberSharding::partitioned(1))})
                     .value();
  CHECK(unit_geometry(columns) ==
        "2 partition units — gcd of weight columns 6 and scales columns 4 —");
  auto single =
      ParameterGroupSpec::partitioned("attn", ParameterRole::AttentionHeads, 8,
                                      {member("w", {8, 4}, MemberSharding::partitioned(0))})
          .value();
  CHECK(unit_geometry(single) == "8 partition units — w rows 8 —");
}

TEST_CASE("a declared unit count says so") {
  auto declared =
      ParameterGroupSpec::partitioned("kv", ParameterRole::AttentionHeads, 2,
                                      {member("k", {8, 8}, MemberSharding::partitioned(0))})
          .value();
  CHECK(unit_geometry(declared) == "2 partition units — declared by the group —");
}
