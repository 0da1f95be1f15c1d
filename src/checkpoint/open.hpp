// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Opening a checkpoint by path: a `.gguf` or `.safetensors` file, or a
// model folder with its shards (docs/checkpoints.md, "Opening a
// checkpoint").
#pragma once

#include <optional>
#include <string>

#include "checkpoint/checkpoint.hpp"
#include "core/result.hpp"

namespace eredu {

/// True when `path` names a GGUF file: a regular file starting with `GGUF`.
bool is_gguf_file(const std::string& path);

/// Reads every tensor header of the checkpoint at `path`:
/// - a regular file: GGUF when it starts with `GGUF`, else safetensors;
/// - a folder with `model.safetensors.index.json`: the shards its
///   weight_map names (files sorted byte-wise), each header read once; every
///   tensor the index maps must be in that shard and every shard tensor in
///   the index, mapped to it;
/// - a folder with `model.safetensors` alone.
/// Errors: Io (nothing to read, a missing shard, an unreadable file); Parse
/// (a malformed index or header: read_safetensors_header,
/// read_gguf_header); CheckpointMismatch (an index and its shards that
/// disagree, a tensor stored twice), naming the file and tensor. Reads the
/// headers only. Thread-safe.
Result<Checkpoint> open_checkpoint(const std::string& path);

/// open_checkpoint of a folder whose files are on disk: one with
/// `model.safetensors`, or whose index names at least one shard that exists;
/// nullopt for a folder of metadata only (an index whose shards are all
/// absent, or none that can be read, which its reader reports) and for a
/// folder with neither file. Reads the index once. Errors: open_checkpoint's.
Result<std::optional<Checkpoint>> open_folder_checkpoint(const std::string& dir);

}  // namespace eredu
