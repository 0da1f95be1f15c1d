// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Opening a checkpoint by path: a `.gguf` or `.safetensors` file, or a
// model folder with its shards (docs/checkpoints.md, "Opening a
// checkpoint").
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "checkpoint/checkpoint.hpp"
#include "core/result.hpp"

namespace eredu {

/// True when `path` names a GGUF file: a regular file starting with `GGUF`.
bool is_gguf_file(const std::string& path);

/// Reads every tensor header of the checkpoint at `path`:
/// - a regular file: GGUF when it starts with `GGUF` (its header kept as
///   Checkpoint::gguf), else safetensors;
/// - a folder with `model.safetensors.index.json`: the shards its
///   weight_map names (files sorted byte-wise), each header read once; every
///   tensor the index maps must be in that shard and every shard tensor in
///   the index, mapped to it. The index is kept as Checkpoint::index;
/// - a folder with `model.safetensors` alone.
/// Errors: Io (nothing to read, a missing shard, an unreadable file); Parse
/// (a malformed index or header: read_weight_index, a weight_map value that
/// is not a file of the folder, read_safetensors_header, read_gguf_header);
/// CheckpointMismatch (an index and its shards that disagree, a tensor
/// stored twice), naming the file and tensor. Reads the headers only.
/// Thread-safe.
Result<Checkpoint> open_checkpoint(const std::string& path);

/// open_checkpoint of a folder whose files are on disk, given its weight
/// index already read (read_weight_index; nullptr when it has none, and a
/// `pytorch_model.bin.index.json` names no shard eredu reads): the shards
/// of a safetensors index when at least one exists, else `model.safetensors`;
/// nullopt for a folder of metadata only (an index whose shards are all
/// absent) and for a folder with neither file. Reads each header once and
/// the index never. Errors: open_checkpoint's.
Result<std::optional<Checkpoint>> open_folder_checkpoint(const std::string& dir,
                                                         std::shared_ptr<const WeightIndex> index);

}  // namespace eredu
