// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The tensors of a checkpoint on disk, whatever its container: for each
// tensor its file, its byte range there, its element type and its shape
// (docs/checkpoints.md).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "checkpoint/weight_index.hpp"
#include "core/result.hpp"
#include "format/dtype.hpp"

namespace eredu {

struct GgufHeader;

/// One tensor stored in a checkpoint file.
struct CheckpointTensor {
  std::string name;
  std::uint32_t file = 0;  // index into Checkpoint::files
  /// The element type as the container spells it: a safetensors dtype
  /// ("BF16", "F8_E4M3") or a ggml type name ("F32", "Q4_K").
  std::string type;
  /// The element type for element-addressed storage: every safetensors
  /// dtype, and the GGUF types F32, F16, BF16, F64, I8, I16, I32, I64;
  /// nullopt for GGUF block types.
  std::optional<Dtype> dtype;
  /// The ggml type code of a GGUF tensor; nullopt for safetensors.
  std::optional<std::uint32_t> ggml_type;
  std::vector<std::uint64_t> shape;  // elements per axis, outermost first
  std::uint64_t offset = 0;          // absolute byte offset in the file
  std::uint64_t bytes = 0;           // stored bytes
};

/// A tensor as stored: its shape with a GGUF block type's row axis (the
/// innermost) counted in bytes, and the bytes of one element of that shape
/// (1 for block types).
struct StoredShape {
  std::vector<std::uint64_t> shape;
  std::uint64_t element_bytes = 1;
};

/// `tensor`'s StoredShape (a block type's row is a whole number of blocks:
/// the GGUF reader checked it).
StoredShape stored_shape(const CheckpointTensor& tensor);

/// Whether `tensor` stores elements of `dtype`: the same dtype for element
/// types, U8 (the packed form) for a GGUF block type; true without a dtype.
bool stores_dtype(const CheckpointTensor& tensor, std::optional<Dtype> dtype);

/// The tensors of one checkpoint: one or more files, each tensor in one.
struct Checkpoint {
  /// The files, as given (a file opened directly) or relative to the
  /// model folder (shards of a folder), in the order of first use.
  std::vector<std::string> files;
  std::vector<CheckpointTensor> tensors;  // sorted by name (byte-wise)
  /// What `files` are relative to: the model folder, or "" for a file
  /// opened directly.
  std::string root;
  /// The folder's weight index the shards were opened through; nullptr for
  /// `model.safetensors` alone and for a file. Describing the folder from
  /// this checkpoint reads it from here, not again from disk.
  std::shared_ptr<const WeightIndex> index;
  /// A GGUF file's header without its tensors (those are `tensors`); nullptr
  /// for safetensors. Describing the file reads its metadata from here.
  std::shared_ptr<const GgufHeader> gguf;

  /// Binary search by name; nullptr when absent.
  const CheckpointTensor* find(std::string_view name) const;
  /// The path to open file `index`: root/files[index], or files[index].
  std::string path(std::uint32_t index) const;
  /// The sum of every tensor's stored bytes.
  std::uint64_t tensor_bytes() const;
};

/// Sorts `checkpoint.tensors` by name. Errors: CheckpointMismatch for a
/// name stored twice, naming it and both files.
Result<void> sort_checkpoint_tensors(Checkpoint& checkpoint);

}  // namespace eredu
