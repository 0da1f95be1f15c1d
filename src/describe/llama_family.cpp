// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "describe/llama_family.hpp"

#include <string>
#include <utility>
#include <vector>

#include "describe/decoder_config.hpp"

namespace eredu {

Result<ParameterGroupSpec> llama_attention_group(const DecoderConfig& config,
                                                 const WeightIndex& index,
                                                 const AttentionRows& rows,
                                                 const std::string& prefix, GroupScope scope) {
  const std::string attn = prefix + "self_attn.";
  Members members(config.dtype);
  // With an output gate, each query head's rows are followed by its gate's:
  // a range of whole query heads is still one contiguous range of rows.
  members.add(attn + "q_proj.weight", {rows.q_proj_rows, config.hidden_size},
              MemberSharding::partitioned(0));
  // k and v (and their biases) are per KV head: held whole when KV heads are
  // replicated (docs/planning.md, "KV-head replication").
  members.add(attn + "k_proj.weight", {rows.kv_rows, config.hidden_size},
              MemberSharding::partitioned(0).kv_head());
  members.add(attn + "v_proj.weight", {rows.kv_rows, config.hidden_size},
              MemberSharding::partitioned(0).kv_head());
  members.add(attn + "o_proj.weight", {config.hidden_size, rows.q_rows},
              MemberSharding::partitioned(1));
  members.add_present(index, attn + "q_proj.bias", {rows.q_proj_rows},
                      MemberSharding::partitioned(0), config.qkv_bias);
  for (const char* name : {"k_proj.bias", "v_proj.bias"}) {
    members.add_present(index, attn + name, {rows.kv_rows},
                        MemberSharding::partitioned(0).kv_head(), config.qkv_bias);
  }
  members.add_present(index, attn + "o_proj.bias", {config.hidden_size},
                      MemberSharding::replicated(), config.o_bias);
  return ParameterGroupSpec::partitioned(prefix + "self_attn", ParameterRole::AttentionHeads,
                                         config.num_key_value_heads, members.take(), scope,
                                         config.num_attention_heads);
}

Result<ParameterGroupSpec> llama_norms_group(const DecoderConfig& config, const WeightIndex& index,
                                             const std::string& prefix, GroupScope scope) {
  Members members(config.dtype);
  members.add(prefix + "input_layernorm.weight", {config.hidden_size},
              MemberSharding::replicated());
  members.add(prefix + "post_attention_layernorm.weight", {config.hidden_size},
              MemberSharding::replicated());
  for (const char* name : {"self_attn.q_norm.weight", "self_attn.k_norm.weight"}) {
    members.add_present(index, prefix + name, {config.head_dim}, MemberSharding::replicated(),
                        config.qk_norm);
  }
  return ParameterGroupSpec::create(prefix + "norms", ParameterRole::Replicated, members.take(),
                                    scope);
}

Result<ParameterGroupSpec> llama_mlp_group(const DecoderConfig& config, const std::string& prefix,
                                           GroupScope scope) {
  const std::string mlp = prefix + "mlp.";
  Members members(config.dtype);
  members.add(mlp + "gate_proj.weight", {config.intermediate_size, config.hidden_size},
              MemberSharding::partitioned(0));
  members.add(mlp + "up_proj.weight", {config.intermediate_size, config.hidden_size},
              MemberSharding::partitioned(0));
  members.add(mlp + "down_proj.weight", {config.hidden_size, config.intermediate_size},
              MemberSharding::partitioned(1));
  return ParameterGroupSpec::partitioned(prefix + "mlp", ParameterRole::FeedForwardIntermediate,
                                         config.intermediate_size, members.take(), scope);
}

}  // namespace eredu
