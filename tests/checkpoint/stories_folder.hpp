// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// A Hugging Face llama folder written from the configuration of the real
// stories260K model (hidden 64, 8 query heads, 4 KV heads, feed-forward 172,
// 5 layers, vocabulary 512, F32), with deterministic tensor bytes.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "checkpoint_writer.hpp"
#include "model_folders.hpp"

namespace eredu::test {

/// stories260K's configuration as a Hugging Face config.json.
nlohmann::json stories_config();

/// The tensors config.json describes (described from it alone), in name
/// order, with their F32 shapes and bytes.
std::vector<WrittenTensor> stories_tensors(const TempFolder& folder);

/// Writes config.json and the checkpoint: `shards` safetensors files named
/// model-0000i-of-0000n.safetensors with an index (tensors split in name
/// order), or model.safetensors alone when `shards` is 0.
void write_stories_folder(const TempFolder& folder, int shards);

}  // namespace eredu::test
