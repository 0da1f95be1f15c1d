// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Describing a GGUF model file from its own metadata (docs/describe.md,
// "GGUF files").
#pragma once

#include <memory>
#include <string>

#include "checkpoint/checkpoint.hpp"
#include "core/result.hpp"
#include "describe/describe.hpp"
#include "model/model.hpp"

namespace eredu {

/// Describes the GGUF file `checkpoint` opened (open_checkpoint, whose
/// Checkpoint::gguf holds its metadata): general.architecture `llama`, `qwen2`
/// or `qwen3` (a llama-style decoder: `token_embd`, `blk.L.attn_q|k|v|output`
/// with optional q/k/v biases and q/k norms, `attn_norm`, `ffn_norm`,
/// `ffn_gate|up|down`, `output_norm`, `output` unless tied). Sizes come from
/// `<arch>.block_count`, `.embedding_length`, `.feed_forward_length`,
/// `.attention.head_count`, `.attention.head_count_kv` (default: head_count)
/// and `.attention.key_length` (default: embedding_length / head_count); the
/// vocabulary from token_embd's rows. Tensors keep their stored type: F32,
/// F16 and BF16 as dtypes, every block type as the `gguf` linear format of
/// its ggml type (so shards hold whole blocks). `model.name` is the file
/// name without `.gguf`. Errors: Parse (a size key missing or not an
/// unsigned integer); UnsupportedModel (another
/// architecture); CheckpointMismatch (a tensor not described exactly once,
/// or whose stored shape differs from the metadata's); the expansion's and
/// the vocabulary padding's. Thread-safe.
Result<std::shared_ptr<const ModelDescription>> describe_gguf(const Checkpoint& checkpoint,
                                                              const DescribeOptions& options);

}  // namespace eredu
