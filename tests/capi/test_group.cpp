// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The seed's group construction (ParameterGroupSpec) through eredu_group_new.
#include <doctest/doctest.h>
#include <eredu/eredu.h>

#include <cstring>
#include <string>

#include "capi_support.hpp"

using namespace capi_test;

TEST_SUITE("capi.group") {
  TEST_CASE("groups reject duplicate physical targets") {
    const auto made = new_group("attention", EREDU_ROLE_ATTENTION_HEADS, std::nullopt,
                                {replicated("q.weight", {8, 8}), replicated("q.weight", {8, 8})});
    CHECK(made.status == EREDU_E_INVALID_GROUP);
    CHECK(made.error_code == EREDU_E_INVALID_GROUP);
    CHECK(made.handle == nullptr);
    CHECK(made.message.find("repeats tensor target") != std::string::npos);
    CHECK(made.message ==
          "parallel parameter group \"attention\" repeats tensor target \"q.weight\"");
  }

  TEST_CASE("group partition contract is explicit") {
    const auto unpartitioned =
        new_group("query", EREDU_ROLE_ATTENTION_HEADS, std::nullopt,
                  {sharded("q.weight", {8, 8}, EREDU_SHARDING_PARTITIONED, 0)});
    CHECK(unpartitioned.status == EREDU_E_INVALID_GROUP);
    CHECK(unpartitioned.message.find("group-level logical partition") != std::string::npos);

    const auto partitioned =
        new_group("query", EREDU_ROLE_ATTENTION_HEADS, 4,
                  {sharded("q.weight", {8, 8}, EREDU_SHARDING_PARTITIONED, 0)});
    REQUIRE(partitioned.status == EREDU_OK);
    eredu_group_info info = EREDU_GROUP_INFO_INIT;
    CHECK(eredu_group_get_info(partitioned.handle.get(), &info, nullptr) == EREDU_OK);
    CHECK(info.has_partition_units == 1);
    CHECK(info.partition_units == 4);

    // Units without a partitioned member break the contract the other way.
    const auto units_only =
        new_group("norm", EREDU_ROLE_CHANNELS, 4, {replicated("norm.weight", {8})});
    CHECK(units_only.status == EREDU_E_INVALID_GROUP);
    CHECK(units_only.message.find("group-level logical partition") != std::string::npos);

    // Segmented does not count as partitioned.
    const auto segmented =
        new_group("qkv", EREDU_ROLE_SEGMENTED, std::nullopt,
                  {sharded("qkv.weight", {16, 8}, EREDU_SHARDING_SEGMENTED, 0, {0, 8, 8, 16})});
    CHECK(segmented.status == EREDU_OK);
  }

  TEST_CASE("zero partition units fail before anything else") {
    const auto made = new_group("  ", EREDU_ROLE_ATTENTION_HEADS, 0,
                                {sharded("q.weight", {8, 8}, EREDU_SHARDING_PARTITIONED, 0)});
    CHECK(made.status == EREDU_E_INVALID_GROUP);
    CHECK(made.message == "parallel logical partition must contain at least one unit");
  }

  TEST_CASE("construction rules in the seed's order") {
    const auto blank_name =
        new_group(" \t\n", EREDU_ROLE_REPLICATED, std::nullopt, {replicated("w", {1})});
    CHECK(blank_name.status == EREDU_E_INVALID_GROUP);
    CHECK(blank_name.message == "parallel parameter logical name must not be empty");

    const auto no_members = new_group("empty", EREDU_ROLE_REPLICATED, std::nullopt, {});
    CHECK(no_members.status == EREDU_E_INVALID_GROUP);
    CHECK(no_members.message ==
          "parallel parameter group \"empty\" must contain at least one tensor");

    // A NULL member array with count 0 is allowed, and is the same empty group.
    eredu_group* group = nullptr;
    ErrorSlot error;
    CHECK(group_new_with("empty", EREDU_ROLE_REPLICATED, 0, 0, nullptr, nullptr, 0, &group,
                         error.slot()) == EREDU_E_INVALID_GROUP);
    CHECK(group == nullptr);
    CHECK(error.code() == EREDU_E_INVALID_GROUP);

    const auto blank_target = new_group("g", EREDU_ROLE_REPLICATED, std::nullopt,
                                        {replicated("ok", {1}), replicated("\u3000", {1})});
    CHECK(blank_target.status == EREDU_E_INVALID_GROUP);
    CHECK(blank_target.message == "parallel parameter group \"g\" contains an empty tensor target");
  }

  TEST_CASE("getters echo the group") {
    const auto made = new_group(
        "decoder.mlp.down", EREDU_ROLE_ROW_PROJECTION, std::nullopt,
        {sharded("down.weight", {8, 16}, EREDU_SHARDING_EQUAL, 1),
         sharded("down.scales", {8, 4}, EREDU_SHARDING_EQUAL, 1), replicated("down.bias", {8})});
    REQUIRE(made.status == EREDU_OK);
    const eredu_group* group = made.handle.get();

    eredu_group_info info = EREDU_GROUP_INFO_INIT;
    CHECK(eredu_group_get_info(group, &info, nullptr) == EREDU_OK);
    CHECK(std::string(info.name) == "decoder.mlp.down");
    CHECK(info.name_length == std::strlen("decoder.mlp.down"));
    CHECK(info.role == EREDU_ROLE_ROW_PROJECTION);
    CHECK(info.has_partition_units == 0);
    CHECK(info.partition_units == 0);
    CHECK(info.member_count == 3);
    CHECK(info.scope_kind == EREDU_SCOPE_ALL);
    CHECK(info.has_layer == 0);
    CHECK(info.has_expert == 0);

    // Member order is the declaration order, not sorted; a member reads back
    // as the descriptor that built it.
    eredu_member_desc member = EREDU_MEMBER_DESC_INIT;
    CHECK(eredu_group_member(group, 0, &member, nullptr) == EREDU_OK);
    CHECK(std::string(member.target) == "down.weight");
    CHECK(std::vector<std::uint64_t>(member.shape, member.shape + member.ndim) ==
          std::vector<std::uint64_t>{8, 16});
    CHECK(member.sharding == EREDU_SHARDING_EQUAL);
    CHECK(member.axis == 1);
    CHECK(member.has_dtype == 1);
    CHECK(member.dtype == EREDU_DTYPE_F32);
    CHECK(member.segment_count == 0);
    CHECK(eredu_group_member(group, 2, &member, nullptr) == EREDU_OK);
    CHECK(std::string(member.target) == "down.bias");
    CHECK(member.sharding == EREDU_SHARDING_REPLICATED);

    ErrorSlot error;
    CHECK(eredu_group_member(group, 3, &member, error.slot()) == EREDU_E_INVALID_ARGUMENT);
    CHECK(error.message() == "member index 3 is out of range (count 3)");
    CHECK(member.target == nullptr);
    CHECK(member.ndim == 0);
  }

  TEST_CASE("a member reads back with its segments and a scope with its layer") {
    eredu_group_scope scope = EREDU_GROUP_SCOPE_INIT;
    scope.kind = EREDU_SCOPE_INDEXED;
    scope.has_layer = 1;
    scope.layer = 5;
    const auto made = new_group(
        "qkv", EREDU_ROLE_SEGMENTED, std::nullopt,
        {sharded("qkv.weight", {16, 8}, EREDU_SHARDING_SEGMENTED, 0, {0, 8, 8, 16})}, &scope);
    REQUIRE(made.status == EREDU_OK);
    eredu_member_desc member = EREDU_MEMBER_DESC_INIT;
    REQUIRE(eredu_group_member(made.handle.get(), 0, &member, nullptr) == EREDU_OK);
    CHECK(member.segment_count == 2);
    CHECK(std::vector<std::uint64_t>(member.segments, member.segments + 4) ==
          std::vector<std::uint64_t>{0, 8, 8, 16});
    eredu_group_info info = EREDU_GROUP_INFO_INIT;
    REQUIRE(eredu_group_get_info(made.handle.get(), &info, nullptr) == EREDU_OK);
    CHECK(info.scope_kind == EREDU_SCOPE_INDEXED);
    CHECK(info.has_layer == 1);
    CHECK(info.layer == 5);
    CHECK(info.has_expert == 0);
  }

  TEST_CASE("descriptors are copied") {
    std::string target = "w.weight";
    std::vector<std::uint64_t> shape{4, 6};
    eredu_member_desc desc;
    REQUIRE(eredu_member_desc_init(&desc, sizeof desc, nullptr) == EREDU_OK);
    desc.target = target.c_str();
    desc.shape = shape.data();
    desc.ndim = shape.size();
    desc.sharding = EREDU_SHARDING_EQUAL;
    desc.axis = 1;
    const eredu_member_desc* members[] = {&desc};
    eredu_group* raw = nullptr;
    REQUIRE(group_new_with("w", EREDU_ROLE_COLUMN_PROJECTION, 0, 0, nullptr, members, 1, &raw,
                           nullptr) == EREDU_OK);
    Group group(raw);
    target.assign("overwritten");
    shape.assign({1, 1});

    eredu_member_desc stored = EREDU_MEMBER_DESC_INIT;
    CHECK(eredu_group_member(group.get(), 0, &stored, nullptr) == EREDU_OK);
    CHECK(std::string(stored.target) == "w.weight");
    CHECK(stored.shape[1] == 6);

    // The model copies the group too: free the group, then plan.
    auto model = new_model({group.get()});
    REQUIRE(model.status == EREDU_OK);
    group.reset();
    const auto layout = plan_tp(model.handle.get(), 1, 2);
    REQUIRE(layout.status == EREDU_OK);
    CHECK(local_shape(layout.handle.get(), "w.weight") == Shape{4, 3});
    CHECK(global_shape(layout.handle.get(), "w.weight") == Shape{4, 6});
  }

  TEST_CASE("scopes decide pipeline ownership") {
    eredu_group_scope embedding;
    REQUIRE(eredu_group_scope_init(&embedding, sizeof embedding, nullptr) == EREDU_OK);
    CHECK(embedding.kind == EREDU_SCOPE_ALL);
    embedding.kind = EREDU_SCOPE_EMBEDDING;
    eredu_group_scope layer3 = EREDU_GROUP_SCOPE_INIT;
    layer3.kind = EREDU_SCOPE_INDEXED;
    layer3.has_layer = 1;
    layer3.layer = 3;

    const auto embed = new_group("embed", EREDU_ROLE_VOCABULARY, std::nullopt,
                                 {replicated("embed.weight", {10, 4})}, &embedding);
    const auto layer = new_group("layers.3", EREDU_ROLE_REPLICATED, std::nullopt,
                                 {replicated("layers.3.norm", {4})}, &layer3);
    REQUIRE(embed.status == EREDU_OK);
    REQUIRE(layer.status == EREDU_OK);

    eredu_model_info info;
    REQUIRE(eredu_model_info_init(&info, sizeof info, nullptr) == EREDU_OK);
    info.has_layers = 1;
    info.layers = 4;
    const auto model = new_model({embed.handle.get(), layer.handle.get()}, &info);
    REQUIRE(model.status == EREDU_OK);

    // Stage 0 owns layers 0..2 and the embedding; stage 1 owns layers 2..4.
    const auto first = plan(model.handle.get(), 1, 2, 1, 1, 0);
    const auto last = plan(model.handle.get(), 1, 2, 1, 1, 1);
    REQUIRE(first.status == EREDU_OK);
    REQUIRE(last.status == EREDU_OK);
    CHECK(placement(first.handle.get(), "embed.weight").placement == EREDU_PLACEMENT_REPLICATED);
    CHECK(placement(first.handle.get(), "layers.3.norm").placement == EREDU_PLACEMENT_OMIT);
    CHECK(placement(last.handle.get(), "embed.weight").placement == EREDU_PLACEMENT_OMIT);
    CHECK(placement(last.handle.get(), "layers.3.norm").placement == EREDU_PLACEMENT_REPLICATED);

    // Omitted: empty local shape, 0 bytes (known), no logical range.
    const eredu_layout* omitted = last.handle.get();
    CHECK(local_shape(omitted, "embed.weight").empty());
    CHECK(local_bytes(omitted, "embed.weight") == std::optional<std::uint64_t>(0));
    CHECK_FALSE(logical_range(omitted, "embed.weight").has_value());
    eredu_layout_info totals = EREDU_LAYOUT_INFO_INIT;
    CHECK(eredu_layout_get_info(omitted, &totals, nullptr) == EREDU_OK);
    CHECK(totals.materialized_tensors == 1);
    CHECK(totals.omitted_tensors == 1);
    CHECK(totals.local_bytes == 16);
    CHECK(totals.global_bytes == 176);

    // A scope outside the model's layers is rejected when building the model.
    eredu_group_scope far = EREDU_GROUP_SCOPE_INIT;
    far.kind = EREDU_SCOPE_INDEXED;
    far.has_layer = 1;
    far.layer = 4;
    const auto outside =
        new_group("layers.4", EREDU_ROLE_REPLICATED, std::nullopt, {replicated("x", {1})}, &far);
    REQUIRE(outside.status == EREDU_OK);
    const auto rejected = new_model({outside.handle.get()}, &info);
    CHECK(rejected.status == EREDU_E_INVALID_GROUP);
    CHECK(rejected.handle == nullptr);
  }

  TEST_CASE("a target used by an earlier group is rejected") {
    const auto first = new_group("a", EREDU_ROLE_REPLICATED, std::nullopt, {replicated("w", {2})});
    const auto second = new_group("b", EREDU_ROLE_REPLICATED, std::nullopt, {replicated("w", {2})});
    REQUIRE(first.status == EREDU_OK);
    REQUIRE(second.status == EREDU_OK);
    const auto model = new_model({first.handle.get(), second.handle.get()});
    CHECK(model.status == EREDU_E_INVALID_GROUP);
    CHECK(model.message == "parallel placement target \"w\" was registered more than once");
  }
}
