// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The rank planner: docs/planning.md ("Worked examples"), the derived cases,
// scopes and totals.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include "members.hpp"
#include "plan/planner.hpp"

using namespace eredu;

namespace {

using eredu::test::member;
using eredu::test::model_of;
using eredu::test::Shape;

ParameterGroupSpec group(std::string name, ParameterRole role, std::vector<ParameterMemberSpec> m,
                         GroupScope scope = {}) {
  return ParameterGroupSpec::create(std::move(name), role, std::move(m), scope).value();
}

ParameterGroupSpec partitioned(std::string name, std::uint64_t units,
                               std::vector<ParameterMemberSpec> m, GroupScope scope = {}) {
  return ParameterGroupSpec::partitioned(std::move(name), ParameterRole::AttentionHeads, units,
                                         std::move(m), scope)
      .value();
}

Result<LocalModelLayout> plan(const std::shared_ptr<const ModelDescription>& model,
                              std::uint64_t rank, std::uint64_t tp,
                              ShardingPolicy policy = ShardingPolicy::Require, std::uint64_t pp = 1,
                              std::uint64_t ep = 1, std::uint64_t dp = 1) {
  return plan_rank(model, ParallelTopology::create(tp, pp, ep, dp).value(), rank, policy);
}

const LocalTensorLayout& at(const LocalModelLayout& layout, std::string_view target) {
  const LocalTensorLayout* entry = layout.tensor(target);
  REQUIRE(entry != nullptr);
  return *entry;
}

}  // namespace

TEST_CASE("plans an atomic quantized row projection") {
  auto model = model_of({group("decoder.mlp.down", ParameterRole::RowProjection,
                               {member("down.weight", {8, 16}, MemberSharding::equal(1)),
                                member("down.scales", {8, 4}, MemberSharding::equal(1)),
                                member("down.bias", {8}, MemberSharding::replicated())})});
  auto layout = plan(model, 1, 2).value();
  CHECK(at(layout, "down.weight").local_shape == Shape{8, 8});
  CHECK(at(layout, "down.weight").placement == TensorPlacement::shard(1, 1, 2));
  CHECK(at(layout, "down.scales").local_shape == Shape{8, 2});
  CHECK(at(layout, "down.bias").local_shape == Shape{8});
  CHECK(at(layout, "down.bias").placement == TensorPlacement::replicated());
  CHECK_FALSE(at(layout, "down.weight").logical_range.has_value());
  // Sorted by target.
  REQUIRE(layout.tensors.size() == 3);
  CHECK(layout.tensors[0].target() == "down.bias");
  CHECK(layout.tensors[1].target() == "down.scales");
  CHECK(layout.tensors[2].target() == "down.weight");
}

TEST_CASE("segmented qkv preserves segment order") {
  auto model = model_of({group(
      "qkv", ParameterRole::Segmented,
      {member("qkv.weight", {16, 8}, MemberSharding::segmented(0, {{0, 8}, {8, 12}, {12, 16}}))})});
  auto layout = plan(model, 1, 2).value();
  const auto& qkv = at(layout, "qkv.weight");
  CHECK(qkv.local_shape == Shape{8, 8});
  CHECK(qkv.placement.kind == PlacementKind::Indices);
  CHECK(qkv.placement.expanded_indices() == std::vector<std::uint64_t>{4, 5, 6, 7, 10, 11, 14, 15});
  CHECK(qkv.placement.runs == std::vector<IndexRange>{{4, 8}, {10, 12}, {14, 16}});
}

TEST_CASE("permissive policy replicates the complete group") {
  auto model = model_of({group("indivisible", ParameterRole::Replicated,
                               {member("weight", {10, 4}, MemberSharding::equal(0)),
                                member("bias", {10}, MemberSharding::equal(0))})});
  auto layout = plan(model, 0, 3, ShardingPolicy::ReplicateUnsupported).value();
  for (auto target : {"weight", "bias"}) {
    const auto& entry = at(layout, target);
    CHECK(entry.placement == TensorPlacement::replicated());
    CHECK(entry.fell_back_to_replication);
    CHECK(entry.local_shape == entry.global_shape());
    CHECK_FALSE(entry.logical_units().has_value());
    CHECK_FALSE(entry.logical_range.has_value());
  }
  CHECK(layout.fell_back_groups == std::vector<std::uint32_t>{0});
}

TEST_CASE("strict policy rejects indivisible groups") {
  auto model = model_of({group("indivisible", ParameterRole::Replicated,
                               {member("weight", {10, 4}, MemberSharding::equal(0)),
                                member("bias", {10}, MemberSharding::equal(0))})});
  auto error = plan(model, 0, 3);
  REQUIRE(error.has_error());
  CHECK(error.error().code == Status::InvalidTensor);
  CHECK(error.error().message ==
        "logical parameter \"indivisible\": tensor \"weight\" dimension 10 on axis 0 is not "
        "divisible by TP size 3");
}

TEST_CASE("aligned members share an uneven logical range") {
  auto model = model_of({partitioned("aligned.quantized", 5,
                                     {member("weight", {8, 20}, MemberSharding::partitioned(1)),
                                      member("scales", {8, 10}, MemberSharding::partitioned(1))})});
  const std::vector<IndexRange> logical{{0, 2}, {2, 4}, {4, 5}};
  const std::vector<IndexRange> weight{{0, 8}, {8, 16}, {16, 20}};
  const std::vector<IndexRange> scales{{0, 4}, {4, 8}, {8, 10}};
  for (std::uint64_t r = 0; r < 3; ++r) {
    auto layout = plan(model, r, 3).value();
    const auto& w = at(layout, "weight");
    const auto& s = at(layout, "scales");
    CHECK(w.logical_units() == std::optional<std::uint64_t>{5});
    CHECK(w.logical_range == logical[r]);
    CHECK(s.logical_range == logical[r]);
    CHECK(w.placement == TensorPlacement::range(1, weight[r].start, weight[r].end));
    CHECK(s.placement == TensorPlacement::range(1, scales[r].start, scales[r].end));
  }
}

TEST_CASE("partitioned segments and a packed axis share one logical range") {
  auto model = model_of({partitioned(
      "experts", 5,
      {member("gate_up", {4, 20, 8}, MemberSharding::partitioned_segments(1, {{0, 10}, {10, 20}})),
       member("down.packed", {4, 8, 15}, MemberSharding::partitioned(2))})});
  const std::vector<std::vector<std::uint64_t>> indices{
      {0, 1, 2, 3, 10, 11, 12, 13}, {4, 5, 6, 7, 14, 15, 16, 17}, {8, 9, 18, 19}};
  const std::vector<IndexRange> packed{{0, 6}, {6, 12}, {12, 15}};
  for (std::uint64_t r = 0; r < 3; ++r) {
    auto layout = plan(model, r, 3).value();
    const auto& gate_up = at(layout, "gate_up");
    CHECK(gate_up.placement.axis == 1);
    CHECK(gate_up.placement.expanded_indices() == indices[r]);
    CHECK(gate_up.local_shape == Shape{4, indices[r].size(), 8});
    CHECK(at(layout, "down.packed").placement ==
          TensorPlacement::range(2, packed[r].start, packed[r].end));
  }
}

TEST_CASE("aligned groups reject more ranks than units") {
  auto model =
      model_of({partitioned("key", 2, {member("key", {8, 8}, MemberSharding::partitioned(0))})});
  auto error = plan(model, 0, 3);
  CHECK(error.error().code == Status::InvalidTensor);
  CHECK(error.error().message ==
        "logical parameter \"key\": 2 partition units — declared by the group — cannot be split 3 "
        "ways; tensor sizes up to 64 that work for this group: 1, 2");

  auto fallback = plan(model, 0, 3, ShardingPolicy::ReplicateUnsupported).value();
  const auto& key = at(fallback, "key");
  CHECK(key.placement == TensorPlacement::replicated());
  CHECK(key.logical_units() == std::optional<std::uint64_t>{2});
  CHECK(key.logical_range == IndexRange{0, 2});
  CHECK(key.fell_back_to_replication);
}

TEST_CASE("balanced uneven split") {
  auto model = model_of({group("embed", ParameterRole::Vocabulary,
                               {member("embed", {11, 4}, MemberSharding::balanced(0))})});
  auto layout = plan(model, 2, 3).value();
  CHECK(at(layout, "embed").placement == TensorPlacement::range(0, 8, 11));
  CHECK(at(layout, "embed").local_shape == Shape{3, 4});
}

TEST_CASE("resolution errors carry the reference texts") {
  struct Case {
    MemberSharding sharding;
    Shape shape;
    std::string message;
  };
  const std::vector<Case> cases{
      {MemberSharding::equal(2), {8, 8}, "tensor \"t\" axis 2 is outside shape [8, 8]"},
      {MemberSharding::segmented(0, {}),
       {8, 8},
       "tensor \"t\" segmented placement has no segments"},
      {MemberSharding::segmented(0, {{0, 4}, {2, 8}}),
       {8, 8},
       "tensor \"t\" segmented ranges overlap or are out of order"},
      {MemberSharding::segmented(0, {{4, 4}}),
       {8, 8},
       "tensor \"t\" segment 4..4 is invalid for axis-0 dimension 8"},
      {MemberSharding::segmented(0, {{0, 9}}),
       {8, 8},
       "tensor \"t\" segment 0..9 is invalid for axis-0 dimension 8"},
      {MemberSharding::segmented(0, {{0, 1}}),
       {8, 8},
       "tensor \"t\" segment 0..1 cannot be split 2 ways"},
  };
  for (const auto& c : cases) {
    auto model =
        model_of({group("g", ParameterRole::Segmented, {member("t", c.shape, c.sharding)})});
    auto error = plan(model, 0, 2);
    REQUIRE(error.has_error());
    CHECK(error.error().code == Status::InvalidTensor);
    CHECK(error.error().message == "logical parameter \"g\": " + c.message);
  }
  const std::vector<Case> partitioned_cases{
      {MemberSharding::partitioned(0),
       {6, 8},
       "tensor \"t\" dimension 6 on axis 0 does not contain 4 integral logical units"},
      {MemberSharding::partitioned_segments(0, {}),
       {8, 8},
       "tensor \"t\" partitioned placement has no segments"},
      {MemberSharding::partitioned_segments(0, {{0, 4}, {2, 6}}),
       {8, 8},
       "tensor \"t\" partitioned ranges overlap or are out of order"},
      {MemberSharding::partitioned_segments(0, {{0, 6}}),
       {8, 8},
       "tensor \"t\" segment 0..6 does not contain 4 integral logical units"},
  };
  for (const auto& c : partitioned_cases) {
    auto model = model_of({partitioned("g", 4, {member("t", c.shape, c.sharding)})});
    auto error = plan(model, 0, 2);
    REQUIRE(error.has_error());
    CHECK(error.error().message == "logical parameter \"g\": " + c.message);
  }
}

TEST_CASE("placement validation still runs under the permissive policy") {
  // An equal split of a zero-length axis resolves but is not a valid shard.
  auto model = model_of(
      {group("zero", ParameterRole::Channels, {member("z", {0, 4}, MemberSharding::equal(0))})});
  auto strict = plan(model, 0, 2);
  CHECK(strict.error().code == Status::InvalidTensor);
  CHECK(strict.error().message ==
        "logical parameter \"zero\": placement for tensor z: tensor dimension 0 on axis 0 is not "
        "nonzero and divisible by 2");
  auto permissive = plan(model, 0, 2, ShardingPolicy::ReplicateUnsupported);
  CHECK(permissive.error().code == Status::InvalidTensor);
  CHECK(permissive.error().message ==
        "placement for tensor z: tensor dimension 0 on axis 0 is not nonzero and divisible by 2");
}

TEST_CASE("topology and preflight errors come before group errors") {
  auto model = model_of({group("indivisible", ParameterRole::Replicated,
                               {member("w", {10, 4}, MemberSharding::equal(0))})},
                        ModelInfo{std::nullopt, 3, std::nullopt});
  CHECK(plan_rank(model, ParallelTopology::create(3, 1, 1, 1).value(), 3, ShardingPolicy::Require)
            .error()
            .code == Status::RankOutOfRange);
  CHECK(plan(model, 0, 3, ShardingPolicy::Require, 4).error().code == Status::EmptyPartition);
  CHECK(plan(model, 0, 3, ShardingPolicy::Require, 1, 2).error().code ==
        Status::MissingExpertCount);
  auto no_layers = model_of(
      {group("n", ParameterRole::Replicated, {member("n", {4}, MemberSharding::replicated())})});
  CHECK(plan(no_layers, 0, 1, ShardingPolicy::Require, 2).error().code ==
        Status::MissingLayerCount);
}

TEST_CASE("scopes decide pipeline and expert ownership; bytes and totals follow") {
  const auto f32 = Dtype::F32;
  auto model = model_of(
      {group("embed", ParameterRole::Vocabulary,
             {member("embed", {8, 4}, MemberSharding::balanced(0), f32)}, GroupScope::embedding()),
       group("layer0", ParameterRole::Replicated,
             {member("l0", {4}, MemberSharding::replicated(), f32)}, GroupScope::indexed(0, {})),
       group("layer1.expert1", ParameterRole::ExpertIntermediate,
             {member("l1e1", {6, 4}, MemberSharding::equal(0), Dtype::BF16)},
             GroupScope::indexed(1, 1)),
       group("head", ParameterRole::Vocabulary,
             {member("head", {8, 4}, MemberSharding::balanced(0)),
              member("norm", {4}, MemberSharding::replicated(), f32)},
             GroupScope::output_head()),
       group("tied", ParameterRole::Replicated,
             {member("tied", {2}, MemberSharding::replicated(), f32)},
             GroupScope::tied_embedding())},
      ModelInfo{"scoped", 2, 2});
  // TP 2 × PP 2 × EP 2: rank = (p·2 + t)·2 + e.
  auto first = plan(model, 0, 2, ShardingPolicy::Require, 2, 2).value();  // t0 p0 e0
  CHECK(first.coordinates == ParallelCoordinates{0, 0, 0, 0});
  CHECK(at(first, "embed").placement == TensorPlacement::range(0, 0, 4));
  CHECK(at(first, "embed").local_bytes == std::optional<std::uint64_t>{64});
  CHECK(at(first, "l0").placement == TensorPlacement::replicated());
  CHECK(at(first, "l1e1").placement == TensorPlacement::omit());
  CHECK(at(first, "l1e1").local_shape.empty());
  CHECK(at(first, "l1e1").local_bytes == std::optional<std::uint64_t>{0});
  CHECK(at(first, "head").placement == TensorPlacement::omit());
  CHECK(at(first, "tied").placement == TensorPlacement::replicated());
  CHECK(first.totals.materialized_tensors == 3);
  CHECK(first.totals.omitted_tensors == 3);
  CHECK(first.totals.local_bytes == 64 + 16 + 8);
  CHECK(first.totals.global_bytes == 128 + 16 + 48 + 16 + 8);
  CHECK(first.totals.unknown_bytes_tensors == 1);

  auto last = plan(model, 7, 2, ShardingPolicy::Require, 2, 2).value();  // t1 p1 e1
  CHECK(last.coordinates == ParallelCoordinates{1, 1, 1, 0});
  CHECK(at(last, "embed").placement == TensorPlacement::omit());
  CHECK(at(last, "l0").placement == TensorPlacement::omit());
  CHECK(at(last, "l1e1").placement == TensorPlacement::shard(0, 1, 2));
  CHECK(at(last, "l1e1").local_bytes == std::optional<std::uint64_t>{24});
  CHECK(at(last, "head").placement == TensorPlacement::range(0, 4, 8));
  CHECK_FALSE(at(last, "head").local_bytes.has_value());
  CHECK(at(last, "tied").placement == TensorPlacement::replicated());
  CHECK(last.totals.local_bytes == 24 + 16 + 8);

  auto other_expert = plan(model, 6, 2, ShardingPolicy::Require, 2, 2).value();  // t1 p1 e0
  CHECK(at(other_expert, "l1e1").placement == TensorPlacement::omit());
}

TEST_CASE("ownership never hides an invalid member") {
  auto model =
      model_of({group("layer1", ParameterRole::Replicated,
                      {member("w", {3, 4}, MemberSharding::equal(0))}, GroupScope::indexed(1, {}))},
               ModelInfo{std::nullopt, 2, std::nullopt});
  // Rank 0 (stage 0) does not own layer 1 but still fails on it.
  CHECK(plan(model, 0, 2, ShardingPolicy::Require, 2).error().code == Status::InvalidTensor);
}

TEST_CASE("two planning threads give the single-thread layout and the first error") {
  // Large enough for plan_rank to split the groups over two threads.
  constexpr std::uint64_t kGroups = 20000;
  auto build = [](std::optional<std::uint64_t> bad_a, std::optional<std::uint64_t> bad_b) {
    std::vector<ParameterGroupSpec> groups;
    for (std::uint64_t g = 0; g < kGroups; ++g) {
      const bool bad = g == bad_a || g == bad_b;
      const std::uint64_t rows = bad ? 7 : 8;
      groups.push_back(
          ParameterGroupSpec::create(
              fmt::format("g{}", g), ParameterRole::ColumnProjection,
              {member(fmt::format("t{}", g), {rows, 4},
                      g % 3 == 0 ? MemberSharding::balanced(0) : MemberSharding::equal(0),
                      Dtype::F16)})
              .value());
    }
    return model_of(std::move(groups));
  };
  auto topology = ParallelTopology::create(2, 1, 1, 1).value();

  auto good = build(std::nullopt, std::nullopt);
  auto one = plan_rank(good, topology, 1, ShardingPolicy::Require, 1).value();
  auto two = plan_rank(good, topology, 1, ShardingPolicy::Require, 2).value();
  CHECK(one.totals == two.totals);
  CHECK(one.totals.local_bytes == kGroups * 4 * 4 * 2);
  REQUIRE(one.tensors.size() == two.tensors.size());
  std::size_t mismatches = 0;
  for (std::size_t i = 0; i < one.tensors.size(); ++i) {
    const auto& a = one.tensors[i];
    const auto& b = two.tensors[i];
    mismatches += a.target() != b.target() || !(a.placement == b.placement) ||
                  a.local_shape != b.local_shape || a.local_bytes != b.local_bytes;
  }
  CHECK(mismatches == 0);
  CHECK(two.tensors[1].target() == "t1");  // sorted byte-wise: t0, t1, t10, ...
  CHECK(two.tensors[2].target() == "t10");

  auto bad = build(15001, 5000);  // 7 rows cannot be split evenly in two
  for (unsigned threads : {1u, 2u}) {
    auto error = plan_rank(bad, topology, 0, ShardingPolicy::Require, threads);
    REQUIRE(error.has_error());
    CHECK(error.error().message.find("\"g5000\"") != std::string::npos);
  }
  for (unsigned threads : {1u, 2u}) {
    auto fallback =
        plan_rank(bad, topology, 0, ShardingPolicy::ReplicateUnsupported, threads).value();
    CHECK(fallback.fell_back_groups == std::vector<std::uint32_t>{5000, 15001});
  }
}

TEST_CASE("huge axis sizes cost nothing: planning never enumerates an axis") {
  auto model = model_of(
      {partitioned("attn", 8, {member("w", {8, 4}, MemberSharding::partitioned(0), Dtype::F32)}),
       group("norm", ParameterRole::Replicated,
             {member("n", {4}, MemberSharding::replicated(), Dtype::F32)})});
  auto tensor = plan_rank(model, ParallelTopology::create(UINT64_MAX, 1, 1, 1).value(), 0,
                          ShardingPolicy::Require);
  CHECK(tensor.error().code == Status::InvalidTensor);
  CHECK(tensor.error().message ==
        "logical parameter \"attn\": 8 partition units — w rows 8 — cannot be split "
        "18446744073709551615 ways; tensor sizes up to 64 that work for this group: 1, 2, 3, 4, 5, "
        "6, 7, 8");
  auto data = plan_rank(model, ParallelTopology::create(2, 1, 1, UINT64_MAX / 2).value(), 5,
                        ShardingPolicy::Require)
                  .value();
  CHECK(data.coordinates == ParallelCoordinates{1, 0, 0, 2});
  CHECK(at(data, "w").placement == TensorPlacement::range(0, 4, 8));
  CHECK(data.totals.local_bytes == 64 + 16);
}

TEST_CASE("every failing group is reported, in document order, whatever the thread count") {
  auto builder = ModelBuilder::create({}).value();
  const std::uint32_t count = static_cast<std::uint32_t>(kParallelTensors) + 4000;
  for (std::uint32_t i = 0; i < count; ++i) {
    // Every 5000th group has a dimension 3 ranks cannot split evenly.
    const std::uint64_t rows = i % 5000 == 7 ? 4 : 6;
    REQUIRE(builder.add_group(
        group(fmt::format("g{}", i), ParameterRole::RowProjection,
              {member(fmt::format("t{}", i), {rows}, MemberSharding::equal(0))})));
  }
  auto model = std::move(builder).finish().value();
  const auto topology = ParallelTopology::create(3, 1, 1, 1).value();
  auto one = plan_rank(model, topology, 0, ShardingPolicy::Require, 1);
  auto two = plan_rank(model, topology, 0, ShardingPolicy::Require, 2);
  REQUIRE_FALSE(one);
  REQUIRE_FALSE(two);
  const auto& entries = one.error().entries;
  REQUIRE(entries.size() == 5);  // groups 7, 5007, 10007, 15007, 20007
  for (std::size_t k = 0; k < entries.size(); ++k) {
    const std::uint32_t index = 7 + 5000 * static_cast<std::uint32_t>(k);
    CHECK(entries[k].code == Status::InvalidTensor);
    CHECK(entries[k].group == fmt::format("g{}", index));
    CHECK(entries[k].tensor == fmt::format("t{}", index));
    CHECK(entries[k].message ==
          fmt::format("logical parameter \"g{}\": tensor \"t{}\" dimension 4 on axis 0 is not "
                      "divisible by TP size 3",
                      index, index));
    CHECK(two.error().entries[k].message == entries[k].message);
  }
  CHECK(two.error().entries.size() == 5);
  CHECK(one.error().message == entries.front().message);
}
