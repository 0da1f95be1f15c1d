// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Gemma 3 multimodal checkpoints (model_type gemma3,
// Gemma3ForConditionalGeneration): the Gemma 3 language model from
// `text_config` under `language_model.`, a SigLIP vision tower from
// `vision_config` under `vision_tower.vision_model.` and the
// `multi_modal_projector` (docs/describe.md).
#pragma once

#include "core/result.hpp"
#include "describe/family.hpp"

namespace eredu {

/// `embed` (language_model.model.embed_tokens.weight, tied: the output head
/// reuses it unless the index holds language_model.lm_head.weight); then,
/// scoped to the embedding's stage, `vision_tower.vision_model.embeddings`
/// (replicated), per encoder layer N `…encoder.layers.N.self_attn` (q, k, v
/// partitioned on axis 0, out_proj on axis 1, units num_attention_heads),
/// `…encoder.layers.N.norms`, `…encoder.layers.N.mlp` (fc1 / fc2, units
/// intermediate_size), `vision_tower.vision_model.post_layernorm` and
/// `multi_modal_projector` (replicated); then per decoder layer L the llama
/// `self_attn` (KV-head replication), `norms` (four layernorms, q_norm,
/// k_norm) and `mlp` under `language_model.model.layers.L.`; `head`
/// (language_model.model.norm.weight, the lm_head unless tied). Errors: the
/// llama family's for text_config; Parse for a missing or malformed
/// text_config / vision_config field or a vision hidden_size not divisible by
/// its heads; CheckpointMismatch for more layers than index tensors.
Result<FamilyGroups> describe_gemma3(const ConfigFields& config, const WeightIndex& index);

}  // namespace eredu
