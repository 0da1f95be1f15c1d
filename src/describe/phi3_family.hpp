// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Phi-3 decoders (model_type phi3): the llama table with a fused
// `qkv_proj` and a fused `gate_up_proj`, described as segmented projections
// (docs/describe.md).
#pragma once

#include "core/result.hpp"
#include "describe/family.hpp"

namespace eredu {

/// `embed`; per layer `self_attn` (qkv_proj partitioned_segments on axis 0
/// with the q, k, v row segments, o_proj partitioned on axis 1, units
/// num_key_value_heads reduced by gcd), `norms`, `mlp` (gate_up_proj
/// partitioned_segments on axis 0 with the gate and up segments, down_proj
/// partitioned on axis 1, units intermediate_size reduced by gcd); `head`.
/// Errors: read_decoder_config's; CheckpointMismatch for more layers than
/// index tensors; Parse when a shape overflows 64 bits.
Result<FamilyGroups> describe_phi3(const ConfigFields& config, const WeightIndex& index);

}  // namespace eredu
