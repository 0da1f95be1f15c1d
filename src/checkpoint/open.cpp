// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "checkpoint/open.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <map>
#include <utility>

#include "checkpoint/binary_file.hpp"
#include "checkpoint/gguf.hpp"
#include "checkpoint/safetensors.hpp"
#include "core/text.hpp"
#include "core/text_file.hpp"
#include "core/unique_key_json.hpp"

namespace eredu {
namespace {

constexpr const char* kIndex = "model.safetensors.index.json";
constexpr const char* kSingle = "model.safetensors";

bool is_file(const std::string& path) {
  std::error_code ignored;
  return std::filesystem::is_regular_file(path, ignored);
}

// weight_map: tensor name -> shard file name.
Result<std::map<std::string, std::string>> read_weight_map(const std::string& dir) {
  const std::string path = dir + "/" + kIndex;
  EREDU_TRY(text, read_text_file(path, path));
  EREDU_TRY(document,
            parse_unique_key_json<nlohmann::json>(
                text,
                [&](const std::string& key) {
                  return fmt::format("{}: repeats key {}", path, debug_quoted(key));
                },
                [&](const char* what) { return fmt::format("{}: not JSON: {}", path, what); }));
  auto map = document.is_object() ? document.find("weight_map") : document.end();
  if (map == document.end() || !map->is_object()) {
    return failf(Status::Parse, "{}: weight_map must be an object", path);
  }
  std::map<std::string, std::string> shards;
  for (const auto& [name, file] : map->items()) {
    const std::string* shard = file.get_ptr<const std::string*>();
    if (shard == nullptr || shard->empty() || shard->find('/') != std::string::npos ||
        *shard == "." || *shard == "..") {
      return failf(Status::Parse, "{}: weight_map[{}] must name a file of the folder", path,
                   debug_quoted(name));
    }
    shards.emplace(name, *shard);
  }
  return shards;
}

Result<void> add_safetensors(Checkpoint& checkpoint, const std::string& path, std::string shown) {
  const auto index = static_cast<std::uint32_t>(checkpoint.files.size());
  checkpoint.files.push_back(shown);
  EREDU_TRY(file, BinaryFile::open(path, std::move(shown)));
  EREDU_TRY(header, read_safetensors_header(file, index));
  for (CheckpointTensor& tensor : header.tensors) checkpoint.tensors.push_back(std::move(tensor));
  return outcome::success();
}

// The shards `weight_map` (the folder's index, already read) names.
Result<Checkpoint> open_sharded(const std::string& dir,
                                const std::map<std::string, std::string>& weight_map) {
  std::vector<std::string> shards;
  for (const auto& entry : weight_map) shards.push_back(entry.second);
  std::sort(shards.begin(), shards.end());
  shards.erase(std::unique(shards.begin(), shards.end()), shards.end());
  Checkpoint checkpoint;
  checkpoint.root = dir;
  for (const std::string& shard : shards) {
    if (!is_file(dir + "/" + shard)) {
      return failf(Status::Io, "{}/{}: a shard {} names is missing", dir, shard, kIndex);
    }
    EREDU_TRY(add_safetensors(checkpoint, dir + "/" + shard, shard));
  }
  EREDU_TRY(sort_checkpoint_tensors(checkpoint));
  for (const auto& [name, shard] : weight_map) {
    const CheckpointTensor* tensor = checkpoint.find(name);
    if (tensor == nullptr || checkpoint.files[tensor->file] != shard) {
      return failf(Status::CheckpointMismatch, "{}/{} maps tensor {} to {}, which does not hold it",
                   dir, kIndex, debug_quoted(name), shard);
    }
  }
  for (const CheckpointTensor& tensor : checkpoint.tensors) {
    if (!weight_map.contains(tensor.name)) {
      return failf(Status::CheckpointMismatch, "{}/{} holds tensor {}, which {} does not list", dir,
                   checkpoint.files[tensor.file], debug_quoted(tensor.name), kIndex);
    }
  }
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

Result<std::optional<Checkpoint>> open_folder_checkpoint(const std::string& dir) {
  const bool single = is_file(dir + "/" + kSingle);
  if (is_file(dir + "/" + kIndex)) {
    auto weight_map = read_weight_map(dir);
    // An index that cannot be read is its reader's to report, unless a
    // model.safetensors says the checkpoint is here.
    if (!weight_map) {
      if (single) return std::move(weight_map).error();
      return std::nullopt;
    }
    const bool present =
        single || std::any_of(weight_map.value().begin(), weight_map.value().end(),
                              [&](const auto& entry) { return is_file(dir + "/" + entry.second); });
    if (!present) return std::nullopt;
    EREDU_TRY(checkpoint, open_sharded(dir, weight_map.value()));
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
    EREDU_TRY(weight_map, read_weight_map(path));
    return open_sharded(path, weight_map);
  }
  if (is_file(path + "/" + kSingle)) return open_single(path);
  return failf(Status::Io, "{}: no checkpoint (neither {} nor {})", path, kIndex, kSingle);
}

}  // namespace eredu
