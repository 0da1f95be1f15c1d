// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// mistral3 with a mistral4 text model (docs/describe.md, "mistral3") on
// mistral-small-4-119b-mlx-4bit-mla-moe: DeepSeek's multi-head latent
// attention and experts under `language_model.`, in MLX's layout (kv_b_proj
// split into embed_q / unembed_out, routed experts stacked in switch_mlp),
// every linear 4-bit affine with groups of 64.
#include <doctest/doctest.h>

#include <array>

#include "described_models.hpp"
#include "model_folders.hpp"
#include "world/world.hpp"

namespace eredu {
namespace {

using Shape = std::vector<std::uint64_t>;
using test::check_member;

constexpr const char* kMistral4 = "mistral-small-4-119b-mlx-4bit-mla-moe";
constexpr std::uint64_t kBytes = 66949842944u;

// A 4-bit linear of `elements` values stores them in elements/2 bytes and a
// BF16 scale and bias per 64: elements · 9/16 bytes. With H = 4096, 32
// heads, q_lora 1024, kv_lora 256, nope = rope = 64, v_head 128, 128 experts
// of 2048 channels, one shared expert and a 131072-row vocabulary, a rank of
// TP t and EP e holds 1/t of the embedding, lm_head, q_b_proj, embed_q,
// unembed_out, o_proj and every MLP's channels, 1/e of the routed experts,
// and whole q_a_proj, kv_a_proj_with_mqa, norms and router.
constexpr std::uint64_t quantized(std::uint64_t rows, std::uint64_t cols) {
  return rows * cols / 16 * 9;
}
constexpr std::uint64_t rank_bytes(std::uint64_t t, std::uint64_t e) {
  const std::uint64_t h = 4096, heads = 32 / t, channels = 2048 / t, experts = 128 / e;
  const std::uint64_t ends = 2 * quantized(131072 / t, h) + 2 * h;
  const std::uint64_t attention =
      quantized(1024, h) + 2 * 1024 + quantized(heads * 128, 1024) + quantized(320, h) + 2 * 256 +
      heads * (quantized(256, 64) + quantized(128, 256)) + quantized(h, heads * 128);
  const std::uint64_t mlp = 3 * quantized(channels, h);
  return ends + 36 * (2 * 2 * h + attention + 128 * h * 2 + (experts + 1) * mlp);
}
static_assert(rank_bytes(1, 1) == kBytes);

TEST_CASE("mistral3: every index tensor described once, bytes equal total_size") {
  const auto model = test::describe(kMistral4);
  CHECK(model->tensor_count() == 1483);
  CHECK(model->global_bytes() == kBytes);
  CHECK(model->info() == ModelInfo{kMistral4, 36, 128});
  // embed; attention, norms, router, stacked experts, shared experts per
  // layer; head.
  REQUIRE(model->groups().size() == 1 + 5 * 36 + 1);

  const std::string layer = "language_model.model.layers.7.";
  const ParameterGroupSpec& attention = test::group_named(*model, layer + "self_attn");
  CHECK(attention.role() == ParameterRole::AttentionHeads);
  CHECK(attention.partition_units() == std::optional<std::uint64_t>{32});
  const std::string attn = layer + "self_attn.";
  // Every linear stored as its packed U32 weight, BF16 scales and biases.
  std::vector<std::string> expected;
  for (const char* module : {"q_a_proj", "q_a_layernorm", "q_b_proj", "kv_a_proj_with_mqa",
                             "kv_a_layernorm", "embed_q", "unembed_out", "o_proj"}) {
    const std::string name = attn + module;
    expected.push_back(name + ".weight");
    if (!name.ends_with("layernorm")) {
      expected.push_back(name + ".scales");
      expected.push_back(name + ".biases");
    }
  }
  CHECK(test::targets(attention) == expected);
  check_member(attention, attn + "embed_q.weight", {32, 256, 8}, MemberSharding::partitioned(0),
               Dtype::U32);
  check_member(attention, attn + "embed_q.scales", {32, 256, 1}, MemberSharding::partitioned(0),
               Dtype::BF16);
  check_member(attention, attn + "unembed_out.weight", {32, 128, 32},
               MemberSharding::partitioned(0), Dtype::U32);
  check_member(attention, attn + "unembed_out.biases", {32, 128, 4}, MemberSharding::partitioned(0),
               Dtype::BF16);
  check_member(attention, attn + "kv_a_proj_with_mqa.weight", {320, 512},
               MemberSharding::replicated(), Dtype::U32);
  check_member(attention, attn + "o_proj.scales", {4096, 64}, MemberSharding::partitioned(1),
               Dtype::BF16);

  const ParameterGroupSpec& router = test::group_named(*model, layer + "mlp.gate");
  CHECK(router.role() == ParameterRole::Replicated);
  CHECK(test::targets(router) == std::vector<std::string>{layer + "mlp.gate.weight"});
  check_member(router, layer + "mlp.gate.weight", {128, 4096}, MemberSharding::replicated(),
               Dtype::BF16);

  const ParameterGroupSpec& experts = test::group_named(*model, layer + "mlp.switch_mlp");
  CHECK(experts.role() == ParameterRole::ExpertIntermediate);
  CHECK(experts.scope() == GroupScope::indexed(7, std::nullopt));
  // 2048 channels reduced to whole groups of down_proj's 64 inputs.
  CHECK(experts.partition_units() == std::optional<std::uint64_t>{32});
  const std::string mlp = layer + "mlp.switch_mlp.";
  check_member(experts, mlp + "gate_proj.weight", {128, 2048, 512},
               MemberSharding::partitioned(1).stacked_experts(0), Dtype::U32);
  check_member(experts, mlp + "up_proj.scales", {128, 2048, 64},
               MemberSharding::partitioned(1).stacked_experts(0), Dtype::BF16);
  check_member(experts, mlp + "down_proj.weight", {128, 4096, 256},
               MemberSharding::partitioned(2).stacked_experts(0), Dtype::U32);
  check_member(experts, mlp + "down_proj.biases", {128, 4096, 32},
               MemberSharding::partitioned(2).stacked_experts(0), Dtype::BF16);
  CHECK(test::targets(model->groups().back()) ==
        std::vector<std::string>{"language_model.model.norm.weight",
                                 "language_model.lm_head.weight", "language_model.lm_head.scales",
                                 "language_model.lm_head.biases"});
}

TEST_CASE("mistral3: coverage and each rank's bytes at TP 1/2/4/8, TP 2 x EP 2, TP 4 x EP 8") {
  const auto model = test::describe(kMistral4);
  const std::array<std::array<std::uint64_t, 2>, 6> sizes{
      {{1, 1}, {2, 1}, {4, 1}, {8, 1}, {2, 2}, {4, 8}}};
  for (const auto& size : sizes) {
    const std::uint64_t tp = size[0];
    const std::uint64_t ep = size[1];
    CAPTURE(tp);
    CAPTURE(ep);
    auto world = plan_world(model, test::topology(tp, 1, ep), ShardingPolicy::Require);
    REQUIRE_MESSAGE(world.has_value(), world.error().message);
    CHECK(world.value().coverage_ok());
    for (const auto& rank : world.value().ranks) {
      CHECK(rank.totals.local_bytes == rank_bytes(tp, ep));
    }
  }
  CHECK(rank_bytes(8, 1) == 8499906560u);
  CHECK(rank_bytes(4, 8) == 2580875264u);
}

TEST_CASE("mistral3: another text model or a vision tower is refused, naming it") {
  test::EditedFolder text(kMistral4);
  text.config["text_config"]["model_type"] = "mistral";
  Error refused = text.error();
  CHECK(refused.code == Status::UnsupportedModel);
  CHECK(refused.message == text.file() +
                               ": model_type \"mistral3\" with text_config.model_type \"mistral\" "
                               "is not supported; supported: \"mistral4\"");

  test::EditedFolder vision(kMistral4);
  vision.index["weight_map"]["vision_tower.patch_conv.weight"] = "model-00001-of-00014.safetensors";
  vision.index["weight_map"]["multi_modal_projector.linear_1.weight"] =
      "model-00001-of-00014.safetensors";
  refused = vision.error();
  CHECK(refused.code == Status::UnsupportedModel);
  CHECK(refused.message ==
        vision.file() +
            ": model_type \"mistral3\": only the language model is described; its vision tower "
            "and projector are not supported: multi_modal_projector.linear_1.* (1 tensor), "
            "vision_tower.patch_conv.* (1 tensor)");
}

}  // namespace
}  // namespace eredu
