// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The llama-style decoder table of docs/describe.md (llama, mistral, qwen2,
// qwen3): group names, roles, units, scopes, members and shardings.
#pragma once

#include <string>

#include "core/result.hpp"
#include "describe/decoder_config.hpp"
#include "describe/family.hpp"

namespace eredu {

/// `embed`, then `self_attn`, `norms`, `mlp` of every layer, then `head`,
/// with the decoder fields of read_decoder_config. Optional tensors
/// (attention biases, q_norm/k_norm, lm_head.weight) are described when the
/// index holds them. Errors: read_decoder_config's; CheckpointMismatch for
/// more layers than index tensors; Parse when a shape overflows 64 bits; group
/// construction errors otherwise (not expected for a valid config).
Result<FamilyGroups> describe_llama(const ConfigFields& config, const WeightIndex& index);

/// Layer group `self_attn` (attention_heads): q, k, v, o and their biases
/// when present, partitioned by KV heads with the query heads as
/// query_units (KV-head replication).
Result<ParameterGroupSpec> llama_attention_group(const DecoderConfig& config,
                                                 const WeightIndex& index,
                                                 const AttentionRows& rows,
                                                 const std::string& prefix, GroupScope scope);

/// Layer group `norms` (replicated): input and post-attention layernorms,
/// q_norm/k_norm when present.
Result<ParameterGroupSpec> llama_norms_group(const DecoderConfig& config, const WeightIndex& index,
                                             const std::string& prefix, GroupScope scope);

/// Layer group `mlp` (feed_forward_intermediate, units intermediate_size):
/// gate_proj and up_proj partitioned on axis 0, down_proj on axis 1.
Result<ParameterGroupSpec> llama_mlp_group(const DecoderConfig& config, const std::string& prefix,
                                           GroupScope scope);

}  // namespace eredu
