// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// GPT-NeoX decoders (model_type gpt_neox: Pythia, GPT-NeoX-20B) and
// OpenAssistant's GPT-NeoX reward models (gpt_neox_reward_model): a fused
// `query_key_value` whose rows are grouped per head, so a tensor-parallel
// rank holds whole heads (docs/describe.md).
#pragma once

#include "core/result.hpp"
#include "describe/family.hpp"

namespace eredu {

/// `embed` (gpt_neox.embed_in.weight); per layer L
/// `gpt_neox.layers.L.attention` (query_key_value [3·hidden, hidden]
/// partitioned on axis 0 — per head its query, key and value rows —, dense
/// partitioned on axis 1, units num_attention_heads; biases when present),
/// `gpt_neox.layers.L.norms` (input and post-attention layernorms, weight and
/// bias), `gpt_neox.layers.L.mlp` (dense_h_to_4h / dense_4h_to_h and their
/// biases, units intermediate_size); `head` (gpt_neox.final_layer_norm,
/// embed_out.weight unless tied; tie_word_embeddings defaults to false).
/// Errors: UnsupportedModel without a supported dtype; Parse for a missing or
/// non-positive count, a non-boolean flag, hidden_size not divisible by the
/// heads, a shape overflowing 64 bits; CheckpointMismatch for more layers
/// than index tensors.
Result<FamilyGroups> describe_gpt_neox(const ConfigFields& config, const WeightIndex& index);

/// describe_gpt_neox's groups with the reward model's `head` (role
/// replicated, scope output_head): gpt_neox.final_layer_norm, then the scalar
/// reward projection out_proj.weight [1, hidden] and out_proj.bias [1], all
/// replicated. Errors: describe_gpt_neox's.
Result<FamilyGroups> describe_gpt_neox_reward_model(const ConfigFields& config,
                                                    const WeightIndex& index);

}  // namespace eredu
