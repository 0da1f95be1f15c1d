// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// `eredu describe`: a model folder (config.json + weight index) as an
// eredu.groups.v1 description (docs/describe.md).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "checkpoint/checkpoint.hpp"
#include "core/result.hpp"
#include "model/model.hpp"

namespace eredu {

/// What the description will be planned with, for the refusals that depend
/// on it.
struct DescribeOptions {
  /// `--pad-vocab M`: the vocabulary groups' padding multiple
  /// (pad_vocabulary); nullopt leaves the rows unpadded.
  std::optional<std::uint64_t> vocab_pad_multiple;
  /// `--config-only`: no weight index is read and nothing is checked
  /// against one; the tensors are those the family's reference
  /// implementation builds from config.json (docs/describe.md,
  /// "Configuration only").
  bool config_only = false;
  /// When set, receives what describing could not verify: a weight index
  /// without `metadata.total_size` (or 0) leaves the byte total unchecked.
  /// Appended to; owned by the caller.
  std::vector<std::string>* warnings = nullptr;
};

/// Describes the decoder in folder `dir` by its config.json `model_type`,
/// one of supported_model_types() (registry.hpp; docs/describe.md has the
/// table), after filling what config.json omits with the defaults of the
/// model type's transformers configuration class; with an MLX
/// `quantization`, a family that reads one has its affine-quantized linears
/// expanded into packed weight, scales and biases.
/// `model.name` is the folder's name, `layers` is num_hidden_layers. Checks, in
/// order: config.json (Io, Parse), the model_type (UnsupportedModel), the
/// quantization (UnsupportedModel for one the family does not handle; Parse /
/// InvalidFormat for a malformed MLX one), the weight index (Io, Parse), the
/// family's config fields (Parse, UnsupportedModel for the dtype or layout),
/// the expansion (InvalidTensor), the checkpoint
/// (CheckpointMismatch: index tensors not described exactly once, or
/// described bytes != metadata.total_size), then the vocabulary padding
/// (pad_vocabulary's errors). Thread-safe; reads each file once.
///
/// When the checkpoint's shards are on disk (a folder with
/// `model.safetensors` and no index, or an index naming shards that exist;
/// not with `config_only`), their headers are read first (open_checkpoint's
/// errors): without an index, the single file's tensors stand for one; a
/// member whose stored tensor has its shape takes the stored dtype; after
/// the checkpoint check, every described tensor must have its stored shape
/// (CheckpointMismatch naming the tensor, both shapes and the file;
/// docs/describe.md, "Checkpoint files").
Result<std::shared_ptr<const ModelDescription>> describe_model_dir(
    const std::string& dir, const DescribeOptions& options = {});

/// The description of the checkpoint `checkpoint` opened (open_checkpoint):
/// describe_model_dir of its folder, or describe_gguf of its GGUF file,
/// reading neither its weight index nor its headers again (they are the
/// checkpoint's); config.json is read. With `config_only` the checkpoint's
/// tensors are not used. Errors: describe_model_dir's or describe_gguf's;
/// Parse for a safetensors file opened directly (it has no configuration).
/// Thread-safe; `checkpoint` is only read.
Result<std::shared_ptr<const ModelDescription>> describe_checkpoint(
    const Checkpoint& checkpoint, const DescribeOptions& options = {});

/// describe_gguf for a GGUF file (a regular file starting with `GGUF`),
/// Parse for any other regular file, describe_model_dir for anything else
/// (docs/describe.md).
Result<std::shared_ptr<const ModelDescription>> describe_model(const std::string& path,
                                                               const DescribeOptions& options = {});

}  // namespace eredu
