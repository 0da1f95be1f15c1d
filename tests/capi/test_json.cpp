// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The bulk paths: eredu.groups.v1 in (eredu_model_from_json), eredu.layout.v1
// out (eredu_layout_to_json, eredu_layout_write_json).
#include <doctest/doctest.h>
#include <eredu/eredu.h>

#include <cstring>
#include <string>
#include <vector>

#include "capi_support.hpp"
#include "test_data.hpp"

using namespace capi_test;

namespace {

// The eredu.groups.v1 example of docs/interchange.md (without its final
// newline) and its eredu.layout.v1 example, in canonical form.
const std::string kAttention = [] {
  std::string text = test_data::read("attention.groups.json");
  while (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}();
const std::string kAttentionLayout = test_data::read("attention.tp2.rank1.layout.json");

}  // namespace

TEST_SUITE("capi.json") {
  TEST_CASE("a model loads from eredu.groups.v1 and plans to eredu.layout.v1") {
    const auto model = model_from_json(kAttention);
    REQUIRE(model.status == EREDU_OK);
    CHECK(eredu_model_tensor_count(model.handle.get()) == 2);
    CHECK(eredu_model_group_count(model.handle.get()) == 1);
    CHECK(eredu_model_global_bytes(model.handle.get()) == 67108864);

    const auto made = plan_tp(model.handle.get(), 1, 2);
    REQUIRE(made.status == EREDU_OK);
    CHECK(to_json(made.handle.get()) == kAttentionLayout);
    CHECK(logical_range(made.handle.get(), "model.layers.0.self_attn.q_proj.weight") ==
          std::pair<std::uint64_t, std::uint64_t>{4, 8});
  }

  TEST_CASE("the handle API and the JSON path give the same layout") {
    eredu_group_scope scope = EREDU_GROUP_SCOPE_INIT;
    scope.kind = EREDU_SCOPE_INDEXED;
    scope.has_layer = 1;
    scope.layer = 0;
    MemberSpec q = sharded("model.layers.0.self_attn.q_proj.weight", {4096, 4096},
                           EREDU_SHARDING_PARTITIONED, 0);
    MemberSpec o = sharded("model.layers.0.self_attn.o_proj.weight", {4096, 4096},
                           EREDU_SHARDING_PARTITIONED, 1);
    q.dtype = o.dtype = EREDU_DTYPE_BF16;
    const auto group =
        new_group("model.layers.0.self_attn", EREDU_ROLE_ATTENTION_HEADS, 8, {q, o}, &scope);
    REQUIRE(group.status == EREDU_OK);
    eredu_model_info info = EREDU_MODEL_INFO_INIT;
    info.name = "example";
    info.has_layers = 1;
    info.layers = 32;
    const auto model = new_model({group.handle.get()}, &info);
    REQUIRE(model.status == EREDU_OK);
    const auto made = plan_tp(model.handle.get(), 1, 2);
    REQUIRE(made.status == EREDU_OK);
    CHECK(to_json(made.handle.get()) == kAttentionLayout);
  }

  TEST_CASE("every placement kind the planner emits, as JSON") {
    const auto down = new_group(
        "decoder.mlp.down", EREDU_ROLE_ROW_PROJECTION, std::nullopt,
        {sharded("down.weight", {8, 16}, EREDU_SHARDING_EQUAL, 1), replicated("down.bias", {8})});
    MemberSpec qkv =
        sharded("qkv.weight", {16, 8}, EREDU_SHARDING_SEGMENTED, 0, {0, 8, 8, 12, 12, 16});
    qkv.dtype = EREDU_DTYPE_BF16;
    MemberSpec untyped = replicated("untyped", {3});
    untyped.dtype.reset();
    const auto attention = new_group("qkv", EREDU_ROLE_SEGMENTED, std::nullopt, {qkv, untyped});
    REQUIRE(down.status == EREDU_OK);
    REQUIRE(attention.status == EREDU_OK);
    const auto model = new_model({down.handle.get(), attention.handle.get()});
    REQUIRE(model.status == EREDU_OK);
    const auto made = plan_tp(model.handle.get(), 1, 2);
    REQUIRE(made.status == EREDU_OK);
    const std::string expected =
        R"({"schema":"eredu.layout.v1",)"
        R"("topology":{"tensor":2,"pipeline":1,"expert":1,"data":1},"rank":1,)"
        R"("coordinates":{"tensor":1,"pipeline":0,"expert":0,"data":0},"policy":"require",)"
        R"("tensors":[)"
        R"({"target":"down.bias","logical_name":"decoder.mlp.down","role":"row_projection",)"
        R"("global_shape":[8],"local_shape":[8],"placement":{"kind":"replicated"},)"
        R"("logical_units":null,"logical_range":null,"fell_back_to_replication":false,)"
        R"("local_bytes":32},)"
        R"({"target":"down.weight","logical_name":"decoder.mlp.down","role":"row_projection",)"
        R"("global_shape":[8,16],"local_shape":[8,8],)"
        R"("placement":{"kind":"shard","axis":1,"index":1,"parts":2},)"
        R"("logical_units":null,"logical_range":null,"fell_back_to_replication":false,)"
        R"("local_bytes":256},)"
        R"({"target":"qkv.weight","logical_name":"qkv","role":"segmented",)"
        R"("global_shape":[16,8],"local_shape":[8,8],)"
        R"("placement":{"kind":"indices","axis":0,"runs":[[4,8],[10,12],[14,16]],"count":8},)"
        R"("logical_units":null,"logical_range":null,"fell_back_to_replication":false,)"
        R"("local_bytes":128},)"
        R"({"target":"untyped","logical_name":"qkv","role":"segmented",)"
        R"("global_shape":[3],"local_shape":[3],"placement":{"kind":"replicated"},)"
        R"("logical_units":null,"logical_range":null,"fell_back_to_replication":false,)"
        R"("local_bytes":null}],)"
        R"("totals":{"local_bytes":416,"global_bytes":800,)"
        R"("materialized_tensors":4,"omitted_tensors":0,"unknown_bytes_tensors":1}})"
        "\n";
    CHECK(to_json(made.handle.get()) == expected);
  }

  TEST_CASE("to_json returns an owned, NUL-terminated buffer") {
    const auto model = model_from_json(kAttention);
    const auto made = plan_tp(model.handle.get(), 1, 2);
    REQUIRE(made.status == EREDU_OK);
    char* text = nullptr;
    ErrorSlot error;
    REQUIRE(eredu_layout_to_json(made.handle.get(), &text, nullptr, error.slot()) == EREDU_OK);
    CHECK(error.get() == nullptr);
    CHECK(std::strlen(text) == kAttentionLayout.size());
    CHECK(std::string(text) == kAttentionLayout);
    eredu_buffer_free(text);
    eredu_buffer_free(nullptr);
  }

  TEST_CASE("write_json into a caller buffer reports the needed size") {
    const auto model = model_from_json(kAttention);
    const auto made = plan_tp(model.handle.get(), 1, 2);
    REQUIRE(made.status == EREDU_OK);
    const eredu_layout* layout = made.handle.get();
    const std::size_t needed = kAttentionLayout.size() + 1;

    std::size_t required = 0;
    ErrorSlot error;
    CHECK(eredu_layout_write_json(layout, nullptr, 0, &required, error.slot()) ==
          EREDU_E_BUFFER_TOO_SMALL);
    CHECK(required == needed);
    CHECK(error.code() == EREDU_E_BUFFER_TOO_SMALL);

    std::vector<char> small(needed - 1, 'x');
    required = 0;
    CHECK(eredu_layout_write_json(layout, small.data(), small.size(), &required, nullptr) ==
          EREDU_E_BUFFER_TOO_SMALL);
    CHECK(required == needed);
    CHECK(small == std::vector<char>(needed - 1, 'x'));

    std::vector<char> exact(needed, 'x');
    required = 0;
    CHECK(eredu_layout_write_json(layout, exact.data(), exact.size(), &required, error.slot()) ==
          EREDU_OK);
    CHECK(error.get() == nullptr);
    CHECK(required == needed);
    CHECK(std::string(exact.data()) == kAttentionLayout);

    // A NULL buffer with a capacity is misuse; `required` is zeroed.
    required = 5;
    CHECK(eredu_layout_write_json(layout, nullptr, 10, &required, nullptr) ==
          EREDU_E_NULL_ARGUMENT);
    CHECK(required == 0);
    CHECK(eredu_layout_write_json(layout, exact.data(), exact.size(), nullptr, nullptr) ==
          EREDU_E_NULL_ARGUMENT);
  }

  TEST_CASE("load errors carry their codes") {
    CHECK(model_from_json("{").status == EREDU_E_PARSE);
    CHECK(model_from_json("").status == EREDU_E_PARSE);
    CHECK(model_from_json("\xff").status == EREDU_E_PARSE);
    CHECK(model_from_json(R"({"schema":"eredu.groups.v2","groups":[]})").status ==
          EREDU_E_UNSUPPORTED_VERSION);
    const auto unknown_role = model_from_json(
        R"({"schema":"eredu.groups.v1","groups":[{"name":"g","role":"nope","members":[]}]})");
    CHECK(unknown_role.status == EREDU_E_PARSE);
    CHECK(unknown_role.message.find("/groups/0/role") != std::string::npos);
    const auto duplicate = model_from_json(
        R"({"schema":"eredu.groups.v1","groups":[)"
        R"({"name":"a","role":"replicated","members":[{"target":"w","shape":[2],"sharding":{"kind":"replicated"}}]},)"
        R"({"name":"b","role":"replicated","members":[{"target":"w","shape":[2],"sharding":{"kind":"replicated"}}]}]})");
    CHECK(duplicate.status == EREDU_E_INVALID_GROUP);
    CHECK(duplicate.message == "parallel placement target \"w\" was registered more than once");
    CHECK(duplicate.handle == nullptr);

    const auto empty = model_from_json(R"({"schema":"eredu.groups.v1","groups":[]})");
    REQUIRE(empty.status == EREDU_OK);
    CHECK(eredu_model_tensor_count(empty.handle.get()) == 0);

    // Text is pointer + length: no terminator needed, NULL only with 0.
    eredu_model* model = nullptr;
    CHECK(eredu_model_from_json(kAttention.data(), kAttention.size() - 1, &model, nullptr) ==
          EREDU_E_PARSE);
    CHECK(eredu_model_from_json(nullptr, 0, &model, nullptr) == EREDU_E_PARSE);
    CHECK(eredu_model_from_json(nullptr, 5, &model, nullptr) == EREDU_E_NULL_ARGUMENT);
    CHECK(model == nullptr);
  }
}
