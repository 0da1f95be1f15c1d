// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The qwen2_moe, qwen3_moe and qwen3_5_moe tables of docs/describe.md:
// decoders whose MLPs are mixtures of experts, one group per routed expert,
// and Qwen3.5's hybrid of Gated DeltaNet and gated full attention layers.
#pragma once

#include "core/result.hpp"
#include "describe/family.hpp"

namespace eredu {

/// `embed`, then per layer `self_attn` and `norms` (as llama's), then for a
/// layer with a mixture of experts the router `mlp.gate`, one group per
/// routed expert `mlp.experts.N` (scope that layer and expert) and the
/// shared expert `mlp.shared_expert`, or for a dense layer (mlp_only_layers,
/// decoder_sparse_step) llama's `mlp`; then `head`. `experts` is
/// num_experts. The fields come from config.json's `text_config` when it has
/// one. Errors: read_decoder_config's (intermediate_size only when a layer is
/// dense); Parse for num_experts, moe_intermediate_size or
/// shared_expert_intermediate_size missing or not a positive integer, or
/// malformed mlp_only_layers / decoder_sparse_step; CheckpointMismatch for
/// more layers, or more routed experts, than index tensors.
Result<FamilyGroups> describe_qwen2_moe(const ConfigFields& config, const WeightIndex& index);

/// As describe_qwen2_moe without a shared expert (q_norm / k_norm in
/// `norms` when present).
Result<FamilyGroups> describe_qwen3_moe(const ConfigFields& config, const WeightIndex& index);

/// As describe_qwen2_moe, with the text model's tensors under
/// `model.language_model.` when the index has its embedding there (else
/// `model.`), and hybrid layers (layer_types, else every
/// full_attention_interval-th layer): a full attention layer's `self_attn`
/// has an output gate in q_proj (attn_output_gate, default true); a
/// linear attention layer has `linear_attn` instead, a Gated DeltaNet split
/// by key heads. Errors: also Parse for malformed layer_types /
/// full_attention_interval, a linear_* field missing or not a positive
/// integer when a layer is linear, linear_num_value_heads not a multiple of
/// linear_num_key_heads, or a Gated DeltaNet dimension that overflows 64
/// bits.
Result<FamilyGroups> describe_qwen3_5_moe(const ConfigFields& config, const WeightIndex& index);

}  // namespace eredu
