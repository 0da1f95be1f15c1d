// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "checkpoint/weight_index.hpp"

#include <algorithm>
#include <array>
#include <filesystem>
#include <limits>

#include "core/json_file.hpp"

namespace eredu {

bool WeightIndex::contains(const std::string& name, bool assumed) const {
  if (config_only) return assumed;
  return std::binary_search(names.begin(), names.end(), name);
}

std::uint64_t WeightIndex::tensor_bound() const {
  return config_only ? std::numeric_limits<std::uint64_t>::max() : names.size();
}

WeightIndex config_only_index() {
  WeightIndex index;
  index.file = "config.json";
  index.config_only = true;
  return index;
}

namespace {

constexpr std::array<const char*, 2> kIndexFiles = {"model.safetensors.index.json",
                                                    "pytorch_model.bin.index.json"};

// A weight_map value that names a file of the folder, else nullptr.
const std::string* shard_name(const nlohmann::json& value) {
  const std::string* shard = value.get_ptr<const std::string*>();
  if (shard == nullptr || shard->empty() || shard->find('/') != std::string::npos ||
      *shard == "." || *shard == "..") {
    return nullptr;
  }
  return shard;
}

// metadata.total_size into `index`. Some indexes give no total
// (`"metadata": {}`) or 0: the tensors are still checked, the byte total is
// not.
void read_total_size(const nlohmann::json& document, WeightIndex& index) {
  // find() on a non-object is end(), so a wrong type reads as missing.
  const nlohmann::json* total = nullptr;
  if (auto metadata = document.find("metadata"); metadata != document.end()) {
    if (auto found = metadata->find("total_size"); found != metadata->end()) total = &*found;
  }
  if (total == nullptr || total->is_null()) return;
  if (!total->is_number_unsigned()) {
    index.total_size_malformed = true;
  } else if (total->get<std::uint64_t>() != 0) {
    index.total_size = total->get<std::uint64_t>();
  }
}

}  // namespace

bool has_weight_index(const std::string& dir) {
  std::error_code ignored;
  return std::any_of(kIndexFiles.begin(), kIndexFiles.end(), [&](const char* name) {
    return std::filesystem::exists(dir + "/" + name, ignored);
  });
}

Result<WeightIndex> read_weight_index(const std::string& dir) {
  WeightIndex index;
  for (const char* candidate : kIndexFiles) {
    std::error_code ignored;
    if (std::filesystem::exists(dir + "/" + candidate, ignored)) {
      index.file = candidate;
      break;
    }
  }
  if (index.file.empty()) {
    return failf(Status::Io, "{}: no weight index (neither {} nor {})", dir, kIndexFiles[0],
                 kIndexFiles[1]);
  }
  const std::string path = dir + "/" + index.file;
  EREDU_TRY(document, read_json_file(path));
  read_total_size(document, index);

  auto map = document.find("weight_map");
  if (map == document.end() || !map->is_object()) {
    return failf(Status::Parse, "{}: weight_map must be an object", path);
  }
  // nlohmann objects iterate in key order: the names come sorted byte-wise.
  std::vector<const std::string*> values;  // each name's shard, nullptr when invalid
  index.names.reserve(map->size());
  values.reserve(map->size());
  for (const auto& entry : map->items()) {
    index.names.push_back(entry.key());
    values.push_back(shard_name(entry.value()));
    if (values.back() != nullptr) index.shards.push_back(*values.back());
  }
  std::sort(index.shards.begin(), index.shards.end());
  index.shards.erase(std::unique(index.shards.begin(), index.shards.end()), index.shards.end());
  index.shard_of.reserve(values.size());
  for (const std::string* shard : values) {
    index.shard_of.push_back(
        shard == nullptr ? WeightIndex::kNoShard
                         : static_cast<std::uint32_t>(
                               std::lower_bound(index.shards.begin(), index.shards.end(), *shard) -
                               index.shards.begin()));
  }
  return index;
}

}  // namespace eredu
