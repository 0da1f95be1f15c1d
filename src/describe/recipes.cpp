// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The recipe families' tables (docs/describe.md, "Recipes"). A plain family
// is one recipe::Family here and one row of kFamilies.

#include "describe/recipes.hpp"

#include <array>
#include <span>
#include <string_view>

namespace eredu {
namespace {

using recipe::Group;
using recipe::Kind;
using recipe::Size;
using recipe::Split;
using recipe::Tensor;
using recipe::When;

constexpr auto H = Size::Hidden;
constexpr auto I = Size::Intermediate;
constexpr auto Q = Size::QRows;
constexpr auto KV = Size::KvRows;

constexpr std::array<std::string_view, 1> kModelNorm = {"model.norm.weight"};

// A llama-style decoder: `model.norm.weight` at the end, `layer`'s groups in
// every layer and, for a mixture of experts, the key of its expert count.
constexpr recipe::Family decoder_family(std::span<const Group> layer,
                                        std::string_view experts_key = {}) {
  recipe::Family family;
  family.final_norms = kModelNorm;
  family.layer = layer;
  family.experts_key = experts_key;
  return family;
}

// llama, mistral, qwen2, qwen3: q, k, v, o (biases and q/k norms when
// present), two layernorms, gate/up column-parallel and down row-parallel.
constexpr std::array kLlamaAttention = {
    Tensor{"self_attn.q_proj.weight", {Q, H}, 2, Split::Column},
    Tensor{"self_attn.k_proj.weight", {KV, H}, 2, Split::ColumnKv},
    Tensor{"self_attn.v_proj.weight", {KV, H}, 2, Split::ColumnKv},
    Tensor{"self_attn.o_proj.weight", {H, Q}, 2, Split::Row},
    Tensor{"self_attn.q_proj.bias", {Q}, 1, Split::Column, When::QkvBias},
    Tensor{"self_attn.k_proj.bias", {KV}, 1, Split::ColumnKv, When::QkvBias},
    Tensor{"self_attn.v_proj.bias", {KV}, 1, Split::ColumnKv, When::QkvBias},
    Tensor{"self_attn.o_proj.bias", {H}, 1, Split::Replicated, When::OBias},
};
constexpr std::array kLlamaNorms = {
    Tensor{"input_layernorm.weight", {H}, 1, Split::Replicated},
    Tensor{"post_attention_layernorm.weight", {H}, 1, Split::Replicated},
    Tensor{"self_attn.q_norm.weight", {Size::HeadDim}, 1, Split::Replicated, When::QkNorm},
    Tensor{"self_attn.k_norm.weight", {Size::HeadDim}, 1, Split::Replicated, When::QkNorm},
};
constexpr std::array kLlamaMlp = {
    Tensor{"mlp.gate_proj.weight", {I, H}, 2, Split::Column},
    Tensor{"mlp.up_proj.weight", {I, H}, 2, Split::Column},
    Tensor{"mlp.down_proj.weight", {H, I}, 2, Split::Row},
};
constexpr std::array kLlamaLayer = {
    Group{"self_attn", Kind::Attention, kLlamaAttention},
    Group{"norms", Kind::Replicated, kLlamaNorms},
    Group{"mlp", Kind::Mlp, kLlamaMlp},
};
constexpr recipe::Family kLlama = decoder_family(kLlamaLayer);
constexpr recipe::Family kQwen2 = [] {
  recipe::Family family = kLlama;
  family.qkv_bias = true;
  return family;
}();
constexpr recipe::Family kQwen3 = [] {
  recipe::Family family = kLlama;
  family.qk_norm = true;
  return family;
}();

// phi3: q | k | v fused in qkv_proj and gate | up in gate_up_proj.
constexpr std::array kPhi3Attention = {
    Tensor{"self_attn.qkv_proj.weight", {Size::QkvRows, H}, 2, Split::FusedQkv},
    Tensor{"self_attn.o_proj.weight", {H, Q}, 2, Split::Row},
};
constexpr std::array kPhi3Mlp = {
    Tensor{"mlp.gate_up_proj.weight", {Size::GateUpRows, H}, 2, Split::FusedGateUp},
    Tensor{"mlp.down_proj.weight", {H, I}, 2, Split::Row},
};
constexpr std::array kPhi3Layer = {
    Group{"self_attn", Kind::Attention, kPhi3Attention},
    Group{"norms", Kind::Replicated, kLlamaNorms},
    Group{"mlp", Kind::Mlp, kPhi3Mlp},
};
constexpr recipe::Family kPhi3 = decoder_family(kPhi3Layer);

// gemma2: llama attention and MLP, four norms around them, the head tied
// to the embedding unless the index has lm_head.weight.
constexpr std::array kGemma2Norms = {
    Tensor{"input_layernorm.weight", {H}, 1, Split::Replicated},
    Tensor{"post_attention_layernorm.weight", {H}, 1, Split::Replicated},
    Tensor{"pre_feedforward_layernorm.weight", {H}, 1, Split::Replicated},
    Tensor{"post_feedforward_layernorm.weight", {H}, 1, Split::Replicated},
};
constexpr std::array kGemma2Layer = {
    Group{"self_attn", Kind::Attention, kLlamaAttention},
    Group{"norms", Kind::Replicated, kGemma2Norms},
    Group{"mlp", Kind::Mlp, kLlamaMlp},
};
constexpr recipe::Family kGemma2 = decoder_family(kGemma2Layer);
constexpr std::string_view kGemma2Defaults = R"({"vocab_size": 256000, "hidden_size": 2304,
  "intermediate_size": 9216, "num_hidden_layers": 26, "num_attention_heads": 8,
  "num_key_value_heads": 4, "head_dim": 256, "tie_word_embeddings": true,
  "attention_bias": false})";

// mixtral: llama attention and norms, a router, one group per routed
// expert (w1 and w3 column-parallel, w2 row-parallel).
constexpr auto E = Size::Experts;
constexpr std::array kMixtralRouter = {
    Tensor{"block_sparse_moe.gate.weight", {E, H}, 2, Split::Replicated},
};
constexpr std::array kMixtralExpert = {
    Tensor{"block_sparse_moe.experts.{}.w1.weight", {I, H}, 2, Split::Column},
    Tensor{"block_sparse_moe.experts.{}.w2.weight", {H, I}, 2, Split::Row},
    Tensor{"block_sparse_moe.experts.{}.w3.weight", {I, H}, 2, Split::Column},
};
constexpr std::array kMixtralLayer = {
    Group{"self_attn", Kind::Attention, kLlamaAttention},
    Group{"norms", Kind::Replicated, kLlamaNorms},
    Group{"block_sparse_moe.gate", Kind::Replicated, kMixtralRouter},
    Group{"block_sparse_moe.experts.{}", Kind::Experts, kMixtralExpert},
};
constexpr recipe::Family kMixtral = decoder_family(kMixtralLayer, "num_local_experts");

// granitemoe: llama attention and norms, a router, and the layer's experts
// stacked on axis 0 of input_linear (gate | up) and output_linear (down).
constexpr std::array kGraniteMoeRouter = {
    Tensor{"block_sparse_moe.router.layer.weight", {E, H}, 2, Split::Replicated},
};
constexpr std::array kGraniteMoeExperts = {
    Tensor{"block_sparse_moe.input_linear.weight", {E, Size::GateUpRows, H}, 3, Split::FusedGateUp},
    Tensor{"block_sparse_moe.output_linear.weight", {E, H, I}, 3, Split::Row},
};
constexpr std::array kGraniteMoeLayer = {
    Group{"self_attn", Kind::Attention, kLlamaAttention},
    Group{"norms", Kind::Replicated, kLlamaNorms},
    Group{"block_sparse_moe.router", Kind::Replicated, kGraniteMoeRouter},
    Group{"block_sparse_moe.experts", Kind::StackedExperts, kGraniteMoeExperts},
};
constexpr recipe::Family kGraniteMoe = decoder_family(kGraniteMoeLayer, "num_local_experts");

// minimax_m1: mixtral's experts and an F32 router; attn_type_list gives each
// layer lightning attention (0: q | k | v of each head fused in qkv_proj,
// an output gate and a norm over the heads' outputs, all split by heads) or
// softmax attention (1: llama's).
constexpr std::array kLightningAttention = {
    Tensor{"self_attn.qkv_proj.weight", {Size::HeadQkvRows, H}, 2, Split::Column},
    Tensor{"self_attn.output_gate.weight", {Q, H}, 2, Split::Column},
    Tensor{"self_attn.norm.weight", {Q}, 1, Split::Column},
    Tensor{"self_attn.out_proj.weight", {H, Q}, 2, Split::Row},
};
constexpr std::array kMiniMaxRouter = {
    Tensor{"block_sparse_moe.gate.weight",
           {E, H},
           2,
           Split::Replicated,
           When::Always,
           recipe::Element::F32},
};
// The groups of a MiniMax layer around its `attention`.
constexpr std::array<Group, 4> minimax_layer(Group attention) {
  return {attention, Group{"norms", Kind::Replicated, kLlamaNorms},
          Group{"block_sparse_moe.gate", Kind::Replicated, kMiniMaxRouter},
          Group{"block_sparse_moe.experts.{}", Kind::Experts, kMixtralExpert}};
}
constexpr auto kMiniMaxLightningLayer =
    minimax_layer(Group{"self_attn", Kind::Heads, kLightningAttention});
constexpr auto kMiniMaxSoftmaxLayer =
    minimax_layer(Group{"self_attn", Kind::Attention, kLlamaAttention});
constexpr std::array kMiniMaxLayerTypes = {
    recipe::LayerType{"0", kMiniMaxLightningLayer},
    recipe::LayerType{"1", kMiniMaxSoftmaxLayer},
};
constexpr recipe::Family kMiniMaxM1 = [] {
  recipe::Family family = decoder_family({}, "num_local_experts");
  family.layer_types_key = "attn_type_list";
  family.layer_types = kMiniMaxLayerTypes;
  return family;
}();
// MiniMaxM1Config (remote code of MiniMax-AI/MiniMax-M1); its config.json
// gives no dtype, and its published checkpoints are BF16.
constexpr std::string_view kMiniMaxM1Defaults = R"({"vocab_size": 32000, "hidden_size": 4096,
  "intermediate_size": 14336, "num_hidden_layers": 32, "num_attention_heads": 32,
  "num_key_value_heads": 8, "num_local_experts": 8, "tie_word_embeddings": false,
  "torch_dtype": "bfloat16"})";

constexpr std::array<RecipeFamily, 9> kFamilies = {{
    {"llama", &kLlama, Quantization::Mlx, {}, {}},
    {"mistral", &kLlama, Quantization::Mlx, {}, {}},
    {"qwen2", &kQwen2, Quantization::Mlx, {}, {}},
    {"qwen3", &kQwen3, Quantization::Mlx, {}, {}},
    {"phi3", &kPhi3, Quantization::Mlx, {}, {}},
    {"gemma2", &kGemma2, Quantization::Mlx, "Gemma2Config (transformers 4.57)", kGemma2Defaults},
    {"mixtral", &kMixtral, Quantization::Mlx, {}, {}},
    {"granitemoe", &kGraniteMoe, Quantization::None, {}, {}},
    {"minimax_m1", &kMiniMaxM1, Quantization::None, "MiniMaxM1Config (MiniMax-M1 remote code)",
     kMiniMaxM1Defaults},
}};

}  // namespace

std::span<const RecipeFamily> recipe_families() { return kFamilies; }

}  // namespace eredu
