// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "describe/gpt_neox_family.hpp"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace eredu {
namespace {

struct GptNeoxConfig {
  std::uint64_t hidden = 0;
  std::uint64_t heads = 0;
  std::uint64_t layers = 0;
  std::uint64_t vocab = 0;
  std::uint64_t intermediate = 0;
  std::uint64_t qkv_rows = 0;  // heads × (query, key, value) × head_dim
  bool tied = false;
  Dtype dtype = Dtype::F32;
};

Result<GptNeoxConfig> read_gpt_neox_config(const ConfigFields& fields) {
  EREDU_TRY(dtype, fields.dtype());
  EREDU_TRY(hidden, fields.required_count("hidden_size"));
  EREDU_TRY(intermediate, fields.required_count("intermediate_size"));
  EREDU_TRY(layers, fields.required_count("num_hidden_layers"));
  EREDU_TRY(heads, fields.required_count("num_attention_heads"));
  EREDU_TRY(vocab, fields.required_count("vocab_size"));
  EREDU_TRY(tied, fields.flag("tie_word_embeddings", false));
  if (hidden % heads != 0) {
    return failf(Status::Parse, "{}: hidden_size {} is not divisible by num_attention_heads {}",
                 fields.file(), hidden, heads);
  }
  EREDU_TRY(qkv_rows, fields.product("query_key_value rows", {3, hidden}));
  return GptNeoxConfig{hidden, heads, layers, vocab, intermediate, qkv_rows, tied, dtype};
}

Result<ParameterGroupSpec> attention_group(const GptNeoxConfig& config, const WeightIndex& index,
                                           const std::string& prefix, GroupScope scope) {
  const std::string attn = prefix + "attention.";
  Members members(config.dtype);
  // Rows of query_key_value: per head, its query, key and value rows
  // ([heads, 3, head_dim]), so one unit = one whole head. vLLM's loader
  // regroups them component-major before its QKVParallelLinear takes each
  // rank's heads, which selects the same checkpoint rows.
  members.add(attn + "query_key_value.weight", {config.qkv_rows, config.hidden},
              MemberSharding::partitioned(0));
  members.add(attn + "dense.weight", {config.hidden, config.hidden},
              MemberSharding::partitioned(1));
  members.add_present(index, attn + "query_key_value.bias", {config.qkv_rows},
                      MemberSharding::partitioned(0), true);
  members.add_present(index, attn + "dense.bias", {config.hidden}, MemberSharding::replicated(),
                      true);
  return ParameterGroupSpec::partitioned(prefix + "attention", ParameterRole::AttentionHeads,
                                         config.heads, members.take(), scope);
}

Result<ParameterGroupSpec> norms_group(const GptNeoxConfig& config, const std::string& prefix,
                                       GroupScope scope) {
  Members members(config.dtype);
  for (const char* norm : {"input_layernorm", "post_attention_layernorm"}) {
    for (const char* part : {".weight", ".bias"}) {
      members.add(prefix + norm + part, {config.hidden}, MemberSharding::replicated());
    }
  }
  return ParameterGroupSpec::create(prefix + "norms", ParameterRole::Replicated, members.take(),
                                    scope);
}

Result<ParameterGroupSpec> mlp_group(const GptNeoxConfig& config, const WeightIndex& index,
                                     const std::string& prefix, GroupScope scope) {
  const std::string mlp = prefix + "mlp.";
  Members members(config.dtype);
  members.add(mlp + "dense_h_to_4h.weight", {config.intermediate, config.hidden},
              MemberSharding::partitioned(0));
  members.add(mlp + "dense_4h_to_h.weight", {config.hidden, config.intermediate},
              MemberSharding::partitioned(1));
  members.add_present(index, mlp + "dense_h_to_4h.bias", {config.intermediate},
                      MemberSharding::partitioned(0), true);
  members.add_present(index, mlp + "dense_4h_to_h.bias", {config.hidden},
                      MemberSharding::replicated(), true);
  return ParameterGroupSpec::partitioned(prefix + "mlp", ParameterRole::FeedForwardIntermediate,
                                         config.intermediate, members.take(), scope);
}

std::vector<std::string> final_norms() {
  return {"gpt_neox.final_layer_norm.weight", "gpt_neox.final_layer_norm.bias"};
}

// The reward model's head: the final norm, then one reward per sequence
// (OpenAssistant's `out_proj = nn.Linear(hidden_size, 1)`), whose single row
// no tensor split can divide.
Result<ParameterGroupSpec> reward_head_group(const GptNeoxConfig& config) {
  Members members(config.dtype);
  for (const std::string& norm : final_norms()) {
    members.add(norm, {config.hidden}, MemberSharding::replicated());
  }
  members.add("out_proj.weight", {1, config.hidden}, MemberSharding::replicated());
  members.add("out_proj.bias", {1}, MemberSharding::replicated());
  return ParameterGroupSpec::create("head", ParameterRole::Replicated, members.take(),
                                    GroupScope::output_head());
}

Result<FamilyGroups> describe(const ConfigFields& fields, const WeightIndex& index, bool reward) {
  EREDU_TRY(config, read_gpt_neox_config(fields));
  EREDU_TRY(check_layer_count(config.layers, index.file, index.tensor_bound()));
  const std::string output = "embed_out.weight";
  const DecoderOutline outline{config.layers,
                               config.vocab,
                               config.hidden,
                               config.dtype,
                               !reward && uses_tied_head(config.tied, index, output),
                               "gpt_neox.embed_in.weight",
                               "gpt_neox.layers.",
                               final_norms(),
                               output};
  DecoderExtras extras;
  if (reward) {
    EREDU_TRY(head, reward_head_group(config));
    extras.head = std::move(head);
  }
  return decoder_groups(
      outline,
      [&](const std::string& prefix, GroupScope scope) -> Result<std::vector<ParameterGroupSpec>> {
        EREDU_TRY(attention, attention_group(config, index, prefix, scope));
        EREDU_TRY(norms, norms_group(config, prefix, scope));
        EREDU_TRY(mlp, mlp_group(config, index, prefix, scope));
        return std::vector{std::move(attention), std::move(norms), std::move(mlp)};
      },
      std::move(extras));
}

}  // namespace

Result<FamilyGroups> describe_gpt_neox(const ConfigFields& fields, const WeightIndex& index) {
  return describe(fields, index, false);
}

Result<FamilyGroups> describe_gpt_neox_reward_model(const ConfigFields& fields,
                                                    const WeightIndex& index) {
  return describe(fields, index, true);
}

}  // namespace eredu
