// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Qwen (v1) decoders (model_type qwen: Qwen-7B/14B/72B, QWenLMHeadModel): a
// component-major fused `c_attn` described as a segmented projection, and
// the SwiGLU halves `w1` / `w2` (docs/describe.md).
#pragma once

#include "core/result.hpp"
#include "describe/family.hpp"

namespace eredu {

/// `embed` (transformer.wte.weight); per layer L `transformer.h.L.attn`
/// (c_attn [3·p, hidden] and its bias partitioned_segments on axis 0 with the
/// q, k, v row segments of p = num_attention_heads × kv_channels rows each,
/// c_proj [hidden, p] partitioned on axis 1, units num_attention_heads
/// reduced by gcd), `transformer.h.L.norms` (ln_1, ln_2),
/// `transformer.h.L.mlp` (w1, w2 [intermediate_size / 2, hidden] partitioned
/// on axis 0, c_proj partitioned on axis 1, units intermediate_size / 2);
/// `head` (transformer.ln_f, lm_head.weight unless tied). The dtype is
/// torch_dtype / dtype, else the one of the flags bf16, fp16, fp32 that is
/// true, else BF16 (Qwen's automatic precision). Errors: UnsupportedModel for
/// an unsupported dtype; Parse for a missing or non-positive count, a
/// non-boolean flag, more than one precision flag, hidden_size not divisible
/// by the heads without kv_channels, an odd intermediate_size, a shape
/// overflowing 64 bits; CheckpointMismatch for more layers than index
/// tensors.
Result<FamilyGroups> describe_qwen(const ConfigFields& config, const WeightIndex& index);

}  // namespace eredu
