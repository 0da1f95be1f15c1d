// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "deepseek_description.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>

namespace eredu::bench {
namespace {

// deepseek-r1/config.json
constexpr std::uint64_t kLayers = 61;
constexpr std::uint64_t kFirstDense = 3;
constexpr std::uint64_t kExperts = 256;
constexpr std::uint64_t kHidden = 7168;
constexpr std::uint64_t kIntermediate = 18432;
constexpr std::uint64_t kMoeIntermediate = 2048;
constexpr std::uint64_t kVocab = 129280;
constexpr std::uint64_t kHeads = 128;
constexpr std::uint64_t kQLoraRank = 1536;
constexpr std::uint64_t kKvLoraRank = 512;
constexpr std::uint64_t kQkNope = 128;
constexpr std::uint64_t kQkRope = 64;
constexpr std::uint64_t kVHead = 128;
constexpr std::uint64_t kBlock = 128;

std::uint64_t blocks(std::uint64_t n) { return (n + kBlock - 1) / kBlock; }

template <class T>
T must(Result<T> result) {
  if (!result) {
    std::fprintf(stderr, "benchmark description: %s\n", result.error().message.c_str());
    std::abort();
  }
  return std::move(result).value();
}

using Members = std::vector<ParameterMemberSpec>;

// A block-FP8 matrix and its scale, partitioned on `axis`.
void fp8_pair(Members& out, const std::string& prefix, std::uint64_t rows, std::uint64_t cols,
              MemberSharding sharding) {
  out.emplace_back(prefix + ".weight", std::vector<std::uint64_t>{rows, cols}, sharding,
                   Dtype::F8E4M3);
  out.emplace_back(prefix + ".weight_scale_inv",
                   std::vector<std::uint64_t>{blocks(rows), blocks(cols)}, sharding, Dtype::F32);
}

void mlp(Members& out, const std::string& prefix, std::uint64_t inner) {
  fp8_pair(out, prefix + ".gate_proj", inner, kHidden, MemberSharding::partitioned(0));
  fp8_pair(out, prefix + ".up_proj", inner, kHidden, MemberSharding::partitioned(0));
  fp8_pair(out, prefix + ".down_proj", kHidden, inner, MemberSharding::partitioned(1));
}

void add(ModelBuilder& builder, Result<ParameterGroupSpec> group) {
  auto added = builder.add_group(must(std::move(group)));
  if (!added) {
    std::fprintf(stderr, "benchmark description: %s\n", added.error().message.c_str());
    std::abort();
  }
}

void add_layer(ModelBuilder& builder, std::uint64_t layer) {
  const std::string prefix = fmt::format("model.layers.{}", layer);
  const GroupScope scope = GroupScope::indexed(layer, std::nullopt);

  Members attention;
  fp8_pair(attention, prefix + ".self_attn.q_a_proj", kQLoraRank, kHidden,
           MemberSharding::replicated());
  fp8_pair(attention, prefix + ".self_attn.q_b_proj", kHeads * (kQkNope + kQkRope), kQLoraRank,
           MemberSharding::partitioned(0));
  fp8_pair(attention, prefix + ".self_attn.kv_a_proj_with_mqa", kKvLoraRank + kQkRope, kHidden,
           MemberSharding::replicated());
  fp8_pair(attention, prefix + ".self_attn.kv_b_proj", kHeads * (kQkNope + kVHead), kKvLoraRank,
           MemberSharding::partitioned(0));
  fp8_pair(attention, prefix + ".self_attn.o_proj", kHidden, kHeads * kVHead,
           MemberSharding::partitioned(1));
  // 128 heads whose q_b rows (192 per head) fill whole 128-row blocks in pairs.
  add(builder,
      partitioned_group_with_preferred_units(prefix + ".self_attn", ParameterRole::AttentionHeads,
                                             kHeads, std::move(attention), scope));

  Members norms;
  for (const char* name : {".input_layernorm.weight", ".post_attention_layernorm.weight"}) {
    norms.emplace_back(prefix + name, std::vector<std::uint64_t>{kHidden},
                       MemberSharding::replicated(), Dtype::BF16);
  }
  norms.emplace_back(prefix + ".self_attn.q_a_layernorm.weight",
                     std::vector<std::uint64_t>{kQLoraRank}, MemberSharding::replicated(),
                     Dtype::BF16);
  norms.emplace_back(prefix + ".self_attn.kv_a_layernorm.weight",
                     std::vector<std::uint64_t>{kKvLoraRank}, MemberSharding::replicated(),
                     Dtype::BF16);
  add(builder, ParameterGroupSpec::create(prefix + ".norms", ParameterRole::Replicated,
                                          std::move(norms), scope));

  if (layer < kFirstDense) {
    Members dense;
    mlp(dense, prefix + ".mlp", kIntermediate);
    add(builder, partitioned_group_with_preferred_units(prefix + ".mlp",
                                                        ParameterRole::FeedForwardIntermediate,
                                                        kIntermediate, std::move(dense), scope));
    return;
  }
  Members router;
  router.emplace_back(prefix + ".mlp.gate.weight", std::vector<std::uint64_t>{kExperts, kHidden},
                      MemberSharding::replicated(), Dtype::BF16);
  router.emplace_back(prefix + ".mlp.gate.e_score_correction_bias",
                      std::vector<std::uint64_t>{kExperts}, MemberSharding::replicated(),
                      Dtype::F32);
  add(builder, ParameterGroupSpec::create(prefix + ".mlp.gate", ParameterRole::Replicated,
                                          std::move(router), scope));
  Members shared;
  mlp(shared, prefix + ".mlp.shared_experts", kMoeIntermediate);
  add(builder, partitioned_group_with_preferred_units(prefix + ".mlp.shared_experts",
                                                      ParameterRole::ExpertIntermediate,
                                                      kMoeIntermediate, std::move(shared), scope));
  for (std::uint64_t expert = 0; expert < kExperts; ++expert) {
    Members routed;
    const std::string name = fmt::format("{}.mlp.experts.{}", prefix, expert);
    mlp(routed, name, kMoeIntermediate);
    add(builder, partitioned_group_with_preferred_units(name, ParameterRole::ExpertIntermediate,
                                                        kMoeIntermediate, std::move(routed),
                                                        GroupScope::indexed(layer, expert)));
  }
}

}  // namespace

std::shared_ptr<const ModelDescription> deepseek_v3_description() {
  auto builder = must(ModelBuilder::create({"deepseek-v3-scale", kLayers, kExperts}));
  add(builder, ParameterGroupSpec::create(
                   "embed", ParameterRole::Vocabulary,
                   {ParameterMemberSpec("model.embed_tokens.weight", {kVocab, kHidden},
                                        MemberSharding::balanced(0), Dtype::BF16)},
                   GroupScope::embedding()));
  for (std::uint64_t layer = 0; layer < kLayers; ++layer) add_layer(builder, layer);
  add(builder,
      ParameterGroupSpec::create("head", ParameterRole::Vocabulary,
                                 {ParameterMemberSpec("model.norm.weight", {kHidden},
                                                      MemberSharding::replicated(), Dtype::BF16),
                                  ParameterMemberSpec("lm_head.weight", {kVocab, kHidden},
                                                      MemberSharding::balanced(0), Dtype::BF16)},
                                 GroupScope::output_head()));
  return must(std::move(builder).finish());
}

}  // namespace eredu::bench
