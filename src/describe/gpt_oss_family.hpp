// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// gpt-oss mixture-of-experts decoders (model_type gpt_oss): llama-style
// attention with biases and per-head `sinks`, a router, and the routed
// experts stacked in one tensor per projection and layer, MXFP4 blocks and
// scales described as their plain physical tensors (docs/describe.md).
#pragma once

#include "core/result.hpp"
#include "describe/family.hpp"

namespace eredu {

/// `embed`; per layer L `model.layers.L.self_attn` (q/k/v/o and their biases as
/// for llama, `sinks` [heads] partitioned on axis 0, units
/// num_key_value_heads), `model.layers.L.norms`, `model.layers.L.mlp.router`
/// (replicated), `model.layers.L.mlp.experts` (expert_intermediate: the stacked
/// expert tensors partitioned on their intermediate axis, units
/// intermediate_size reduced by gcd, 90 for MXFP4 blocks of 32 values); `head`.
/// Every expert member has expert_axis 0 and FamilyGroups::experts is E.
/// `quantization_config` must be absent (BF16 `gate_up_proj` / `down_proj`)
/// or quant_method "mxfp4" (`*_blocks` U8 [E, rows, cols/32, 16], `*_scales`
/// U8 [E, rows, cols/32]). Errors: read_decoder_config's; UnsupportedModel
/// for another quantization; Parse for a missing num_local_experts, or an
/// MXFP4 input width not a multiple of 32; CheckpointMismatch for more layers
/// than index tensors.
Result<FamilyGroups> describe_gpt_oss(const ConfigFields& config, const WeightIndex& index);

}  // namespace eredu
