// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Falcon decoders with new_decoder_architecture (model_type falcon:
// falcon-40b, falcon-180b): a fused `query_key_value` whose rows are grouped
// per KV head, so a tensor-parallel rank holds whole KV groups
// (docs/describe.md).
#pragma once

#include "core/result.hpp"
#include "describe/family.hpp"

namespace eredu {

/// `embed` (transformer.word_embeddings.weight); per layer L
/// `transformer.h.L.self_attention` (query_key_value partitioned on axis 0,
/// dense partitioned on axis 1, units num_kv_heads: each unit is one KV
/// group's q heads, k head and v head), `transformer.h.L.norms` (ln_attn and
/// ln_mlp, or input_layernorm [+ post_attention_layernorm], weight and bias),
/// `transformer.h.L.mlp` (dense_h_to_4h / dense_4h_to_h, units
/// ffn_hidden_size); `head` (transformer.ln_f, lm_head.weight unless tied;
/// tie_word_embeddings defaults to true). Biases are described when the index
/// holds them; `multi_query` is ignored. Errors: UnsupportedModel without
/// new_decoder_architecture or without a supported dtype; Parse for a
/// missing or non-positive count, a non-boolean flag, a hidden_size not
/// divisible by the heads or heads not divisible by the KV heads, a shape
/// overflowing 64 bits; CheckpointMismatch for more layers than index
/// tensors.
Result<FamilyGroups> describe_falcon(const ConfigFields& config, const WeightIndex& index);

}  // namespace eredu
