// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The fields of a Hugging Face config.json that a llama-style decoder
// description needs (docs/describe.md; also phi3 and gpt_oss).
#pragma once

#include <cstdint>

#include "core/result.hpp"
#include "describe/config_fields.hpp"
#include "describe/recipe.hpp"
#include "format/dtype.hpp"

namespace eredu {

/// A llama-style decoder's shape parameters, with the config's defaults
/// applied (`num_key_value_heads` = heads, `head_dim` = hidden / heads).
struct DecoderConfig {
  std::uint64_t hidden_size = 0;
  std::uint64_t intermediate_size = 0;
  std::uint64_t num_hidden_layers = 0;
  std::uint64_t num_attention_heads = 0;
  std::uint64_t num_key_value_heads = 0;
  std::uint64_t head_dim = 0;
  std::uint64_t vocab_size = 0;
  bool tie_word_embeddings = false;
  Dtype dtype = Dtype::F32;
  /// What the reference implementation builds when no index says
  /// (`--config-only`): q/k/v biases (`attention_bias`, always for the
  /// Qwen2 models), an o_proj bias (`attention_bias`), q_norm / k_norm (the
  /// Qwen3 models).
  bool qkv_bias = false;
  bool o_bias = false;
  bool qk_norm = false;
};

/// Reads the decoder fields of `config` in this order, under the names of
/// `keys`: hidden_size, intermediate_size, num_hidden_layers,
/// num_attention_heads, num_key_value_heads, head_dim, vocab_size,
/// tie_word_embeddings (default false); `dtype` is the family's
/// (normally ConfigFields::dtype, read first). Errors: Parse for a required
/// field missing, a count that is not a positive integer, a tie flag that is
/// not a boolean, or hidden_size not divisible by the heads when head_dim is
/// absent.
Result<DecoderConfig> read_decoder_config(const ConfigFields& config, Dtype dtype,
                                          const recipe::Keys& keys = {});

/// As read_decoder_config for a decoder whose MLPs are mixtures of experts
/// with a width of their own (qwen2_moe, qwen3_moe, qwen3_5_moe):
/// intermediate_size, the width of a dense MLP, is not read and is 0.
Result<DecoderConfig> read_expert_decoder_config(const ConfigFields& config, Dtype dtype);

/// The rows of the attention projections: query heads × head_dim, then KV
/// heads × head_dim, then the rows of q_proj: q_rows, or twice that when
/// q_proj also computes an output gate per query head (qwen3_5_moe).
struct AttentionRows {
  std::uint64_t q_rows = 0;
  std::uint64_t kv_rows = 0;
  std::uint64_t q_proj_rows = 0;
};

/// The AttentionRows of `decoder`, q_rows first; q_proj_rows doubles q_rows
/// when `output_gate`. Errors: Parse when a product overflows 64 bits (named
/// "num_attention_heads × head_dim", "num_key_value_heads × head_dim" or
/// "num_attention_heads × head_dim × 2").
Result<AttentionRows> attention_rows(const ConfigFields& config, const DecoderConfig& decoder,
                                     bool output_gate = false);

}  // namespace eredu
