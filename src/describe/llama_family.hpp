// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The llama-style layer groups that the families with code of their own
// share (mixtral, granitemoe, gemma3, the Qwen MoE families): as the llama
// recipe's (recipes.cpp), built from a DecoderConfig.
#pragma once

#include <string>

#include "core/result.hpp"
#include "describe/decoder_config.hpp"
#include "describe/family.hpp"

namespace eredu {

/// Layer group `self_attn` (attention_heads): q, k, v, o and their biases
/// when present, partitioned by KV heads with the query heads as
/// query_units (KV-head replication); q_proj has rows.q_proj_rows rows.
Result<ParameterGroupSpec> llama_attention_group(const DecoderConfig& config,
                                                 const WeightIndex& index,
                                                 const AttentionRows& rows,
                                                 const std::string& prefix, GroupScope scope);

/// Layer group `norms` (replicated): input and post-attention layernorms,
/// q_norm/k_norm when present.
Result<ParameterGroupSpec> llama_norms_group(const DecoderConfig& config, const WeightIndex& index,
                                             const std::string& prefix, GroupScope scope);

/// Layer group `mlp` (feed_forward_intermediate, intermediate_size units):
/// gate_proj and up_proj column-parallel, down_proj row-parallel.
Result<ParameterGroupSpec> llama_mlp_group(const DecoderConfig& config, const std::string& prefix,
                                           GroupScope scope);

}  // namespace eredu
