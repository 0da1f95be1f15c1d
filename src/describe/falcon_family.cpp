// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "describe/falcon_family.hpp"

#include <string>
#include <utility>
#include <vector>

namespace eredu {
namespace {

struct FalconConfig {
  std::uint64_t hidden = 0;
  std::uint64_t heads = 0;
  std::uint64_t kv_heads = 0;
  std::uint64_t layers = 0;
  std::uint64_t vocab = 0;
  std::uint64_t ffn = 0;                 // ffn_hidden_size, default 4 × hidden
  std::uint64_t q_rows = 0;              // heads × head_dim (= hidden)
  std::uint64_t qkv_rows = 0;            // (heads + 2 × kv heads) × head_dim
  std::vector<const char*> layer_norms;  // module names inside a layer
  bool tied = true;
  bool bias = false;  // `bias`: the linears' biases, when no index says
  Dtype dtype = Dtype::F32;
};

Result<FalconConfig> read_falcon_config(const ConfigFields& fields) {
  EREDU_TRY(new_architecture, fields.flag("new_decoder_architecture", false));
  if (!new_architecture) {
    return failf(Status::UnsupportedModel,
                 "{}: falcon without new_decoder_architecture (the falcon-7b multi-query "
                 "layout) is not supported; supported: new_decoder_architecture true",
                 fields.file());
  }
  FalconConfig config;
  EREDU_TRY(dtype, fields.dtype());
  EREDU_TRY(hidden, fields.required_count("hidden_size"));
  EREDU_TRY(heads, fields.required_count("num_attention_heads"));
  EREDU_TRY(kv_heads, fields.optional_count("num_kv_heads"));
  EREDU_TRY(layers, fields.required_count("num_hidden_layers"));
  EREDU_TRY(vocab, fields.required_count("vocab_size"));
  EREDU_TRY(ffn, fields.optional_count("ffn_hidden_size"));
  EREDU_TRY(parallel, fields.flag("parallel_attn", true));
  EREDU_TRY(norms_in_parallel, fields.optional_count("num_ln_in_parallel_attn"));
  EREDU_TRY(tied, fields.flag("tie_word_embeddings", true));
  config.kv_heads = kv_heads.value_or(heads);
  if (hidden % heads != 0) {
    return failf(Status::Parse, "{}: hidden_size {} is not divisible by num_attention_heads {}",
                 fields.file(), hidden, heads);
  }
  if (heads % config.kv_heads != 0) {
    return failf(Status::Parse, "{}: num_attention_heads {} is not divisible by num_kv_heads {}",
                 fields.file(), heads, config.kv_heads);
  }
  const std::uint64_t head_dim = hidden / heads;
  EREDU_TRY(kv_rows, fields.product("num_kv_heads × head_dim", {config.kv_heads, head_dim}));
  EREDU_TRY(qkv_rows, fields.sum("query_key_value rows", {hidden, kv_rows, kv_rows}));
  EREDU_TRY(default_ffn, fields.product("4 × hidden_size", {4, hidden}));
  config.hidden = hidden;
  config.heads = heads;
  config.layers = layers;
  config.vocab = vocab;
  config.ffn = ffn.value_or(default_ffn);
  config.q_rows = hidden;
  config.qkv_rows = qkv_rows;
  if (!parallel) {
    config.layer_norms = {"input_layernorm", "post_attention_layernorm"};
  } else if (norms_in_parallel.value_or(2) == 2) {
    config.layer_norms = {"ln_attn", "ln_mlp"};
  } else {
    config.layer_norms = {"input_layernorm"};
  }
  config.tied = tied;
  EREDU_TRY(bias, fields.flag("bias", false));
  config.bias = bias;
  config.dtype = dtype;
  return config;
}

Result<ParameterGroupSpec> attention_group(const FalconConfig& config, const WeightIndex& index,
                                           const std::string& prefix, GroupScope scope) {
  const std::string attn = prefix + "self_attention.";
  Members members(config.dtype);
  // Rows of query_key_value: per KV group, its heads / kv_heads query heads,
  // then one key and one value head, so one unit = one whole KV group.
  members.add(attn + "query_key_value.weight", {config.qkv_rows, config.hidden},
              MemberSharding::partitioned(0));
  members.add(attn + "dense.weight", {config.hidden, config.q_rows},
              MemberSharding::partitioned(1));
  members.add_present(index, attn + "query_key_value.bias", {config.qkv_rows},
                      MemberSharding::partitioned(0), config.bias);
  members.add_present(index, attn + "dense.bias", {config.hidden}, MemberSharding::replicated(),
                      config.bias);
  return ParameterGroupSpec::partitioned(prefix + "self_attention", ParameterRole::AttentionHeads,
                                         config.kv_heads, members.take(), scope);
}

Result<ParameterGroupSpec> norms_group(const FalconConfig& config, const std::string& prefix,
                                       GroupScope scope) {
  Members members(config.dtype);
  for (const char* norm : config.layer_norms) {
    for (const char* part : {".weight", ".bias"}) {
      members.add(prefix + norm + part, {config.hidden}, MemberSharding::replicated());
    }
  }
  return ParameterGroupSpec::create(prefix + "norms", ParameterRole::Replicated, members.take(),
                                    scope);
}

Result<ParameterGroupSpec> mlp_group(const FalconConfig& config, const WeightIndex& index,
                                     const std::string& prefix, GroupScope scope) {
  const std::string mlp = prefix + "mlp.";
  Members members(config.dtype);
  members.add(mlp + "dense_h_to_4h.weight", {config.ffn, config.hidden},
              MemberSharding::partitioned(0));
  members.add(mlp + "dense_4h_to_h.weight", {config.hidden, config.ffn},
              MemberSharding::partitioned(1));
  members.add_present(index, mlp + "dense_h_to_4h.bias", {config.ffn},
                      MemberSharding::partitioned(0), config.bias);
  members.add_present(index, mlp + "dense_4h_to_h.bias", {config.hidden},
                      MemberSharding::replicated(), config.bias);
  return ParameterGroupSpec::partitioned(prefix + "mlp", ParameterRole::FeedForwardIntermediate,
                                         config.ffn, members.take(), scope);
}

}  // namespace

Result<FamilyGroups> describe_falcon(const ConfigFields& fields, const WeightIndex& index) {
  EREDU_TRY(config, read_falcon_config(fields));
  EREDU_TRY(check_layer_count(config.layers, index.file, index.tensor_bound()));
  const DecoderOutline outline{config.layers,
                               config.vocab,
                               config.hidden,
                               config.dtype,
                               uses_tied_head(config.tied, index),
                               "transformer.word_embeddings.weight",
                               "transformer.h.",
                               {"transformer.ln_f.weight", "transformer.ln_f.bias"},
                               "lm_head.weight"};
  return decoder_groups(
      outline,
      [&](const std::string& prefix, GroupScope scope) -> Result<std::vector<ParameterGroupSpec>> {
        EREDU_TRY(attention, attention_group(config, index, prefix, scope));
        EREDU_TRY(norms, norms_group(config, prefix, scope));
        EREDU_TRY(mlp, mlp_group(config, index, prefix, scope));
        return std::vector{std::move(attention), std::move(norms), std::move(mlp)};
      });
}

}  // namespace eredu
