// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// describe_model_dir on the real models of the other families
// (docs/describe.md): phi3, falcon, gpt_oss and MLX-quantized qwen3.
#include <doctest/doctest.h>

#include <algorithm>

#include "describe/describe.hpp"
#include "described_models.hpp"
#include "model_folders.hpp"

namespace eredu {
namespace {

using Shape = std::vector<std::uint64_t>;

using test::describe;
using test::group_named;
using test::targets;

// One member's shape, sharding and dtype.
void check_member(const ParameterMemberSpec& member, const Shape& shape,
                  const MemberSharding& sharding, Dtype dtype) {
  CAPTURE(member.target());
  CHECK(member.global_shape() == shape);
  CHECK(member.sharding() == sharding);
  CHECK(member.dtype() == dtype);
}

struct Expected {
  const char* name;
  std::size_t tensors;
  std::uint64_t bytes;
  std::uint64_t layers;
  std::size_t groups;
  std::optional<std::uint64_t> experts;  // routed experts per layer
};

const Expected kModels[] = {
    {"phi-3-mini-3b-slerp", 195, 7642159104u, 32, 1 + 3 * 32 + 1, std::nullopt},
    {"falcon-180b-chat", 644, 359045130240u, 80, 1 + 3 * 80 + 1, std::nullopt},
    {"gpt-oss-20b", 459, 13761264768u, 24, 1 + 4 * 24 + 1, 32},
    {"qwen3-14b-mlx-4bit", 1007, 8307783680u, 40, 1 + 3 * 40 + 1, std::nullopt},
};

TEST_CASE("families: every index tensor described once, bytes equal total_size") {
  for (const Expected& expected : kModels) {
    CAPTURE(expected.name);
    auto model = describe(expected.name);
    const auto index =
        test::read_json(test::example_model(expected.name), "model.safetensors.index.json");
    CHECK(model->tensor_count() == expected.tensors);
    CHECK(model->tensor_count() == index["weight_map"].size());
    CHECK(model->global_bytes() == expected.bytes);
    CHECK(model->global_bytes() == index["metadata"]["total_size"].get<std::uint64_t>());
    CHECK(model->unknown_bytes_tensors() == 0);
    CHECK(model->info() == ModelInfo{expected.name, expected.layers, expected.experts});
    CHECK(model->groups().size() == expected.groups);
    CHECK(model->groups().front().logical_name() == "embed");
    CHECK(model->groups().front().scope() == GroupScope::embedding());
    CHECK(model->groups().back().logical_name() == "head");
    CHECK(model->groups().back().scope() == GroupScope::output_head());
  }
}

TEST_CASE("phi-3-mini-3b-slerp: fused qkv_proj and gate_up_proj as segmented projections") {
  auto model = describe("phi-3-mini-3b-slerp");
  CHECK(model->groups()[1].logical_name() == "model.layers.0.self_attn");
  CHECK(model->groups()[2].logical_name() == "model.layers.0.norms");
  CHECK(model->groups()[3].logical_name() == "model.layers.0.mlp");

  const ParameterGroupSpec& attn = group_named(*model, "model.layers.31.self_attn");
  CHECK(attn.role() == ParameterRole::AttentionHeads);
  CHECK(attn.partition_units() == 32u);
  CHECK(attn.scope() == GroupScope::indexed(31, std::nullopt));
  REQUIRE(attn.members().size() == 2);
  check_member(attn.members()[0], {9216, 3072},
               MemberSharding::partitioned_segments(0, {{0, 3072}, {3072, 6144}, {6144, 9216}}),
               Dtype::BF16);
  CHECK(attn.members()[0].target() == "model.layers.31.self_attn.qkv_proj.weight");
  check_member(attn.members()[1], {3072, 3072}, MemberSharding::partitioned(1), Dtype::BF16);
  CHECK(attn.members()[1].target() == "model.layers.31.self_attn.o_proj.weight");

  const ParameterGroupSpec& mlp = group_named(*model, "model.layers.0.mlp");
  CHECK(mlp.role() == ParameterRole::FeedForwardIntermediate);
  CHECK(mlp.partition_units() == 8192u);
  CHECK(targets(mlp) == std::vector<std::string>{"model.layers.0.mlp.gate_up_proj.weight",
                                                 "model.layers.0.mlp.down_proj.weight"});
  check_member(mlp.members()[0], {16384, 3072},
               MemberSharding::partitioned_segments(0, {{0, 8192}, {8192, 16384}}), Dtype::BF16);
  check_member(mlp.members()[1], {3072, 8192}, MemberSharding::partitioned(1), Dtype::BF16);

  CHECK(targets(group_named(*model, "model.layers.0.norms")) ==
        std::vector<std::string>{"model.layers.0.input_layernorm.weight",
                                 "model.layers.0.post_attention_layernorm.weight"});
  CHECK(targets(model->groups().back()) ==
        std::vector<std::string>{"model.norm.weight", "lm_head.weight"});
  check_member(model->groups().front().members()[0], {32064, 3072}, MemberSharding::balanced(0),
               Dtype::BF16);
}

TEST_CASE("falcon-180b-chat: query_key_value split by whole KV groups") {
  auto model = describe("falcon-180b-chat");
  CHECK(model->groups()[1].logical_name() == "transformer.h.0.self_attention");
  CHECK(model->groups()[2].logical_name() == "transformer.h.0.norms");
  CHECK(model->groups()[3].logical_name() == "transformer.h.0.mlp");

  const ParameterGroupSpec& attn = group_named(*model, "transformer.h.79.self_attention");
  CHECK(attn.role() == ParameterRole::AttentionHeads);
  CHECK(attn.scope() == GroupScope::indexed(79, std::nullopt));
  // 8 KV groups of 232 / 8 = 29 query heads, one key and one value head:
  // (29 + 2) × 64 = 1984 rows per unit.
  CHECK(attn.partition_units() == 8u);
  REQUIRE(attn.members().size() == 2);
  CHECK(attn.members()[0].target() == "transformer.h.79.self_attention.query_key_value.weight");
  check_member(attn.members()[0], {15872, 14848}, MemberSharding::partitioned(0), Dtype::BF16);
  CHECK(attn.members()[1].target() == "transformer.h.79.self_attention.dense.weight");
  check_member(attn.members()[1], {14848, 14848}, MemberSharding::partitioned(1), Dtype::BF16);

  const ParameterGroupSpec& norms = group_named(*model, "transformer.h.0.norms");
  CHECK(norms.role() == ParameterRole::Replicated);
  CHECK(targets(norms) ==
        std::vector<std::string>{"transformer.h.0.ln_attn.weight", "transformer.h.0.ln_attn.bias",
                                 "transformer.h.0.ln_mlp.weight", "transformer.h.0.ln_mlp.bias"});

  const ParameterGroupSpec& mlp = group_named(*model, "transformer.h.0.mlp");
  CHECK(mlp.role() == ParameterRole::FeedForwardIntermediate);
  CHECK(mlp.partition_units() == 59392u);
  check_member(mlp.members()[0], {59392, 14848}, MemberSharding::partitioned(0), Dtype::BF16);
  check_member(mlp.members()[1], {14848, 59392}, MemberSharding::partitioned(1), Dtype::BF16);

  CHECK(model->groups().front().members()[0].target() == "transformer.word_embeddings.weight");
  CHECK(targets(model->groups().back()) == std::vector<std::string>{"transformer.ln_f.weight",
                                                                    "transformer.ln_f.bias",
                                                                    "lm_head.weight"});
}

TEST_CASE("gpt-oss-20b: stacked MXFP4 experts as plain physical tensors, sinks, router") {
  auto model = describe("gpt-oss-20b");
  CHECK(model->info().experts == std::optional<std::uint64_t>{32});
  CHECK(model->groups()[1].logical_name() == "model.layers.0.self_attn");
  CHECK(model->groups()[2].logical_name() == "model.layers.0.norms");
  CHECK(model->groups()[3].logical_name() == "model.layers.0.mlp.router");
  CHECK(model->groups()[4].logical_name() == "model.layers.0.mlp.experts");

  const ParameterGroupSpec& attn = group_named(*model, "model.layers.23.self_attn");
  CHECK(attn.partition_units() == 8u);
  const std::string a = "model.layers.23.self_attn.";
  CHECK(targets(attn) ==
        std::vector<std::string>{a + "q_proj.weight", a + "k_proj.weight", a + "v_proj.weight",
                                 a + "o_proj.weight", a + "q_proj.bias", a + "k_proj.bias",
                                 a + "v_proj.bias", a + "o_proj.bias", a + "sinks"});
  check_member(attn.members()[0], {4096, 2880}, MemberSharding::partitioned(0), Dtype::BF16);
  check_member(attn.members()[1], {512, 2880}, MemberSharding::partitioned(0).kv_head(),
               Dtype::BF16);
  check_member(attn.members()[3], {2880, 4096}, MemberSharding::partitioned(1), Dtype::BF16);
  check_member(attn.members()[5], {512}, MemberSharding::partitioned(0).kv_head(), Dtype::BF16);
  check_member(attn.members()[7], {2880}, MemberSharding::replicated(), Dtype::BF16);
  check_member(attn.members()[8], {64}, MemberSharding::partitioned(0), Dtype::BF16);

  const ParameterGroupSpec& router = group_named(*model, "model.layers.0.mlp.router");
  CHECK(router.role() == ParameterRole::Replicated);
  CHECK_FALSE(router.partition_units().has_value());
  check_member(router.members()[0], {32, 2880}, MemberSharding::replicated(), Dtype::BF16);
  check_member(router.members()[1], {32}, MemberSharding::replicated(), Dtype::BF16);

  const ParameterGroupSpec& experts = group_named(*model, "model.layers.0.mlp.experts");
  CHECK(experts.role() == ParameterRole::ExpertIntermediate);
  CHECK(experts.scope() == GroupScope::indexed(0, std::nullopt));
  // gcd(2880, 5760 gate_up rows, 90 down blocks): one unit = one MXFP4 block
  // of 32 intermediate values (64 interleaved gate/up rows).
  CHECK(experts.partition_units() == 90u);
  const std::string e = "model.layers.0.mlp.experts.";
  CHECK(targets(experts) ==
        std::vector<std::string>{e + "gate_up_proj_blocks", e + "gate_up_proj_scales",
                                 e + "gate_up_proj_bias", e + "down_proj_blocks",
                                 e + "down_proj_scales", e + "down_proj_bias"});
  check_member(experts.members()[0], {32, 5760, 90, 16},
               MemberSharding::partitioned(1).stacked_experts(0), Dtype::U8);
  check_member(experts.members()[1], {32, 5760, 90},
               MemberSharding::partitioned(1).stacked_experts(0), Dtype::U8);
  check_member(experts.members()[2], {32, 5760}, MemberSharding::partitioned(1).stacked_experts(0),
               Dtype::BF16);
  check_member(experts.members()[3], {32, 2880, 90, 16},
               MemberSharding::partitioned(2).stacked_experts(0), Dtype::U8);
  check_member(experts.members()[4], {32, 2880, 90},
               MemberSharding::partitioned(2).stacked_experts(0), Dtype::U8);
  check_member(experts.members()[5], {32, 2880}, MemberSharding::replicated().stacked_experts(0),
               Dtype::BF16);

  check_member(model->groups().front().members()[0], {201088, 2880}, MemberSharding::balanced(0),
               Dtype::BF16);
}

TEST_CASE("qwen3-14b-mlx-4bit: affine 4-bit linears expanded into weight, scales, biases") {
  auto model = describe("qwen3-14b-mlx-4bit");
  const ParameterGroupSpec& embed = model->groups().front();
  CHECK(targets(embed) == std::vector<std::string>{"model.embed_tokens.weight",
                                                   "model.embed_tokens.scales",
                                                   "model.embed_tokens.biases"});
  check_member(embed.members()[0], {151936, 640}, MemberSharding::balanced(0), Dtype::U32);
  check_member(embed.members()[1], {151936, 80}, MemberSharding::balanced(0), Dtype::BF16);
  check_member(embed.members()[2], {151936, 80}, MemberSharding::balanced(0), Dtype::BF16);

  const ParameterGroupSpec& attn = group_named(*model, "model.layers.0.self_attn");
  CHECK(attn.partition_units() == 8u);
  const std::string a = "model.layers.0.self_attn.";
  CHECK(targets(attn) ==
        std::vector<std::string>{a + "q_proj.weight", a + "q_proj.scales", a + "q_proj.biases",
                                 a + "k_proj.weight", a + "k_proj.scales", a + "k_proj.biases",
                                 a + "v_proj.weight", a + "v_proj.scales", a + "v_proj.biases",
                                 a + "o_proj.weight", a + "o_proj.scales", a + "o_proj.biases"});
  check_member(attn.members()[0], {5120, 640}, MemberSharding::partitioned(0), Dtype::U32);
  check_member(attn.members()[1], {5120, 80}, MemberSharding::partitioned(0), Dtype::BF16);
  check_member(attn.members()[3], {1024, 640}, MemberSharding::partitioned(0).kv_head(),
               Dtype::U32);
  // Expansion keeps per_kv_head on the companions of k_proj.
  check_member(attn.members()[4], {1024, 80}, MemberSharding::partitioned(0).kv_head(),
               Dtype::BF16);
  CHECK(attn.query_units() == 40u);
  check_member(attn.members()[9], {5120, 640}, MemberSharding::partitioned(1), Dtype::U32);
  check_member(attn.members()[11], {5120, 80}, MemberSharding::partitioned(1), Dtype::BF16);

  const ParameterGroupSpec& mlp = group_named(*model, "model.layers.39.mlp");
  // gcd(17408, 17408 / 8 packed words, 17408 / 64 groups) = 272: one unit is
  // one quantization group of 64 intermediate values.
  CHECK(mlp.partition_units() == 272u);
  CHECK(mlp.scope() == GroupScope::indexed(39, std::nullopt));
  check_member(mlp.members()[0], {17408, 640}, MemberSharding::partitioned(0), Dtype::U32);
  check_member(mlp.members()[6], {5120, 2176}, MemberSharding::partitioned(1), Dtype::U32);
  check_member(mlp.members()[7], {5120, 272}, MemberSharding::partitioned(1), Dtype::BF16);
  CHECK(mlp.members()[8].target() == "model.layers.39.mlp.down_proj.biases");

  const ParameterGroupSpec& norms = group_named(*model, "model.layers.0.norms");
  CHECK(norms.members().size() == 4);
  check_member(norms.members()[2], {128}, MemberSharding::replicated(), Dtype::BF16);

  const ParameterGroupSpec& head = model->groups().back();
  CHECK(targets(head) == std::vector<std::string>{"model.norm.weight", "lm_head.weight",
                                                  "lm_head.scales", "lm_head.biases"});
  check_member(head.members()[1], {151936, 640}, MemberSharding::balanced(0), Dtype::U32);
}

}  // namespace
}  // namespace eredu
