// The llama-style decoder table of interchange §7 (llama, mistral, qwen2,
// qwen3): group names, roles, units, scopes, members and shardings.
#pragma once

#include "core/result.hpp"
#include "describe/decoder_config.hpp"
#include "describe/weight_index.hpp"
#include "model/model.hpp"

namespace eredu {

/// Adds `embed`, then `self_attn`, `norms`, `mlp` of every layer, then
/// `head` to `builder`. Optional tensors (attention biases, q_norm/k_norm,
/// lm_head.weight) are described when the index holds them. Errors: Parse
/// when a shape overflows 64 bits; the builder's and group construction
/// errors otherwise (not expected for a valid config).
Result<void> add_llama_groups(ModelBuilder& builder, const DecoderConfig& config,
                              const WeightIndex& index);

}  // namespace eredu
