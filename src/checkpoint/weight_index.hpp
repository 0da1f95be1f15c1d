// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The weight index of a sharded checkpoint: tensor names, the shard holding
// each and the total bytes, read once per folder (docs/checkpoints.md).
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "core/result.hpp"

namespace eredu {

/// `model.safetensors.index.json` or `pytorch_model.bin.index.json`; or,
/// for `--config-only`, no index at all (docs/describe.md, "Configuration
/// only").
struct WeightIndex {
  /// A `shard_of` entry whose weight_map value does not name a file of the
  /// folder (not a string, empty, ".", "..", or with a '/').
  static constexpr std::uint32_t kNoShard = std::numeric_limits<std::uint32_t>::max();

  std::string file;                // the index file's name inside the folder
  std::vector<std::string> names;  // weight_map keys, sorted byte-wise
  /// The weight_map value of each name (parallel to `names`): an index into
  /// `shards`, or kNoShard.
  std::vector<std::uint32_t> shard_of;
  std::vector<std::string> shards;  // the file names weight_map gives, sorted byte-wise
  /// metadata.total_size in bytes; nullopt when the index gives none or 0
  /// (the byte total is then not checked, with a warning).
  std::optional<std::uint64_t> total_size;
  /// A metadata.total_size that is given but not an integer byte count
  /// (describing fails on it; opening the shards does not read it).
  bool total_size_malformed = false;
  bool config_only = false;  // no index: nothing is looked up or checked

  /// True when `name` is a tensor of the index; without an index, `assumed`:
  /// whether the family's reference implementation builds it from the
  /// configuration.
  bool contains(const std::string& name, bool assumed = false) const;
  /// The index's tensor count, an upper bound for counts a configuration
  /// declares; unbounded without an index.
  std::uint64_t tensor_bound() const;
};

/// The index of a folder planned from config.json alone: config_only,
/// file "config.json".
WeightIndex config_only_index();

/// True when the folder has a weight index file (either name).
bool has_weight_index(const std::string& dir);

/// Reads the folder's weight index, preferring the safetensors one. Errors:
/// Io (neither index exists or it cannot be read); Parse (not JSON, a
/// repeated key, no `weight_map` object).
Result<WeightIndex> read_weight_index(const std::string& dir);

}  // namespace eredu
