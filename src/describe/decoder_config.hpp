// The fields of a Hugging Face config.json that a llama-style decoder
// description needs (interchange §7).
#pragma once

#include <cstdint>
#include <string>

#include "core/result.hpp"
#include "plan/dtype.hpp"

namespace eredu {

/// A supported decoder's shape parameters, with the config's defaults applied
/// (`num_key_value_heads` = heads, `head_dim` = hidden / heads).
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
};

/// Reads `<dir>/config.json`. Errors: Io (unreadable); Parse (not JSON, a
/// required field missing, not a positive integer, or hidden_size not
/// divisible by the heads when head_dim is absent); UnsupportedModel (a
/// model_type other than llama, mistral, qwen2, qwen3; a `quantization` or
/// `quantization_config`; no `torch_dtype`/`dtype`, or one other than float32,
/// bfloat16, float16), the message naming what is unsupported.
Result<DecoderConfig> read_decoder_config(const std::string& dir);

}  // namespace eredu
