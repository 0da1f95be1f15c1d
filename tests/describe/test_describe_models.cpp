// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// describe_model_dir on the real example models (docs/describe.md).
#include <doctest/doctest.h>

#include <algorithm>

#include "describe/describe.hpp"
#include "described_models.hpp"
#include "model_folders.hpp"

namespace eredu {
namespace {

struct Expected {
  const char* name;
  std::size_t tensors;
  std::uint64_t layers;
  const char* index;
};

const Expected kModels[] = {
    {"reflection-llama-3.1-70b", 723, 80, "model.safetensors.index.json"},
    {"mistral-7b-v0.1", 291, 32, "pytorch_model.bin.index.json"},
    {"qwen2.5-14b-sakura", 579, 48, "model.safetensors.index.json"},
    {"qwen3-1.7b", 310, 28, "model.safetensors.index.json"},
};

using test::describe;
using test::group_named;
using test::targets;

TEST_CASE("real models: every index tensor described once and bytes equal total_size") {
  for (const Expected& expected : kModels) {
    CAPTURE(expected.name);
    auto model = describe(expected.name);
    const auto index = test::read_json(test::example_model(expected.name), expected.index);
    CHECK(model->tensor_count() == expected.tensors);
    CHECK(model->tensor_count() == index["weight_map"].size());
    CHECK(model->global_bytes() == index["metadata"]["total_size"].get<std::uint64_t>());
    CHECK(model->unknown_bytes_tensors() == 0);
    CHECK(model->info().name == std::string(expected.name));
    CHECK(model->info().layers == expected.layers);
    CHECK_FALSE(model->info().experts.has_value());
    // embed, then self_attn / norms / mlp per layer, then head.
    REQUIRE(model->groups().size() == 3 * expected.layers + 2);
    CHECK(model->groups().front().logical_name() == "embed");
    CHECK(model->groups()[1].logical_name() == "model.layers.0.self_attn");
    CHECK(model->groups()[2].logical_name() == "model.layers.0.norms");
    CHECK(model->groups()[3].logical_name() == "model.layers.0.mlp");
    CHECK(model->groups().back().logical_name() == "head");
  }
}

TEST_CASE("reflection-llama-3.1-70b: the llama-family table, FP32") {
  auto model = describe("reflection-llama-3.1-70b");
  CHECK(model->global_bytes() == 282215219200u);

  const ParameterGroupSpec& embed = model->groups().front();
  CHECK(embed.role() == ParameterRole::Vocabulary);
  CHECK(embed.scope() == GroupScope::embedding());
  CHECK_FALSE(embed.partition_units().has_value());
  REQUIRE(embed.members().size() == 1);
  CHECK(embed.members()[0].global_shape() == std::vector<std::uint64_t>{128262, 8192});
  CHECK(embed.members()[0].sharding() == MemberSharding::balanced(0));
  CHECK(embed.members()[0].dtype() == Dtype::F32);

  const ParameterGroupSpec& attn = group_named(*model, "model.layers.79.self_attn");
  CHECK(attn.role() == ParameterRole::AttentionHeads);
  CHECK(attn.partition_units() == 8u);
  CHECK(attn.scope() == GroupScope::indexed(79, std::nullopt));
  CHECK(targets(attn) == std::vector<std::string>{"model.layers.79.self_attn.q_proj.weight",
                                                  "model.layers.79.self_attn.k_proj.weight",
                                                  "model.layers.79.self_attn.v_proj.weight",
                                                  "model.layers.79.self_attn.o_proj.weight"});
  CHECK(attn.members()[0].global_shape() == std::vector<std::uint64_t>{8192, 8192});
  CHECK(attn.members()[1].global_shape() == std::vector<std::uint64_t>{1024, 8192});
  CHECK(attn.query_units() == 64u);
  CHECK(attn.members()[0].sharding() == MemberSharding::partitioned(0));
  CHECK(attn.members()[1].sharding() == MemberSharding::partitioned(0).kv_head());
  CHECK(attn.members()[2].sharding() == MemberSharding::partitioned(0).kv_head());
  CHECK(attn.members()[3].global_shape() == std::vector<std::uint64_t>{8192, 8192});
  CHECK(attn.members()[3].sharding() == MemberSharding::partitioned(1));

  const ParameterGroupSpec& norms = group_named(*model, "model.layers.0.norms");
  CHECK(norms.role() == ParameterRole::Replicated);
  CHECK(targets(norms) ==
        std::vector<std::string>{"model.layers.0.input_layernorm.weight",
                                 "model.layers.0.post_attention_layernorm.weight"});

  const ParameterGroupSpec& mlp = group_named(*model, "model.layers.0.mlp");
  CHECK(mlp.role() == ParameterRole::FeedForwardIntermediate);
  CHECK(mlp.partition_units() == 28672u);
  CHECK(targets(mlp) == std::vector<std::string>{"model.layers.0.mlp.gate_proj.weight",
                                                 "model.layers.0.mlp.up_proj.weight",
                                                 "model.layers.0.mlp.down_proj.weight"});
  CHECK(mlp.members()[0].global_shape() == std::vector<std::uint64_t>{28672, 8192});
  CHECK(mlp.members()[2].global_shape() == std::vector<std::uint64_t>{8192, 28672});
  CHECK(mlp.members()[2].sharding() == MemberSharding::partitioned(1));

  const ParameterGroupSpec& head = model->groups().back();
  CHECK(head.scope() == GroupScope::output_head());
  CHECK(targets(head) == std::vector<std::string>{"model.norm.weight", "lm_head.weight"});
  CHECK(head.members()[0].sharding() == MemberSharding::replicated());
  CHECK(head.members()[1].sharding() == MemberSharding::balanced(0));
}

TEST_CASE("qwen2.5-14b-sakura: q/k/v biases after the weights, F16") {
  auto model = describe("qwen2.5-14b-sakura");
  const ParameterGroupSpec& attn = group_named(*model, "model.layers.0.self_attn");
  CHECK(targets(attn) ==
        std::vector<std::string>{
            "model.layers.0.self_attn.q_proj.weight", "model.layers.0.self_attn.k_proj.weight",
            "model.layers.0.self_attn.v_proj.weight", "model.layers.0.self_attn.o_proj.weight",
            "model.layers.0.self_attn.q_proj.bias", "model.layers.0.self_attn.k_proj.bias",
            "model.layers.0.self_attn.v_proj.bias"});
  CHECK(attn.members()[4].global_shape() == std::vector<std::uint64_t>{5120});
  CHECK(attn.members()[5].global_shape() == std::vector<std::uint64_t>{1024});
  CHECK(attn.members()[4].sharding() == MemberSharding::partitioned(0));
  CHECK(attn.members()[6].sharding() == MemberSharding::partitioned(0).kv_head());
  CHECK(attn.members()[0].dtype() == Dtype::F16);
}

TEST_CASE("qwen3-1.7b: tied embedding, q_norm/k_norm of head_dim, BF16") {
  auto model = describe("qwen3-1.7b");
  CHECK(model->groups().front().scope() == GroupScope::tied_embedding());
  CHECK(targets(model->groups().back()) == std::vector<std::string>{"model.norm.weight"});
  const ParameterGroupSpec& norms = group_named(*model, "model.layers.27.norms");
  CHECK(targets(norms) ==
        std::vector<std::string>{"model.layers.27.input_layernorm.weight",
                                 "model.layers.27.post_attention_layernorm.weight",
                                 "model.layers.27.self_attn.q_norm.weight",
                                 "model.layers.27.self_attn.k_norm.weight"});
  CHECK(norms.members()[2].global_shape() == std::vector<std::uint64_t>{128});
  CHECK(norms.members()[0].dtype() == Dtype::BF16);
}

TEST_CASE("mistral-7b-v0.1: read from pytorch_model.bin.index.json") {
  auto model = describe("mistral-7b-v0.1");
  CHECK(model->global_bytes() == 28966928384u);
  CHECK(group_named(*model, "model.layers.0.self_attn").partition_units() == 8u);
  CHECK(group_named(*model, "model.layers.0.mlp").partition_units() == 14336u);
}

TEST_CASE("a trailing slash still names the folder") {
  auto model = describe_model_dir(test::example_model("qwen3-1.7b") + "/");
  REQUIRE(model.has_value());
  CHECK(model.value()->info().name == std::string("qwen3-1.7b"));
}

}  // namespace
}  // namespace eredu
