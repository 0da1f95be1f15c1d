// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The Granite MoE table of docs/describe.md: a llama-style decoder whose
// routed experts are stacked in one tensor per layer and projection.
#pragma once

#include "core/result.hpp"
#include "describe/family.hpp"

namespace eredu {

/// `embed`, then per layer `self_attn`, `norms`, the router
/// `block_sparse_moe.router` (replicated) and `block_sparse_moe.experts`
/// (expert_intermediate, units intermediate_size: `input_linear.weight`
/// [E, 2I, hidden], gate rows then up rows, partitioned_segments on axis 1;
/// `output_linear.weight` [E, hidden, I] partitioned on axis 2; both with
/// expert axis 0), then `head`. `experts` is num_local_experts. Errors:
/// read_decoder_config's; Parse for num_local_experts missing or not a
/// positive integer, or 2 × intermediate_size overflowing 64 bits;
/// CheckpointMismatch for more layers than index tensors.
Result<FamilyGroups> describe_granitemoe(const ConfigFields& config, const WeightIndex& index);

}  // namespace eredu
