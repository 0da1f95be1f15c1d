// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The rank planner through eredu_plan_rank, with the exact values of
// docs/planning.md ("Worked examples") and the planning errors of
// docs/interchange.md.
#include <doctest/doctest.h>
#include <eredu/eredu.h>

#include <string>
#include <thread>
#include <vector>

#include "capi_support.hpp"

using namespace capi_test;

namespace {

Made<Model> single_group_model(const char* name, eredu_role role,
                               std::optional<std::uint64_t> units,
                               const std::vector<MemberSpec>& members) {
  const auto group = new_group(name, role, units, members);
  REQUIRE(group.status == EREDU_OK);
  return new_model({group.handle.get()});
}

Made<Model> down_projection() {
  return single_group_model(
      "decoder.mlp.down", EREDU_ROLE_ROW_PROJECTION, std::nullopt,
      {sharded("down.weight", {8, 16}, EREDU_SHARDING_EQUAL, 1),
       sharded("down.scales", {8, 4}, EREDU_SHARDING_EQUAL, 1), replicated("down.bias", {8})});
}

}  // namespace

TEST_SUITE("capi.plan") {
  TEST_CASE("plans an atomic quantized row projection") {
    const auto model = down_projection();
    REQUIRE(model.status == EREDU_OK);
    const auto made = plan_tp(model.handle.get(), 1, 2);
    REQUIRE(made.status == EREDU_OK);
    const eredu_layout* layout = made.handle.get();

    const eredu_layout_tensor_info weight = placement(layout, "down.weight");
    CHECK(weight.placement == EREDU_PLACEMENT_SHARD);
    CHECK(weight.axis == 1);
    CHECK(weight.shard_index == 1);
    CHECK(weight.shard_parts == 2);
    CHECK(weight.runs == nullptr);
    CHECK(local_shape(layout, "down.weight") == Shape{8, 8});
    CHECK(local_shape(layout, "down.scales") == Shape{8, 2});
    CHECK(local_shape(layout, "down.bias") == Shape{8});
    CHECK(placement(layout, "down.bias").placement == EREDU_PLACEMENT_REPLICATED);

    CHECK(local_bytes(layout, "down.weight") == std::optional<std::uint64_t>(256));
    CHECK(local_bytes(layout, "down.scales") == std::optional<std::uint64_t>(64));
    CHECK(local_bytes(layout, "down.bias") == std::optional<std::uint64_t>(32));
    CHECK_FALSE(logical_units(layout, "down.weight").has_value());
    CHECK_FALSE(logical_range(layout, "down.weight").has_value());
    CHECK_FALSE(fell_back(layout, "down.weight"));

    // Sorted by target, byte-wise.
    const std::size_t count = eredu_layout_tensor_count(layout);
    REQUIRE(count == 3);
    const char* expected[] = {"down.bias", "down.scales", "down.weight"};
    for (std::size_t i = 0; i < count; ++i) {
      const eredu_layout_tensor_info info = tensor_info(layout, i);
      CHECK(info.struct_size == sizeof(eredu_layout_tensor_info));
      CHECK(std::string(info.target, info.target_length) == expected[i]);
      CHECK(index_of(layout, expected[i]) == i);
      CHECK(std::string(info.logical_name, info.logical_name_length) == "decoder.mlp.down");
      CHECK(info.role == EREDU_ROLE_ROW_PROJECTION);
      CHECK(info.has_dtype == 1);
      CHECK(info.dtype == EREDU_DTYPE_F32);
    }

    eredu_layout_info totals = EREDU_LAYOUT_INFO_INIT;
    REQUIRE(eredu_layout_get_info(layout, &totals, nullptr) == EREDU_OK);
    CHECK(totals.struct_size == sizeof(eredu_layout_info));
    CHECK(totals.tensor_count == 3);
    CHECK(totals.local_bytes == 352);
    CHECK(totals.global_bytes == 672);
    CHECK(totals.materialized_tensors == 3);
    CHECK(totals.omitted_tensors == 0);
    CHECK(totals.unknown_bytes_tensors == 0);

    CHECK(eredu_model_global_bytes(model.handle.get()) == 672);
  }

  TEST_CASE("segmented qkv preserves segment order") {
    const auto model = single_group_model(
        "qkv", EREDU_ROLE_SEGMENTED, std::nullopt,
        {sharded("qkv.weight", {16, 8}, EREDU_SHARDING_SEGMENTED, 0, {0, 8, 8, 12, 12, 16})});
    REQUIRE(model.status == EREDU_OK);
    const auto made = plan_tp(model.handle.get(), 1, 2);
    REQUIRE(made.status == EREDU_OK);
    const eredu_layout_tensor_info qkv = placement(made.handle.get(), "qkv.weight");
    CHECK(qkv.placement == EREDU_PLACEMENT_INDICES);
    CHECK(qkv.axis == 0);
    CHECK(qkv.run_count == 3);
    CHECK(runs(qkv) == Shape{4, 8, 10, 12, 14, 16});
    CHECK(qkv.index_count == 8);
    CHECK(local_shape(made.handle.get(), "qkv.weight") == Shape{8, 8});
  }

  TEST_CASE("permissive policy replicates the complete group") {
    const auto model = single_group_model("indivisible", EREDU_ROLE_ROW_PROJECTION, std::nullopt,
                                          {sharded("weight", {10, 4}, EREDU_SHARDING_EQUAL, 0),
                                           sharded("bias", {10}, EREDU_SHARDING_EQUAL, 0)});
    REQUIRE(model.status == EREDU_OK);
    const auto made = plan_tp(model.handle.get(), 0, 3, EREDU_POLICY_REPLICATE_UNSUPPORTED);
    REQUIRE(made.status == EREDU_OK);
    const eredu_layout* layout = made.handle.get();
    for (const char* target : {"weight", "bias"}) {
      CHECK(placement(layout, target).placement == EREDU_PLACEMENT_REPLICATED);
      CHECK(fell_back(layout, target));
      CHECK(local_shape(layout, target) == global_shape(layout, target));
      CHECK_FALSE(logical_units(layout, target).has_value());
      CHECK_FALSE(logical_range(layout, target).has_value());
    }
    eredu_layout_info info = EREDU_LAYOUT_INFO_INIT;
    CHECK(eredu_layout_get_info(layout, &info, nullptr) == EREDU_OK);
    CHECK(info.policy == EREDU_POLICY_REPLICATE_UNSUPPORTED);
  }

  TEST_CASE("strict policy rejects indivisible groups") {
    const auto model = single_group_model("indivisible", EREDU_ROLE_ROW_PROJECTION, std::nullopt,
                                          {sharded("weight", {10, 4}, EREDU_SHARDING_EQUAL, 0),
                                           sharded("bias", {10}, EREDU_SHARDING_EQUAL, 0)});
    REQUIRE(model.status == EREDU_OK);
    const auto made = plan_tp(model.handle.get(), 0, 3);
    CHECK(made.status == EREDU_E_INVALID_TENSOR);
    CHECK(made.error_code == EREDU_E_INVALID_TENSOR);
    CHECK(made.handle == nullptr);
    CHECK(made.message ==
          "logical parameter \"indivisible\": tensor \"weight\" dimension 10 on axis 0 is not "
          "divisible by TP size 3");
  }

  TEST_CASE("require_even refuses the uneven split require accepts") {
    const auto model =
        single_group_model("aligned.quantized", EREDU_ROLE_ATTENTION_HEADS, 5,
                           {sharded("weight", {8, 20}, EREDU_SHARDING_PARTITIONED, 1),
                            sharded("scales", {8, 10}, EREDU_SHARDING_PARTITIONED, 1)});
    REQUIRE(model.status == EREDU_OK);
    CHECK(plan_tp(model.handle.get(), 0, 3).status == EREDU_OK);
    const auto uneven = plan_tp(model.handle.get(), 0, 3, EREDU_POLICY_REQUIRE_EVEN);
    CHECK(uneven.status == EREDU_E_INVALID_TENSOR);
    CHECK(uneven.handle == nullptr);
    CHECK(uneven.message ==
          "logical parameter \"aligned.quantized\": the group's 5 partition units do not split "
          "evenly 3 ways under require_even; sizes up to 64 that divide it: 1, 5");
    const auto even = plan_tp(model.handle.get(), 0, 5, EREDU_POLICY_REQUIRE_EVEN);
    REQUIRE(even.status == EREDU_OK);
    eredu_layout_info info = EREDU_LAYOUT_INFO_INIT;
    CHECK(eredu_layout_get_info(even.handle.get(), &info, nullptr) == EREDU_OK);
    CHECK(info.policy == EREDU_POLICY_REQUIRE_EVEN);
    CHECK(local_shape(even.handle.get(), "weight") == Shape{8, 4});
  }

  TEST_CASE("aligned members share an uneven logical range") {
    const auto model =
        single_group_model("aligned.quantized", EREDU_ROLE_ATTENTION_HEADS, 5,
                           {sharded("weight", {8, 20}, EREDU_SHARDING_PARTITIONED, 1),
                            sharded("scales", {8, 10}, EREDU_SHARDING_PARTITIONED, 1)});
    REQUIRE(model.status == EREDU_OK);
    const std::uint64_t logical[3][2] = {{0, 2}, {2, 4}, {4, 5}};
    const std::uint64_t weight_ranges[3][2] = {{0, 8}, {8, 16}, {16, 20}};
    const std::uint64_t scale_ranges[3][2] = {{0, 4}, {4, 8}, {8, 10}};
    for (std::uint64_t rank = 0; rank < 3; ++rank) {
      CAPTURE(rank);
      const auto made = plan_tp(model.handle.get(), rank, 3);
      REQUIRE(made.status == EREDU_OK);
      const eredu_layout* layout = made.handle.get();
      for (const char* target : {"weight", "scales"}) {
        CHECK(logical_units(layout, target) == std::optional<std::uint64_t>(5));
        CHECK(logical_range(layout, target) == std::pair{logical[rank][0], logical[rank][1]});
      }
      const eredu_layout_tensor_info weight = placement(layout, "weight");
      CHECK(weight.placement == EREDU_PLACEMENT_RANGE);
      CHECK(weight.axis == 1);
      CHECK(weight.start == weight_ranges[rank][0]);
      CHECK(weight.end == weight_ranges[rank][1]);
      const eredu_layout_tensor_info scales = placement(layout, "scales");
      CHECK(scales.placement == EREDU_PLACEMENT_RANGE);
      CHECK(scales.start == scale_ranges[rank][0]);
      CHECK(scales.end == scale_ranges[rank][1]);
      CHECK(local_shape(layout, "weight") ==
            Shape{8, weight_ranges[rank][1] - weight_ranges[rank][0]});
    }
  }

  TEST_CASE("partitioned segments and a packed axis share one logical range") {
    const auto model = single_group_model(
        "experts", EREDU_ROLE_EXPERT_INTERMEDIATE, 5,
        {sharded("gate_up", {4, 20, 8}, EREDU_SHARDING_PARTITIONED_SEGMENTS, 1, {0, 10, 10, 20}),
         sharded("down.packed", {4, 8, 15}, EREDU_SHARDING_PARTITIONED, 2)});
    REQUIRE(model.status == EREDU_OK);
    const Shape expected_runs[3] = {{0, 4, 10, 14}, {4, 8, 14, 18}, {8, 10, 18, 20}};
    const std::uint64_t counts[3] = {8, 8, 4};
    const std::uint64_t packed[3][2] = {{0, 6}, {6, 12}, {12, 15}};
    for (std::uint64_t rank = 0; rank < 3; ++rank) {
      CAPTURE(rank);
      const auto made = plan_tp(model.handle.get(), rank, 3);
      REQUIRE(made.status == EREDU_OK);
      const eredu_layout_tensor_info gate_up = placement(made.handle.get(), "gate_up");
      CHECK(gate_up.placement == EREDU_PLACEMENT_INDICES);
      CHECK(gate_up.axis == 1);
      CHECK(runs(gate_up) == expected_runs[rank]);
      CHECK(gate_up.index_count == counts[rank]);
      CHECK(local_shape(made.handle.get(), "gate_up") == Shape{4, counts[rank], 8});
      const eredu_layout_tensor_info down = placement(made.handle.get(), "down.packed");
      CHECK(down.placement == EREDU_PLACEMENT_RANGE);
      CHECK(down.axis == 2);
      CHECK(down.start == packed[rank][0]);
      CHECK(down.end == packed[rank][1]);
    }
  }

  TEST_CASE("aligned groups reject more ranks than units") {
    const auto model = single_group_model("kv", EREDU_ROLE_ATTENTION_HEADS, 2,
                                          {sharded("key", {8, 8}, EREDU_SHARDING_PARTITIONED, 0)});
    REQUIRE(model.status == EREDU_OK);
    const auto strict = plan_tp(model.handle.get(), 0, 3);
    CHECK(strict.status == EREDU_E_INVALID_TENSOR);
    CHECK(strict.message ==
          "logical parameter \"kv\": 2 partition units — declared by the group — cannot be split "
          "3 ways; tensor sizes up to 64 that work for this group: 1, 2");

    // Under the permissive policy the partitioned group falls back whole.
    const auto permissive = plan_tp(model.handle.get(), 0, 3, EREDU_POLICY_REPLICATE_UNSUPPORTED);
    REQUIRE(permissive.status == EREDU_OK);
    const eredu_layout* layout = permissive.handle.get();
    CHECK(placement(layout, "key").placement == EREDU_PLACEMENT_REPLICATED);
    CHECK(fell_back(layout, "key"));
    CHECK(logical_units(layout, "key") == std::optional<std::uint64_t>(2));
    CHECK(logical_range(layout, "key") == std::pair<std::uint64_t, std::uint64_t>{0, 2});
  }

  TEST_CASE("balanced uneven split") {
    const auto model =
        single_group_model("embed", EREDU_ROLE_VOCABULARY, std::nullopt,
                           {sharded("embedding.weight", {11, 4}, EREDU_SHARDING_BALANCED, 0)});
    REQUIRE(model.status == EREDU_OK);
    const auto made = plan_tp(model.handle.get(), 2, 3);
    REQUIRE(made.status == EREDU_OK);
    const eredu_layout_tensor_info range = placement(made.handle.get(), "embedding.weight");
    CHECK(range.placement == EREDU_PLACEMENT_RANGE);
    CHECK(range.axis == 0);
    CHECK(range.start == 8);
    CHECK(range.end == 11);
    CHECK(local_shape(made.handle.get(), "embedding.weight") == Shape{3, 4});
  }

  TEST_CASE("placement validation fails under either policy") {
    const auto model = single_group_model("zero", EREDU_ROLE_COLUMN_PROJECTION, std::nullopt,
                                          {sharded("empty", {0, 4}, EREDU_SHARDING_EQUAL, 0)});
    REQUIRE(model.status == EREDU_OK);
    CHECK(plan_tp(model.handle.get(), 0, 2).status == EREDU_E_INVALID_TENSOR);
    CHECK(plan_tp(model.handle.get(), 0, 2, EREDU_POLICY_REPLICATE_UNSUPPORTED).status ==
          EREDU_E_INVALID_TENSOR);
  }

  TEST_CASE("planning errors come in the documented order") {
    const auto model = down_projection();
    REQUIRE(model.status == EREDU_OK);
    const eredu_model* handle = model.handle.get();

    CHECK(plan(handle, 0, 1, 1, 1, 5).status == EREDU_E_ZERO_AXIS);
    CHECK(plan(handle, 2, 1, 1, 0, 0).status == EREDU_E_ZERO_AXIS);
    CHECK(plan(handle, 1ULL << 32, 1ULL << 32, 1, 1, 0).status == EREDU_E_WORLD_SIZE_OVERFLOW);
    const auto out_of_range = plan_tp(handle, 2, 2);
    CHECK(out_of_range.status == EREDU_E_RANK_OUT_OF_RANGE);
    CHECK(out_of_range.error_code == EREDU_E_RANK_OUT_OF_RANGE);
    CHECK(plan(handle, 2, 2, 1, 1, 0).status == EREDU_E_MISSING_LAYER_COUNT);
    CHECK(plan(handle, 2, 1, 2, 1, 0).status == EREDU_E_MISSING_EXPERT_COUNT);
    // Rank errors come before preflight errors.
    CHECK(plan(handle, 2, 2, 1, 1, 4).status == EREDU_E_RANK_OUT_OF_RANGE);

    // Fewer layers than stages.
    const auto group = new_group("w", EREDU_ROLE_REPLICATED, std::nullopt, {replicated("w", {2})});
    eredu_model_info info = EREDU_MODEL_INFO_INIT;
    info.has_layers = 1;
    info.layers = 1;
    const auto one_layer = new_model({group.handle.get()}, &info);
    REQUIRE(one_layer.status == EREDU_OK);
    CHECK(plan(one_layer.handle.get(), 1, 2, 1, 1, 0).status == EREDU_E_EMPTY_PARTITION);

    // Topology errors come before member errors.
    const auto strict = single_group_model("indivisible", EREDU_ROLE_ROW_PROJECTION, std::nullopt,
                                           {sharded("weight", {10, 4}, EREDU_SHARDING_EQUAL, 0)});
    CHECK(plan(strict.handle.get(), 3, 2, 1, 1, 0).status == EREDU_E_MISSING_LAYER_COUNT);
    CHECK(plan_tp(strict.handle.get(), 0, 3).status == EREDU_E_INVALID_TENSOR);
  }

  TEST_CASE("layout reports its topology, rank, coordinates and policy") {
    eredu_model_info info = EREDU_MODEL_INFO_INIT;
    info.has_layers = 1;
    info.layers = 7;
    info.has_experts = 1;
    info.experts = 5;
    const auto model = new_model({}, &info);
    REQUIRE(model.status == EREDU_OK);
    const auto made = plan(model.handle.get(), 2, 3, 2, 2, 22);
    REQUIRE(made.status == EREDU_OK);
    const eredu_layout* layout = made.handle.get();

    eredu_topology topology = EREDU_TOPOLOGY_INIT;
    CHECK(eredu_layout_topology(layout, &topology, nullptr) == EREDU_OK);
    CHECK(topology.tensor == 2);
    CHECK(topology.pipeline == 3);
    CHECK(topology.expert == 2);
    CHECK(topology.data == 2);
    eredu_layout_info placed = EREDU_LAYOUT_INFO_INIT;
    CHECK(eredu_layout_get_info(layout, &placed, nullptr) == EREDU_OK);
    CHECK(placed.tensor_rank == 1);
    CHECK(placed.pipeline_rank == 2);
    CHECK(placed.expert_rank == 0);
    CHECK(placed.data_rank == 1);
    CHECK(placed.rank == 22);
    CHECK(placed.policy == EREDU_POLICY_REQUIRE);
    CHECK(placed.tensor_count == 0);
    CHECK(eredu_layout_tensor_count(layout) == 0);
  }

  TEST_CASE("lookup by target") {
    const auto model = down_projection();
    const auto made = plan_tp(model.handle.get(), 0, 2);
    REQUIRE(made.status == EREDU_OK);
    std::size_t index = 7;
    CHECK(eredu_layout_find_tensor(made.handle.get(), "down.scales", &index, nullptr) == EREDU_OK);
    CHECK(index == 1);

    ErrorSlot error;
    index = 7;
    CHECK(eredu_layout_find_tensor(made.handle.get(), "down.missing", &index, error.slot()) ==
          EREDU_E_NOT_FOUND);
    CHECK(index == 0);
    CHECK(error.code() == EREDU_E_NOT_FOUND);
    CHECK(error.message().find("down.missing") != std::string::npos);
    CHECK(eredu_layout_find_tensor(made.handle.get(), "", &index, nullptr) == EREDU_E_NOT_FOUND);
  }

  TEST_CASE("members without a dtype have unknown bytes") {
    MemberSpec untyped = sharded("untyped", {4, 4}, EREDU_SHARDING_EQUAL, 0);
    untyped.dtype.reset();
    const auto model =
        single_group_model("g", EREDU_ROLE_COLUMN_PROJECTION, std::nullopt,
                           {untyped, sharded("typed", {4, 4}, EREDU_SHARDING_EQUAL, 0)});
    REQUIRE(model.status == EREDU_OK);
    const auto made = plan_tp(model.handle.get(), 0, 2);
    REQUIRE(made.status == EREDU_OK);
    CHECK_FALSE(local_bytes(made.handle.get(), "untyped").has_value());
    CHECK(local_bytes(made.handle.get(), "typed") == std::optional<std::uint64_t>(32));
    const eredu_layout_tensor_info untyped_info = tensor_info(made.handle.get(), "untyped");
    CHECK(untyped_info.has_dtype == 0);
    CHECK(untyped_info.dtype == 0);
    eredu_layout_info totals = EREDU_LAYOUT_INFO_INIT;
    REQUIRE(eredu_layout_get_info(made.handle.get(), &totals, nullptr) == EREDU_OK);
    CHECK(totals.local_bytes == 32);
    CHECK(totals.global_bytes == 64);
    CHECK(totals.unknown_bytes_tensors == 1);
  }

  TEST_CASE("a layout outlives its model handle") {
    auto model = down_projection();
    auto made = plan_tp(model.handle.get(), 1, 2);
    REQUIRE(made.status == EREDU_OK);
    const std::string before = to_json(made.handle.get());
    model.handle.reset();
    CHECK(to_json(made.handle.get()) == before);
    CHECK(std::string(tensor_info(made.handle.get(), std::size_t{0}).logical_name) ==
          "decoder.mlp.down");
  }

  TEST_CASE("ranks plan concurrently from one model") {
    const auto model = single_group_model(
        "experts", EREDU_ROLE_EXPERT_INTERMEDIATE, 8,
        {sharded("gate_up", {4, 32, 8}, EREDU_SHARDING_PARTITIONED_SEGMENTS, 1, {0, 16, 16, 32}),
         sharded("down", {4, 8, 16}, EREDU_SHARDING_PARTITIONED, 2)});
    REQUIRE(model.status == EREDU_OK);
    std::vector<std::string> sequential;
    for (std::uint64_t rank = 0; rank < 4; ++rank) {
      sequential.push_back(to_json(plan_tp(model.handle.get(), rank, 4).handle.get()));
    }
    std::vector<std::string> concurrent(4);
    std::vector<std::thread> threads;
    for (std::uint64_t rank = 0; rank < 4; ++rank) {
      threads.emplace_back([&, rank] {
        for (int repeat = 0; repeat < 20; ++repeat) {
          concurrent[rank] = to_json(plan_tp(model.handle.get(), rank, 4).handle.get());
        }
      });
    }
    for (std::thread& thread : threads) thread.join();
    CHECK(concurrent == sequential);
    CHECK_FALSE(sequential[0].empty());
  }
}
