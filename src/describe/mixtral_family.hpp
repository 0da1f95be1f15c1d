// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The Mixtral table of docs/describe.md: a llama-style decoder whose MLP is
// a mixture of experts, one group per routed expert.
#pragma once

#include "core/result.hpp"
#include "describe/family.hpp"

namespace eredu {

/// `embed`, then per layer `self_attn`, `norms`, the router
/// `block_sparse_moe.gate` and one group per expert
/// `block_sparse_moe.experts.N` (scope that layer and expert), then `head`.
/// `experts` is num_local_experts. Errors: read_decoder_config's; Parse for
/// num_local_experts missing or not a positive integer; CheckpointMismatch
/// for more layers than index tensors.
Result<FamilyGroups> describe_mixtral(const ConfigFields& config, const WeightIndex& index);

}  // namespace eredu
