// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The gpt_neox family (docs/describe.md, "gpt_neox, gpt_neox_reward_model")
// on pythia-1.4b-oasst-rm-gptneox, an OpenAssistant reward model, and on an
// edited copy of it as a GPT-NeoX causal LM: query_key_value split by whole
// heads.
#include <doctest/doctest.h>

#include <array>

#include "described_models.hpp"
#include "model_folders.hpp"
#include "plan/planner.hpp"
#include "world/world.hpp"

namespace eredu {
namespace {

using Shape = std::vector<std::uint64_t>;
using test::EditedFolder;

constexpr const char* kPythia = "pythia-1.4b-oasst-rm-gptneox";
constexpr std::uint64_t kBytes = 5246377988u;

using test::topology;

TEST_CASE("gpt_neox reward model: every index tensor described once, bytes equal total_size") {
  const auto model = test::describe(kPythia);
  const auto index = test::read_json(test::example_model(kPythia), "model.safetensors.index.json");
  CHECK(model->tensor_count() == 293);
  CHECK(model->tensor_count() == index["weight_map"].size());
  CHECK(model->global_bytes() == kBytes);
  CHECK(model->global_bytes() == index["metadata"]["total_size"].get<std::uint64_t>());
  CHECK(model->unknown_bytes_tensors() == 0);
  CHECK(model->info() == ModelInfo{kPythia, 24, std::nullopt});
  // embed, 24 layers of attention, norms and mlp, head.
  REQUIRE(model->groups().size() == 1 + 3 * 24 + 1);
  CHECK(model->groups()[1].logical_name() == "gpt_neox.layers.0.attention");
  CHECK(model->groups()[2].logical_name() == "gpt_neox.layers.0.norms");
  CHECK(model->groups()[3].logical_name() == "gpt_neox.layers.0.mlp");

  const ParameterGroupSpec& embed = model->groups().front();
  CHECK(embed.logical_name() == "embed");
  CHECK(embed.scope() == GroupScope::embedding());
  CHECK(test::targets(embed) == std::vector<std::string>{"gpt_neox.embed_in.weight"});
  CHECK(embed.members()[0].global_shape() == Shape{50288, 2048});
  CHECK(embed.members()[0].sharding() == MemberSharding::balanced(0));
  CHECK(embed.members()[0].dtype() == Dtype::F32);

  const ParameterGroupSpec& attn = test::group_named(*model, "gpt_neox.layers.23.attention");
  CHECK(attn.role() == ParameterRole::AttentionHeads);
  CHECK(attn.scope() == GroupScope::indexed(23, std::nullopt));
  CHECK(attn.partition_units() == std::optional<std::uint64_t>{16});
  CHECK_FALSE(attn.query_units().has_value());
  const std::string a = "gpt_neox.layers.23.attention.";
  CHECK(test::targets(attn) ==
        std::vector<std::string>{a + "query_key_value.weight", a + "dense.weight",
                                 a + "query_key_value.bias", a + "dense.bias"});
  CHECK(attn.members()[0].global_shape() == Shape{6144, 2048});
  CHECK(attn.members()[0].sharding() == MemberSharding::partitioned(0));
  CHECK(attn.members()[1].global_shape() == Shape{2048, 2048});
  CHECK(attn.members()[1].sharding() == MemberSharding::partitioned(1));
  CHECK(attn.members()[2].global_shape() == Shape{6144});
  CHECK(attn.members()[2].sharding() == MemberSharding::partitioned(0));
  CHECK(attn.members()[3].sharding() == MemberSharding::replicated());

  const ParameterGroupSpec& norms = test::group_named(*model, "gpt_neox.layers.0.norms");
  CHECK(norms.role() == ParameterRole::Replicated);
  CHECK(test::targets(norms) ==
        std::vector<std::string>{"gpt_neox.layers.0.input_layernorm.weight",
                                 "gpt_neox.layers.0.input_layernorm.bias",
                                 "gpt_neox.layers.0.post_attention_layernorm.weight",
                                 "gpt_neox.layers.0.post_attention_layernorm.bias"});

  const ParameterGroupSpec& mlp = test::group_named(*model, "gpt_neox.layers.0.mlp");
  CHECK(mlp.role() == ParameterRole::FeedForwardIntermediate);
  CHECK(mlp.partition_units() == std::optional<std::uint64_t>{8192});
  CHECK(mlp.members()[0].global_shape() == Shape{8192, 2048});
  CHECK(mlp.members()[0].sharding() == MemberSharding::partitioned(0));
  CHECK(mlp.members()[1].sharding() == MemberSharding::partitioned(1));
  CHECK(mlp.members()[2].target() == "gpt_neox.layers.0.mlp.dense_h_to_4h.bias");
  CHECK(mlp.members()[2].sharding() == MemberSharding::partitioned(0));
  CHECK(mlp.members()[3].sharding() == MemberSharding::replicated());

  // The reward head: one scalar per sequence, replicated.
  const ParameterGroupSpec& head = model->groups().back();
  CHECK(head.logical_name() == "head");
  CHECK(head.role() == ParameterRole::Replicated);
  CHECK(head.scope() == GroupScope::output_head());
  CHECK(test::targets(head) == std::vector<std::string>{"gpt_neox.final_layer_norm.weight",
                                                        "gpt_neox.final_layer_norm.bias",
                                                        "out_proj.weight", "out_proj.bias"});
  CHECK(head.members()[2].global_shape() == Shape{1, 2048});
  CHECK(head.members()[3].global_shape() == Shape{1});
  for (const ParameterMemberSpec& member : head.members()) {
    CHECK(member.sharding() == MemberSharding::replicated());
  }
}

TEST_CASE("gpt_neox at TP 4: rank 1 holds heads [4, 8) of query_key_value, whole") {
  const auto model = test::describe(kPythia);
  auto layout = plan_rank(model, topology(4), 1, ShardingPolicy::Require);
  REQUIRE_MESSAGE(layout.has_value(), layout.error().message);
  // 16 heads of 3 × 128 rows: heads 4..7 are rows [1536, 3072).
  const LocalTensorLayout* qkv =
      layout.value().tensor("gpt_neox.layers.0.attention.query_key_value.weight");
  REQUIRE(qkv != nullptr);
  CHECK(qkv->placement == TensorPlacement::range(0, 1536, 3072));
  CHECK(qkv->logical_range == IndexRange{4, 8});
  CHECK(qkv->local_shape == Shape{1536, 2048});
  CHECK(qkv->local_bytes == std::optional<std::uint64_t>{1536u * 2048u * 4u});
  const LocalTensorLayout* bias =
      layout.value().tensor("gpt_neox.layers.0.attention.query_key_value.bias");
  REQUIRE(bias != nullptr);
  CHECK(bias->placement == TensorPlacement::range(0, 1536, 3072));
  const LocalTensorLayout* dense =
      layout.value().tensor("gpt_neox.layers.0.attention.dense.weight");
  REQUIRE(dense != nullptr);
  CHECK(dense->placement == TensorPlacement::range(1, 512, 1024));
  CHECK(dense->local_shape == Shape{2048, 512});
  const LocalTensorLayout* reward = layout.value().tensor("out_proj.weight");
  REQUIRE(reward != nullptr);
  CHECK(reward->placement == TensorPlacement::replicated());
  CHECK(layout.value().totals.local_bytes == 1312497668u);
}

TEST_CASE("gpt_neox: coverage at TP 1/2/4/8/16 and PP 2; TP 32 is refused") {
  const auto model = test::describe(kPythia);
  const std::array<std::pair<std::uint64_t, std::uint64_t>, 5> rank_bytes{
      {{1, kBytes}, {2, 2623791108u}, {4, 1312497668u}, {8, 656850948u}, {16, 329027588u}}};
  for (const auto& entry : rank_bytes) {
    // Not structured bindings: clang 14 cannot capture them in CAPTURE's lambda.
    const auto& tp = std::get<0>(entry);
    const auto& bytes = std::get<1>(entry);
    CAPTURE(tp);
    auto world = plan_world(model, topology(tp), ShardingPolicy::Require);
    REQUIRE_MESSAGE(world.has_value(), world.error().message);
    CHECK(world.value().coverage_ok());
    CHECK(world.value().ranks.front().totals.local_bytes == bytes);
    CHECK(world.value().ranks.back().totals.local_bytes == bytes);
    CHECK(world.value().ranks.front().totals.global_bytes == kBytes);
  }
  auto staged = plan_world(model, topology(2, 2), ShardingPolicy::Require);
  REQUIRE_MESSAGE(staged.has_value(), staged.error().message);
  CHECK(staged.value().coverage_ok());
  // Stage 0: the embedding and layers 0..11; stage 1: layers 12..23 and the head.
  CHECK(staged.value().ranks[0].totals.local_bytes == 1414873088u);
  CHECK(staged.value().ranks[2].totals.local_bytes == 1208918020u);
  CHECK(staged.value().ranks[0].totals.materialized_tensors +
            staged.value().ranks[2].totals.materialized_tensors ==
        293);

  auto refused = plan_world(model, topology(32), ShardingPolicy::Require);
  REQUIRE_FALSE(refused.has_value());
  CHECK(refused.error().code == Status::InvalidTensor);
  CHECK(refused.error().message ==
        "logical parameter \"gpt_neox.layers.0.attention\": 16 partition units — declared by the "
        "group — cannot be split 32 ways; tensor sizes up to 64 that work for this group: 1, 2, "
        "3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16");
}

// The same backbone as a GPTNeoXForCausalLM: embed_out in place of the
// reward head.
void make_causal_lm(EditedFolder& folder) {
  folder.config["model_type"] = "gpt_neox";
  folder.index["weight_map"].erase("out_proj.weight");
  folder.index["weight_map"].erase("out_proj.bias");
  folder.index["weight_map"]["embed_out.weight"] = "model-00006-of-00006.safetensors";
  folder.index["metadata"]["total_size"] = kBytes - 4 * 2049 + 4u * 50288u * 2048u;
}

TEST_CASE("gpt_neox causal LM: embed_out is the vocabulary head, or tied") {
  SUBCASE("untied") {
    EditedFolder folder(kPythia);
    make_causal_lm(folder);
    auto model = folder.describe();
    REQUIRE_MESSAGE(model.has_value(), model.error().message);
    const ParameterGroupSpec& head = model.value()->groups().back();
    CHECK(head.role() == ParameterRole::Vocabulary);
    CHECK(test::targets(head) == std::vector<std::string>{"gpt_neox.final_layer_norm.weight",
                                                          "gpt_neox.final_layer_norm.bias",
                                                          "embed_out.weight"});
    CHECK(head.members()[2].global_shape() == Shape{50288, 2048});
    CHECK(head.members()[2].sharding() == MemberSharding::balanced(0));
    CHECK(model.value()->groups().front().scope() == GroupScope::embedding());
  }
  SUBCASE("tied: no embed_out in the index") {
    EditedFolder folder(kPythia);
    make_causal_lm(folder);
    folder.config["tie_word_embeddings"] = true;
    folder.index["weight_map"].erase("embed_out.weight");
    folder.index["metadata"]["total_size"] = kBytes - 4 * 2049;
    auto model = folder.describe();
    REQUIRE_MESSAGE(model.has_value(), model.error().message);
    CHECK(model.value()->groups().front().scope() == GroupScope::tied_embedding());
    CHECK(test::targets(model.value()->groups().back()) ==
          std::vector<std::string>{"gpt_neox.final_layer_norm.weight",
                                   "gpt_neox.final_layer_norm.bias"});
  }
  SUBCASE("the reward head is not described for a causal LM") {
    EditedFolder folder(kPythia);
    folder.config["model_type"] = "gpt_neox";
    Error error = folder.error();
    CHECK(error.code == Status::CheckpointMismatch);
    CHECK(error.message.find("\"out_proj.weight\"") != std::string::npos);
  }
}

TEST_CASE("gpt_neox: refusals") {
  EditedFolder folder(kPythia);
  SUBCASE("hidden_size not divisible by the heads") {
    folder.config["num_attention_heads"] = 15;
    Error error = folder.error();
    CHECK(error.code == Status::Parse);
    CHECK(error.message ==
          folder.file() + ": hidden_size 2048 is not divisible by num_attention_heads 15");
  }
  SUBCASE("a quantization_config") {
    folder.config["quantization_config"] = {{"quant_method", "gptq"}};
    Error error = folder.error();
    CHECK(error.code == Status::UnsupportedModel);
    CHECK(error.message == folder.file() +
                               ": \"gptq\" quantization (quantization_config.quant_method) is "
                               "not supported");
  }
  SUBCASE("an MLX quantization") {
    folder.config["quantization"] = {{"group_size", 64}, {"bits", 4}};
    Error error = folder.error();
    CHECK(error.code == Status::UnsupportedModel);
    CHECK(error.message == folder.file() +
                               ": MLX quantized checkpoint (quantization "
                               "{\"bits\":4,\"group_size\":64}) is not supported for model_type "
                               "\"gpt_neox_reward_model\"");
  }
}

}  // namespace
}  // namespace eredu
