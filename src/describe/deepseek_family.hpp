// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The DeepSeek table of docs/describe.md: DeepSeek-V2/V3 (and Kimi K2)
// decoders with multi-head latent attention, routed and shared experts and
// block-FP8 weights; Mistral Small 4's text model, the same decoder under
// `language_model.`; and the refusal of deepseek_vl_v2.
#pragma once

#include "core/result.hpp"
#include "describe/family.hpp"

namespace eredu {

/// `embed`; per layer L `model.layers.L.self_attn` (attention_heads,
/// num_attention_heads units: q_a_proj, q_a_layernorm, kv_a_proj_with_mqa,
/// kv_a_layernorm and rotary_emb.inv_freq replicated; q_b_proj (or q_proj),
/// kv_b_proj partitioned on axis 0; o_proj on axis 1), `norms`, then a
/// dense `mlp` for the first_k_dense_replace layers and those moe_layer_freq
/// skips, else the router `mlp.gate` (weight and, when present,
/// e_score_correction_bias), one group per routed expert `mlp.experts.N`
/// (scope that layer and expert) and `mlp.shared_experts` when
/// n_shared_experts > 0; the multi-token-prediction layers the index holds
/// (scoped to the last layer); `head`. With an fp8 `quantization_config`
/// every linear whose `weight_scale_inv` the index holds is F8_E4M3 and
/// expanded as block-FP8, its scale a companion. `experts` is
/// n_routed_experts. Errors: read_decoder_config's; Parse for a missing or
/// invalid MLA or MoE field; UnsupportedModel for another quantization;
/// CheckpointMismatch for more layers than index tensors; the expansion's.
Result<FamilyGroups> describe_deepseek(const ConfigFields& config, const WeightIndex& index);

/// mistral3 (Mistral3ForConditionalGeneration) whose text_config is a
/// mistral4 model: describe_deepseek's groups for the language model alone,
/// read from text_config (dtype from the top level, else text_config), every
/// name under `language_model.`. MLX checkpoints store each layer's routed
/// experts stacked (`mlp.switch_mlp`, one expert_intermediate group of
/// moe_intermediate_size units, expert axis 0) and kv_b_proj split per head
/// (`embed_q.weight` [H, kv_lora_rank, qk_nope_head_dim] and
/// `unembed_out.weight` [H, v_head_dim, kv_lora_rank], partitioned on axis
/// 0); both are described as the index holds them. Errors: describe_deepseek's;
/// Parse for a missing text_config; UnsupportedModel for another text model
/// type, or index tensors outside `language_model.` (a vision tower and
/// projector), named by prefix and count.
Result<FamilyGroups> describe_mistral3(const ConfigFields& config, const WeightIndex& index);

/// deepseek_vl_v2 (DeepSeek-VL2, DeepSeek-OCR): always UnsupportedModel,
/// naming the tensors outside the language model, whose shapes config.json
/// does not give.
Result<FamilyGroups> refuse_deepseek_vl_v2(const ConfigFields& config, const WeightIndex& index);

}  // namespace eredu
