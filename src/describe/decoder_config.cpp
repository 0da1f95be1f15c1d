// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "describe/decoder_config.hpp"

namespace eredu {
namespace {

// read_decoder_config, reading intermediate_size only when `dense_mlp`.
Result<DecoderConfig> read_fields(const ConfigFields& config, Dtype dtype, bool dense_mlp,
                                  const recipe::Keys& keys) {
  EREDU_TRY(hidden, config.required_count(keys.hidden.data()));
  std::uint64_t intermediate = 0;
  if (dense_mlp) {
    EREDU_TRY(read, config.required_count(keys.intermediate.data()));
    intermediate = read;
  }
  EREDU_TRY(layers, config.required_count(keys.layers.data()));
  EREDU_TRY(heads, config.required_count(keys.heads.data()));
  EREDU_TRY(kv_heads, config.optional_count(keys.kv_heads.data()));
  EREDU_TRY(head_dim, config.optional_count(keys.head_dim.data()));
  EREDU_TRY(vocab, config.required_count(keys.vocab.data()));
  EREDU_TRY(tied, config.flag(keys.tied.data(), false));
  EREDU_TRY(attention_bias, config.flag("attention_bias", false));
  const nlohmann::json* type = config.field("model_type");
  const std::string model_type =
      type != nullptr && type->is_string() ? type->get<std::string>() : "";
  if (!head_dim && hidden % heads != 0) {
    return failf(Status::Parse, "{}: {} {} is not divisible by {} {} and {} is not given",
                 config.file(), keys.hidden, hidden, keys.heads, heads, keys.head_dim);
  }
  return DecoderConfig{hidden,
                       intermediate,
                       layers,
                       heads,
                       kv_heads.value_or(heads),
                       head_dim.value_or(hidden / heads),
                       vocab,
                       tied,
                       dtype,
                       attention_bias || model_type.starts_with("qwen2"),
                       attention_bias,
                       model_type.starts_with("qwen3")};
}

}  // namespace

Result<DecoderConfig> read_decoder_config(const ConfigFields& config, Dtype dtype,
                                          const recipe::Keys& keys) {
  return read_fields(config, dtype, true, keys);
}

Result<DecoderConfig> read_expert_decoder_config(const ConfigFields& config, Dtype dtype) {
  return read_fields(config, dtype, false, recipe::Keys{});
}

Result<AttentionRows> attention_rows(const ConfigFields& config, const DecoderConfig& decoder,
                                     bool output_gate) {
  EREDU_TRY(q_rows, config.product("num_attention_heads × head_dim",
                                   {decoder.num_attention_heads, decoder.head_dim}));
  EREDU_TRY(kv_rows, config.product("num_key_value_heads × head_dim",
                                    {decoder.num_key_value_heads, decoder.head_dim}));
  std::uint64_t q_proj_rows = q_rows;
  if (output_gate) {
    EREDU_TRY(doubled, config.product("num_attention_heads × head_dim × 2", {q_rows, 2}));
    q_proj_rows = doubled;
  }
  return AttentionRows{q_rows, kv_rows, q_proj_rows};
}

}  // namespace eredu
