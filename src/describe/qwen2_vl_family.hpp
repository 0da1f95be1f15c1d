// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Qwen2-VL (model_type qwen2_vl, Qwen2VLForConditionalGeneration): the
// llama-style Qwen2 language model plus its vision tower `visual.*`, whose
// blocks have a component-major fused `qkv`, split by heads as vLLM does
// (docs/describe.md).
#pragma once

#include "core/result.hpp"
#include "describe/family.hpp"

namespace eredu {

/// The llama family's groups for the language model (`model.*`,
/// `lm_head.weight`), with the vision tower's groups after `embed`, all
/// scoped to the embedding's stage: `visual.patch_embed` (replicated); per
/// block N `visual.blocks.N.attn` (qkv [3·embed_dim, embed_dim] and its bias
/// partitioned_segments on axis 0 with the q, k, v segments, proj
/// partitioned on axis 1, units num_heads), `visual.blocks.N.norms`,
/// `visual.blocks.N.mlp` (fc1 / fc2, units embed_dim × mlp_ratio);
/// `visual.merger.ln_q`; `visual.merger.mlp` (mlp.0 / mlp.2, units
/// embed_dim × spatial_merge_size²). Errors: the llama family's; Parse for
/// a missing or malformed vision_config field, embed_dim not divisible by
/// num_heads, a shape overflowing 64 bits.
Result<FamilyGroups> describe_qwen2_vl(const ConfigFields& config, const WeightIndex& index);

}  // namespace eredu
