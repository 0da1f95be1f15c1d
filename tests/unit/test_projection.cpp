// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The seed's projection helpers, preferred/aligned partition units and
// ParallelModelInfo (docs/planning.md, "Parameter groups" and "Parallel model
// info").
#include <doctest/doctest.h>

#include "members.hpp"
#include "model/projection.hpp"
#include "plan/model_info.hpp"

using namespace eredu;

namespace {

using eredu::test::member;
using eredu::test::Shape;

ParameterGroupSpec group(std::string name, std::vector<ParameterMemberSpec> members) {
  return ParameterGroupSpec::create(std::move(name), ParameterRole::FeedForwardIntermediate,
                                    std::move(members))
      .value();
}

const std::vector<IndexRange> kThirds{{0, 4}, {4, 8}, {8, 12}};

}  // namespace

TEST_CASE("seed: preferred partition units follow every physical companion") {
  auto grouped = partitioned_group_with_preferred_units(
      "experts.intermediate", ParameterRole::ExpertIntermediate, 64,
      {member("experts.up_proj", {4, 64, 16}, MemberSharding::partitioned(1)),
       member("experts.down_proj", {4, 16, 8}, MemberSharding::partitioned(2)),
       member("experts.down_proj_scales", {4, 16, 2}, MemberSharding::partitioned(2))});
  REQUIRE(grouped.has_value());
  CHECK(grouped.value().partition_units() == std::optional<std::uint64_t>{2});
}

TEST_CASE("preferred units: gcd with zero, Segmented reduces, missing axes") {
  // A zero dimension or zero-length segment leaves the count unchanged.
  auto zero = partitioned_group_with_preferred_units(
      "z", ParameterRole::Channels, 6,
      {member("a", {0, 4}, MemberSharding::partitioned(0)),
       member("b", {6}, MemberSharding::partitioned_segments(0, {{2, 2}, {0, 6}}))});
  CHECK(zero.value().partition_units() == std::optional<std::uint64_t>{6});
  // Segmented members reduce the count but do not make a group partitioned.
  auto segmented = partitioned_group_with_preferred_units(
      "s", ParameterRole::Segmented, 12,
      {member("a", {12, 4}, MemberSharding::partitioned(0)),
       member("b", {12}, MemberSharding::segmented(0, {{0, 4}, {4, 12}}))});
  CHECK(segmented.value().partition_units() == std::optional<std::uint64_t>{4});
  auto only_segmented = partitioned_group_with_preferred_units(
      "s", ParameterRole::Segmented, 12,
      {member("b", {12}, MemberSharding::segmented(0, {{0, 12}}))});
  CHECK(only_segmented.error().code == Status::InvalidGroup);

  auto partitioned_axis = partitioned_group_with_preferred_units(
      "m", ParameterRole::Channels, 4, {member("w", {8}, MemberSharding::partitioned(1))});
  CHECK(partitioned_axis.error().code == Status::InvalidTensor);
  CHECK(partitioned_axis.error().message == "partitioned parameter w has no axis 1");
  auto segment_axis = partitioned_group_with_preferred_units(
      "m", ParameterRole::Channels, 4,
      {member("w", {8}, MemberSharding::partitioned_segments(3, {{0, 8}}))});
  CHECK(segment_axis.error().message == "segmented parameter w has no axis 3");
  // gcd(0, d) = d: a preferred count of 0 takes the first partitioned
  // dimension, and fails only when it stays 0.
  auto zero_preferred = partitioned_group_with_preferred_units(
      "m", ParameterRole::Channels, 0, {member("w", {8}, MemberSharding::partitioned(0))});
  CHECK(zero_preferred.value().partition_units() == std::optional<std::uint64_t>{8});
  auto zero_units = partitioned_group_with_preferred_units(
      "m", ParameterRole::Channels, 0, {member("w", {0}, MemberSharding::partitioned(0))});
  CHECK(zero_units.error().message == "parallel logical partition must contain at least one unit");
}

TEST_CASE("aligned partition units") {
  CHECK(aligned_partition_units("heads", 32, 128, 256).value() == 16);
  CHECK(aligned_partition_units("heads", 32, 96, 64).value() == 16);
  CHECK(aligned_partition_units("heads", 8, 256, 128).value() == 8);
  auto zero = aligned_partition_units("heads", 0, 128, 256);
  CHECK(zero.error().code == Status::InvalidGroup);
  CHECK(zero.error().message ==
        "heads aligned partition dimensions must be positive, got units=0, width=128, "
        "alignment=256");
  auto odd = aligned_partition_units("heads", 3, 128, 256);
  CHECK(odd.error().code == Status::InvalidGroup);
  CHECK(odd.error().message ==
        "heads has 3 semantic units of width 128, which cannot form complete alignment-256 "
        "partitions");
}

TEST_CASE("seed: segmented projection applies identical ranges to every fused companion") {
  auto fused = group("fused", {member("gate_up.weight", {12, 8}, MemberSharding::equal(0)),
                               member("gate_up.scales", {12, 2}, MemberSharding::equal(0)),
                               member("gate_up.biases", {12, 2}, MemberSharding::equal(0))});
  auto row = group("row", {member("down.weight", {8, 6}, MemberSharding::equal(1)),
                           member("down.scales", {8, 2}, MemberSharding::equal(1)),
                           member("down.bias", {8}, MemberSharding::replicated())});
  auto assembled = assemble_segmented_projection_group(
      "mlp.projections", ParameterRole::FeedForwardIntermediate, fused, row, kThirds, 2, 12);
  REQUIRE(assembled.has_value());
  const auto& members = assembled.value().members();
  CHECK(assembled.value().partition_units() == std::optional<std::uint64_t>{2});
  REQUIRE(members.size() == 6);
  for (std::size_t i = 0; i < 3; ++i) {
    CHECK(members[i].sharding() == MemberSharding::partitioned_segments(0, kThirds));
  }
  CHECK(members[3].sharding() == MemberSharding::partitioned(1));
  CHECK(members[4].sharding() == MemberSharding::partitioned(1));
  CHECK(members[5].sharding() == MemberSharding::replicated());
}

TEST_CASE("seed: segmented projection rejects one misaligned companion atomically") {
  auto fused = group("fused", {member("qkv.weight", {12, 8}, MemberSharding::equal(0)),
                               member("qkv.scales", {11, 2}, MemberSharding::equal(0))});
  auto row = group("row", {member("output.weight", {8, 4}, MemberSharding::equal(1))});
  auto error = assemble_segmented_projection_group(
      "attention.projections", ParameterRole::AttentionHeads, fused, row, kThirds, 2, 12);
  REQUIRE(error.has_error());
  CHECK(error.error().code == Status::InvalidTensor);
  CHECK(error.error().message ==
        "segmented projection parameter qkv.scales has output dimension 11, expected 12");
}

TEST_CASE("projection parameter group per placement") {
  const ProjectionModule module{{"p.weight", {16, 8}, Dtype::BF16},
                                {"p.scales", {16, 1}, std::nullopt},
                                {"p.bias", {16}, Dtype::F32}};
  auto column = projection_parameter_group("p", ParameterRole::ColumnProjection, module,
                                           ProjectionSharding::Column);
  REQUIRE(column.has_value());
  CHECK_FALSE(column.value().partition_units().has_value());
  for (const auto& m : column.value().members()) CHECK(m.sharding() == MemberSharding::equal(0));
  CHECK(column.value().members()[0].dtype() == std::optional(Dtype::BF16));
  CHECK(column.value().members()[2].global_shape() == Shape{16});

  auto row = projection_parameter_group("p", ParameterRole::RowProjection, module,
                                        ProjectionSharding::Row, GroupScope::output_head());
  CHECK(row.value().members()[0].sharding() == MemberSharding::equal(1));
  CHECK(row.value().members()[1].sharding() == MemberSharding::equal(1));
  CHECK(row.value().members()[2].sharding() == MemberSharding::replicated());
  CHECK(row.value().scope() == GroupScope::output_head());

  auto replicated = projection_parameter_group("p", ParameterRole::Replicated, module,
                                               ProjectionSharding::Replicated);
  for (const auto& m : replicated.value().members()) CHECK(m.sharding() == MemberSharding{});

  const ProjectionModule scalar{{"p.weight", {16, 8}, std::nullopt}, {"p.gain", {}, std::nullopt}};
  auto error = projection_parameter_group("p", ParameterRole::ColumnProjection, scalar,
                                          ProjectionSharding::Column);
  CHECK(error.error().code == Status::InvalidTensor);
  CHECK(error.error().message == "column projection parameter p.gain is scalar");
  // A scalar is fine for a row projection (replicated).
  CHECK(
      projection_parameter_group("p", ParameterRole::RowProjection, scalar, ProjectionSharding::Row)
          .has_value());
  auto empty =
      projection_parameter_group("p", ParameterRole::RowProjection, {}, ProjectionSharding::Row);
  CHECK(empty.error().message == "parallel parameter group \"p\" must contain at least one tensor");
}

TEST_CASE("partitioned projection group") {
  const std::vector<PlacedProjection> projections{
      {{{"up.weight", {64, 16}, std::nullopt}, {"up.bias", {64}, std::nullopt}},
       ProjectionSharding::Column},
      {{{"down.weight", {16, 64}, std::nullopt}, {"down.bias", {16}, std::nullopt}},
       ProjectionSharding::Row},
      {{{"gate.norm", {16}, std::nullopt}}, ProjectionSharding::Replicated},
  };
  auto grouped = partitioned_projection_group("mlp", ParameterRole::FeedForwardIntermediate,
                                              projections, 48, GroupScope::indexed(1, 2));
  REQUIRE(grouped.has_value());
  const auto& members = grouped.value().members();
  REQUIRE(members.size() == 5);
  CHECK(members[0].sharding() == MemberSharding::partitioned(0));
  CHECK(members[1].sharding() == MemberSharding::partitioned(0));
  CHECK(members[2].sharding() == MemberSharding::partitioned(1));
  CHECK(members[3].sharding() == MemberSharding::replicated());
  CHECK(members[4].sharding() == MemberSharding::replicated());
  CHECK(grouped.value().partition_units() == std::optional<std::uint64_t>{16});
  CHECK(grouped.value().scope() == GroupScope::indexed(1, 2));

  auto zero =
      partitioned_projection_group("mlp", ParameterRole::FeedForwardIntermediate, projections, 0);
  CHECK(zero.error().code == Status::InvalidGroup);
  CHECK(zero.error().message == "partitioned projection group has zero preferred units");
  const std::vector<PlacedProjection> repeated{
      {{{"w", {4, 4}, std::nullopt}, {"w", {4}, std::nullopt}}, ProjectionSharding::Column}};
  auto inner = partitioned_projection_group("mlp", ParameterRole::Channels, repeated, 4);
  CHECK(inner.error().message ==
        "parallel parameter group \"projection\" repeats tensor target \"w\"");
  const std::vector<PlacedProjection> replicated_only{
      {{{"w", {4, 4}, std::nullopt}}, ProjectionSharding::Replicated}};
  CHECK(partitioned_projection_group("mlp", ParameterRole::Channels, replicated_only, 4)
            .error()
            .code == Status::InvalidGroup);
}

TEST_CASE("segmented projection group from modules") {
  const ProjectionModule fused{{"qkv.weight", {12, 8}, std::nullopt},
                               {"qkv.scales", {12, 2}, std::nullopt}};
  const ProjectionModule row{{"o.weight", {8, 4}, std::nullopt}, {"o.bias", {8}, std::nullopt}};
  auto grouped =
      segmented_projection_group("attn", ParameterRole::AttentionHeads, fused, row, kThirds, 4);
  REQUIRE(grouped.has_value());
  CHECK(grouped.value().partition_units() == std::optional<std::uint64_t>{4});
  CHECK(grouped.value().members()[1].sharding() ==
        MemberSharding::partitioned_segments(0, kThirds));
  CHECK(grouped.value().members()[2].sharding() == MemberSharding::partitioned(1));
  CHECK(grouped.value().members()[3].sharding() == MemberSharding::replicated());

  auto check = [&](std::vector<IndexRange> segments, std::uint64_t units, Status code,
                   const std::string& message) {
    auto error = segmented_projection_group("attn", ParameterRole::AttentionHeads, fused, row,
                                            std::move(segments), units);
    REQUIRE(error.has_error());
    CHECK(error.error().code == code);
    CHECK(error.error().message == message);
  };
  const std::string positive =
      "segmented projection requires positive logical units and at least one segment";
  check(kThirds, 0, Status::InvalidGroup, positive);
  check({}, 4, Status::InvalidGroup, positive);
  check({{1, 4}, {4, 12}}, 4, Status::InvalidGroup,
        "segmented projection ranges must be positive, contiguous, and ordered, got [1..4, "
        "4..12]");
  check({{0, 4}, {4, 4}, {4, 12}}, 4, Status::InvalidGroup,
        "segmented projection ranges must be positive, contiguous, and ordered, got [0..4, 4..4, "
        "4..12]");
  check({{0, 4}, {5, 12}}, 4, Status::InvalidGroup,
        "segmented projection ranges must be positive, contiguous, and ordered, got [0..4, "
        "5..12]");
  check({{0, 4}, {4, 10}}, 4, Status::InvalidTensor,
        "segmented projection parameter qkv.weight has output dimension 12, expected 10");
  const ProjectionModule scalar{{"qkv.gain", {}, std::nullopt}};
  auto error =
      segmented_projection_group("attn", ParameterRole::AttentionHeads, scalar, row, kThirds, 4);
  CHECK(error.error().message == "column projection parameter qkv.gain is scalar");
}

TEST_CASE("assemble rejects a scalar fused member") {
  auto fused = group("fused", {member("g", {}, MemberSharding::replicated())});
  auto row = group("row", {member("o", {8, 4}, MemberSharding::equal(1))});
  auto error = assemble_segmented_projection_group("a", ParameterRole::AttentionHeads, fused, row,
                                                   kThirds, 2, 12);
  CHECK(error.error().code == Status::InvalidTensor);
  CHECK(error.error().message == "segmented projection parameter g is scalar");
}

TEST_CASE("seed: parallel model info preserves opaque topology and accounting") {
  const auto topology = ParallelTopology::create(2, 1, 1, 1).value();
  const ParallelModelInfo info(topology, "generic", {"layer.weight"}, 10, 20, 4, 8);
  CHECK(info.topology() == topology);
  CHECK(info.topology().tensor() == 2);
  CHECK(info.topology().pipeline() == 1);
  CHECK(info.effective_model_type() == "generic");
  CHECK(info.owned_tensors() == std::vector<std::string>{"layer.weight"});
  CHECK(info.local_parameter_bytes() == 10);
  CHECK(info.global_parameter_bytes() == 20);
  CHECK(info.pinned_device_parameter_bytes() == 4);
  CHECK(info.maximum_device_parameter_bytes() == 8);
}
