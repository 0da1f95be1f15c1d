// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "checkpoint/open.hpp"

#include <algorithm>
#include <filesystem>
#include <memory>
#include <utility>

#include "checkpoint/binary_file.hpp"
#include "checkpoint/gguf.hpp"
#include "checkpoint/safetensors.hpp"
#include "core/text.hpp"

namespace eredu {
namespace {

constexpr const char* kIndex = "model.safetensors.index.json";
constexpr const char* kSingle = "model.safetensors";

bool is_file(const std::string& path) {
  std::error_code ignored;
  return std::filesystem::is_regular_file(path, ignored);
}

Result<void> add_safetensors(Checkpoint& checkpoint, const std::string& path, std::string shown) {
  const auto index = static_cast<std::uint32_t>(checkpoint.files.size());
  checkpoint.files.push_back(shown);
  EREDU_TRY(file, BinaryFile::open(path, std::move(shown)));
  EREDU_TRY(header, read_safetensors_header(file, index));
  for (CheckpointTensor& tensor : header.tensors) checkpoint.tensors.push_back(std::move(tensor));
  return outcome::success();
}

// The shards the folder's safetensors index names.
Result<Checkpoint> open_sharded(const std::string& dir, std::shared_ptr<const WeightIndex> index) {
  for (std::size_t i = 0; i < index->names.size(); ++i) {
    if (index->shard_of[i] == WeightIndex::kNoShard) {
      return failf(Status::Parse, "{}/{}: weight_map[{}] must name a file of the folder", dir,
                   index->file, debug_quoted(index->names[i]));
    }
  }
  Checkpoint checkpoint;
  checkpoint.root = dir;
  for (const std::string& shard : index->shards) {
    if (!is_file(dir + "/" + shard)) {
      return failf(Status::Io, "{}/{}: a shard {} names is missing", dir, shard, index->file);
    }
    EREDU_TRY(add_safetensors(checkpoint, dir + "/" + shard, shard));
  }
  EREDU_TRY(sort_checkpoint_tensors(checkpoint));
  // Both lists are sorted by name: a tensor is found at its index's
  // position unless the lists differ.
  for (std::size_t i = 0; i < index->names.size(); ++i) {
    const std::string& shard = index->shards[index->shard_of[i]];
    const CheckpointTensor* tensor =
        i < checkpoint.tensors.size() && checkpoint.tensors[i].name == index->names[i]
            ? &checkpoint.tensors[i]
            : checkpoint.find(index->names[i]);
    if (tensor == nullptr || checkpoint.files[tensor->file] != shard) {
      return failf(Status::CheckpointMismatch, "{}/{} maps tensor {} to {}, which does not hold it",
                   dir, index->file, debug_quoted(index->names[i]), shard);
    }
  }
  // Every listed name was found: the shards hold more only when they hold
  // more tensors.
  if (checkpoint.tensors.size() != index->names.size()) {
    for (const CheckpointTensor& tensor : checkpoint.tensors) {
      if (!std::binary_search(index->names.begin(), index->names.end(), tensor.name)) {
        return failf(Status::CheckpointMismatch, "{}/{} holds tensor {}, which {} does not list",
                     dir, checkpoint.files[tensor.file], debug_quoted(tensor.name), index->file);
      }
    }
  }
  checkpoint.index = std::move(index);
  return checkpoint;
}

Result<Checkpoint> open_single(const std::string& dir) {
  Checkpoint checkpoint;
  checkpoint.root = dir;
  EREDU_TRY(add_safetensors(checkpoint, dir + "/" + kSingle, kSingle));
  EREDU_TRY(sort_checkpoint_tensors(checkpoint));
  return checkpoint;
}

Result<Checkpoint> open_file(const std::string& path) {
  Checkpoint checkpoint;
  if (is_gguf_file(path)) {
    checkpoint.files.push_back(path);
    EREDU_TRY(file, BinaryFile::open(path, path));
    EREDU_TRY(header, read_gguf_header(file, 0));
    checkpoint.tensors = std::move(header.tensors);
    header.tensors.clear();
    checkpoint.gguf = std::make_shared<const GgufHeader>(std::move(header));
  } else {
    EREDU_TRY(add_safetensors(checkpoint, path, path));
  }
  EREDU_TRY(sort_checkpoint_tensors(checkpoint));
  return checkpoint;
}

}  // namespace

bool is_gguf_file(const std::string& path) {
  if (!is_file(path)) return false;
  auto file = BinaryFile::open(path, path);
  char magic[4];
  return file && file.value().read(0, magic, "the magic") && std::equal(magic, magic + 4, "GGUF");
}

Result<std::optional<Checkpoint>> open_folder_checkpoint(const std::string& dir,
                                                         std::shared_ptr<const WeightIndex> index) {
  const bool single = is_file(dir + "/" + kSingle);
  if (index && index->file == kIndex) {
    const bool present =
        single || std::any_of(index->shards.begin(), index->shards.end(),
                              [&](const auto& shard) { return is_file(dir + "/" + shard); });
    if (!present) return std::nullopt;
    EREDU_TRY(checkpoint, open_sharded(dir, std::move(index)));
    return std::optional(std::move(checkpoint));
  }
  if (!single) return std::nullopt;
  EREDU_TRY(checkpoint, open_single(dir));
  return std::optional(std::move(checkpoint));
}

Result<Checkpoint> open_checkpoint(const std::string& path) {
  std::error_code ignored;
  if (!std::filesystem::is_directory(path, ignored)) {
    if (!std::filesystem::exists(path, ignored)) {
      return failf(Status::Io, "cannot read {}: no such file or folder", path);
    }
    return open_file(path);
  }
  if (is_file(path + "/" + kIndex)) {
    EREDU_TRY(index, read_weight_index(path));
    return open_sharded(path, std::make_shared<const WeightIndex>(std::move(index)));
  }
  if (is_file(path + "/" + kSingle)) return open_single(path);
  return failf(Status::Io, "{}: no checkpoint (neither {} nor {})", path, kIndex, kSingle);
}

}  // namespace eredu
