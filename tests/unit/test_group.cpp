// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The seed's group tests and the group construction rules (docs/planning.md,
// "Building a group").
#include <doctest/doctest.h>
#include <fmt/format.h>

#include "model/group.hpp"

using namespace eredu;

namespace {

ParameterMemberSpec member(std::string target, std::vector<std::uint64_t> shape,
                           MemberSharding sharding) {
  return ParameterMemberSpec(std::move(target), std::move(shape), std::move(sharding));
}

}  // namespace

TEST_CASE("groups reject duplicate physical targets") {
  auto error =
      ParameterGroupSpec::create("attention", ParameterRole::AttentionHeads,
                                 {member("q.weight", {8, 8}, MemberSharding::replicated()),
                                  member("q.weight", {8, 8}, MemberSharding::replicated())});
  REQUIRE(error.has_error());
  CHECK(error.error().code == Status::InvalidGroup);
  CHECK(error.error().message ==
        "parallel parameter group \"attention\" repeats tensor target \"q.weight\"");
}

TEST_CASE("group partition contract is explicit") {
  auto unpartitioned =
      ParameterGroupSpec::create("query", ParameterRole::AttentionHeads,
                                 {member("q.weight", {8, 8}, MemberSharding::partitioned(0))});
  REQUIRE(unpartitioned.has_error());
  CHECK(unpartitioned.error().code == Status::InvalidGroup);
  CHECK(unpartitioned.error().message.find("group-level logical partition") != std::string::npos);

  auto partitioned =
      ParameterGroupSpec::partitioned("query", ParameterRole::AttentionHeads, 4,
                                      {member("q.weight", {8, 8}, MemberSharding::partitioned(0))});
  REQUIRE(partitioned.has_value());
  CHECK(partitioned.value().partition_units() == std::optional<std::uint64_t>{4});
  CHECK(partitioned.value().members().size() == 1);

  // Units without a partitioned member break the contract the other way.
  auto units_only =
      ParameterGroupSpec::partitioned("norm", ParameterRole::Replicated, 4,
                                      {member("n.weight", {8}, MemberSharding::replicated())});
  CHECK(units_only.error().code == Status::InvalidGroup);
  // Segmented alone does not make a group partitioned.
  auto segmented = ParameterGroupSpec::create(
      "qkv", ParameterRole::Segmented,
      {member("qkv.weight", {16, 8}, MemberSharding::segmented(0, {{0, 8}, {8, 16}}))});
  CHECK(segmented.has_value());
}

TEST_CASE("group construction checks in the seed's order") {
  auto blank = ParameterGroupSpec::create(" \u3000", ParameterRole::Replicated, {});
  CHECK(blank.error().message == "parallel parameter logical name must not be empty");
  auto zero = ParameterGroupSpec::partitioned("", ParameterRole::Replicated, 0, {});
  CHECK(zero.error().message == "parallel logical partition must contain at least one unit");
  auto empty = ParameterGroupSpec::create("g", ParameterRole::Replicated, {});
  CHECK(empty.error().message == "parallel parameter group \"g\" must contain at least one tensor");
  auto blank_target = ParameterGroupSpec::create("g", ParameterRole::Replicated,
                                                 {member("\t", {1}, MemberSharding::replicated()),
                                                  member("a", {1}, MemberSharding::replicated())});
  CHECK(blank_target.error().message ==
        "parallel parameter group \"g\" contains an empty tensor target");
  for (const auto& result : {blank, zero, empty, blank_target}) {
    CHECK(result.error().code == Status::InvalidGroup);
  }
}

TEST_CASE("preferred partition units follow every physical companion") {
  auto group = partitioned_group_with_preferred_units(
      "experts.intermediate", ParameterRole::ExpertIntermediate, 64,
      {member("experts.up_proj", {4, 64, 16}, MemberSharding::partitioned(1)),
       member("experts.down_proj", {4, 16, 8}, MemberSharding::partitioned(2)),
       member("experts.down_proj_scales", {4, 16, 2}, MemberSharding::partitioned(2))});
  REQUIRE(group.has_value());
  CHECK(group.value().partition_units() == std::optional<std::uint64_t>{2});
}

TEST_CASE("preferred units: segments reduce, zero leaves unchanged, missing axes fail") {
  auto segmented = partitioned_group_with_preferred_units(
      "fused", ParameterRole::Segmented, 12,
      {member("gate_up", {20, 8}, MemberSharding::partitioned_segments(0, {{0, 8}, {8, 20}})),
       member("aux", {6, 8}, MemberSharding::segmented(0, {{0, 6}}))});
  CHECK(segmented.value().partition_units() == std::optional<std::uint64_t>{2});

  auto zero = partitioned_group_with_preferred_units(
      "zero", ParameterRole::Channels, 6, {member("z", {0, 4}, MemberSharding::partitioned(0))});
  CHECK(zero.value().partition_units() == std::optional<std::uint64_t>{6});

  auto missing = partitioned_group_with_preferred_units(
      "bad", ParameterRole::Channels, 6, {member("w", {4}, MemberSharding::partitioned(1))});
  CHECK(missing.error().code == Status::InvalidTensor);
  CHECK(missing.error().message == "partitioned parameter w has no axis 1");
  auto missing_segment = partitioned_group_with_preferred_units(
      "bad", ParameterRole::Channels, 6,
      {member("s", {4}, MemberSharding::segmented(2, {{0, 2}}))});
  CHECK(missing_segment.error().message == "segmented parameter s has no axis 2");
}

TEST_CASE("quantized alignment combines complete semantic units") {
  CHECK(aligned_partition_units("GQA", 6, 16, 32).value() == 3);
  CHECK(aligned_partition_units("SwiGLU", 96, 1, 32).value() == 3);
  auto incomplete = aligned_partition_units("GQA", 3, 16, 32);
  CHECK(incomplete.error().code == Status::InvalidGroup);
  CHECK(incomplete.error().message ==
        "GQA has 3 semantic units of width 16, which cannot form complete alignment-32 "
        "partitions");
  auto zero = aligned_partition_units("GQA", 0, 16, 32);
  CHECK(zero.error().message ==
        "GQA aligned partition dimensions must be positive, got units=0, width=16, "
        "alignment=32");
}

TEST_CASE("enum names round trip") {
  for (std::uint32_t v = 0; v < kRoleCount; ++v) {
    auto role = role_from_value(v).value();
    CHECK(parse_role(role_name(role)) == role);
  }
  for (std::uint32_t v = 0; v < kShardingKindCount; ++v) {
    auto kind = sharding_kind_from_value(v).value();
    CHECK(parse_sharding_kind(sharding_kind_name(kind)) == kind);
  }
  CHECK_FALSE(role_from_value(kRoleCount).has_value());
  CHECK(role_name(ParameterRole::FeedForwardIntermediate) == "feed_forward_intermediate");
  CHECK(sharding_kind_name(ShardingKind::PartitionedSegments) == "partitioned_segments");
}

TEST_CASE("large groups report their first repeated target too") {
  std::vector<ParameterMemberSpec> members;
  for (int i = 0; i < 40; ++i) {
    members.push_back(member(fmt::format("m{}", i), {2}, MemberSharding::replicated()));
  }
  members.push_back(member("m7", {2}, MemberSharding::replicated()));
  members.push_back(member("m3", {2}, MemberSharding::replicated()));
  auto error = ParameterGroupSpec::create("wide", ParameterRole::Replicated, std::move(members));
  CHECK(error.error().code == Status::InvalidGroup);
  CHECK(error.error().message == "parallel parameter group \"wide\" repeats tensor target \"m7\"");
}
