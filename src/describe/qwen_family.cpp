// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "describe/qwen_family.hpp"

#include <array>
#include <string>
#include <utility>
#include <vector>

#include "model/projection.hpp"

namespace eredu {
namespace {

struct QwenConfig {
  std::uint64_t hidden = 0;
  std::uint64_t heads = 0;
  std::uint64_t layers = 0;
  std::uint64_t vocab = 0;
  std::uint64_t projection = 0;         // heads × kv_channels: the rows of each of q, k, v
  std::uint64_t c_attn_rows = 0;        // 3 × projection
  std::uint64_t half_intermediate = 0;  // intermediate_size / 2: the rows of w1 and of w2
  bool tied = false;
  Dtype dtype = Dtype::BF16;
};

// torch_dtype / dtype when given. Qwen's own configs give neither but three
// precision flags, at most one of them true; with all three false Qwen picks
// the precision from the device (bf16 where supported), and its published
// checkpoints are BF16. F16 and BF16 have the same size, so the checkpoint
// check still proves the element width.
Result<Dtype> qwen_dtype(const ConfigFields& fields) {
  if (fields.field("torch_dtype") != nullptr || fields.field("dtype") != nullptr) {
    return fields.dtype();
  }
  constexpr std::array<std::pair<const char*, Dtype>, 3> kFlags = {
      {{"bf16", Dtype::BF16}, {"fp16", Dtype::F16}, {"fp32", Dtype::F32}}};
  std::vector<std::pair<const char*, Dtype>> set;
  for (const auto& [name, dtype] : kFlags) {
    EREDU_TRY(on, fields.flag(name, false));
    if (on) set.emplace_back(name, dtype);
  }
  if (set.size() > 1) {
    std::string names;
    for (const auto& [name, dtype] : set) names += (names.empty() ? "" : ", ") + std::string(name);
    return failf(Status::Parse, "{}: at most one of bf16, fp16, fp32 may be true, got {}",
                 fields.file(), names);
  }
  return set.empty() ? Dtype::BF16 : set.front().second;
}

Result<QwenConfig> read_qwen_config(const ConfigFields& fields) {
  EREDU_TRY(dtype, qwen_dtype(fields));
  EREDU_TRY(hidden, fields.required_count("hidden_size"));
  EREDU_TRY(intermediate, fields.required_count("intermediate_size"));
  EREDU_TRY(layers, fields.required_count("num_hidden_layers"));
  EREDU_TRY(heads, fields.required_count("num_attention_heads"));
  EREDU_TRY(kv_channels, fields.optional_count("kv_channels"));
  EREDU_TRY(vocab, fields.required_count("vocab_size"));
  EREDU_TRY(tied, fields.flag("tie_word_embeddings", false));
  if (!kv_channels && hidden % heads != 0) {
    return failf(Status::Parse,
                 "{}: hidden_size {} is not divisible by num_attention_heads {} and kv_channels is "
                 "not given",
                 fields.file(), hidden, heads);
  }
  if (intermediate % 2 != 0) {
    return failf(Status::Parse, "{}: intermediate_size {} is odd; w1 and w2 each hold half of it",
                 fields.file(), intermediate);
  }
  EREDU_TRY(projection, fields.product("num_attention_heads × kv_channels",
                                       {heads, kv_channels.value_or(hidden / heads)}));
  EREDU_TRY(c_attn_rows, fields.product("c_attn rows", {3, projection}));
  return QwenConfig{hidden,           heads, layers, vocab, projection, c_attn_rows,
                    intermediate / 2, tied,  dtype};
}

Result<ParameterGroupSpec> attention_group(const QwenConfig& config, const WeightIndex& index,
                                           const std::string& prefix, GroupScope scope) {
  const std::string attn = prefix + "attn.";
  // c_attn's rows are component-major (all q rows, then k, then v: Qwen
  // splits its output in three), as vLLM's QKVParallelLinear reads them.
  ProjectionModule c_attn = {
      {attn + "c_attn.weight", {config.c_attn_rows, config.hidden}, config.dtype}};
  if (index.contains(attn + "c_attn.bias", true)) {
    c_attn.push_back({attn + "c_attn.bias", {config.c_attn_rows}, config.dtype});
  }
  ProjectionModule c_proj = {
      {attn + "c_proj.weight", {config.hidden, config.projection}, config.dtype}};
  if (index.contains(attn + "c_proj.bias")) {
    c_proj.push_back({attn + "c_proj.bias", {config.hidden}, config.dtype});
  }
  const std::uint64_t p = config.projection;
  return segmented_projection_group(
      prefix + "attn", ParameterRole::AttentionHeads, c_attn, c_proj,
      {IndexRange{0, p}, IndexRange{p, 2 * p}, IndexRange{2 * p, config.c_attn_rows}}, config.heads,
      scope);
}

Result<ParameterGroupSpec> norms_group(const QwenConfig& config, const std::string& prefix,
                                       GroupScope scope) {
  Members members(config.dtype);
  members.add(prefix + "ln_1.weight", {config.hidden}, MemberSharding::replicated());
  members.add(prefix + "ln_2.weight", {config.hidden}, MemberSharding::replicated());
  return ParameterGroupSpec::create(prefix + "norms", ParameterRole::Replicated, members.take(),
                                    scope);
}

// SwiGLU: w1 and w2 are the two column-parallel halves (vLLM merges them as
// up and gate), c_proj the row-parallel down projection.
Result<ParameterGroupSpec> mlp_group(const QwenConfig& config, const std::string& prefix,
                                     GroupScope scope) {
  const std::string mlp = prefix + "mlp.";
  const std::uint64_t half = config.half_intermediate;
  Members members(config.dtype);
  members.add(mlp + "w1.weight", {half, config.hidden}, MemberSharding::partitioned(0));
  members.add(mlp + "w2.weight", {half, config.hidden}, MemberSharding::partitioned(0));
  members.add(mlp + "c_proj.weight", {config.hidden, half}, MemberSharding::partitioned(1));
  return ParameterGroupSpec::partitioned(prefix + "mlp", ParameterRole::FeedForwardIntermediate,
                                         half, members.take(), scope);
}

}  // namespace

Result<FamilyGroups> describe_qwen(const ConfigFields& fields, const WeightIndex& index) {
  EREDU_TRY(config, read_qwen_config(fields));
  EREDU_TRY(check_layer_count(config.layers, index.file, index.tensor_bound()));
  const DecoderOutline outline{config.layers,
                               config.vocab,
                               config.hidden,
                               config.dtype,
                               uses_tied_head(config.tied, index),
                               "transformer.wte.weight",
                               "transformer.h.",
                               {"transformer.ln_f.weight"},
                               "lm_head.weight"};
  return decoder_groups(
      outline,
      [&](const std::string& prefix, GroupScope scope) -> Result<std::vector<ParameterGroupSpec>> {
        EREDU_TRY(attention, attention_group(config, index, prefix, scope));
        EREDU_TRY(norms, norms_group(config, prefix, scope));
        EREDU_TRY(mlp, mlp_group(config, prefix, scope));
        return std::vector{std::move(attention), std::move(norms), std::move(mlp)};
      });
}

}  // namespace eredu
