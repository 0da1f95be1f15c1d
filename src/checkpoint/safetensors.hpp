// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The safetensors container: an 8-byte little-endian header length, a JSON
// header naming each tensor's dtype, shape and data_offsets, then the data
// (docs/checkpoints.md, "safetensors").
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "checkpoint/binary_file.hpp"
#include "checkpoint/checkpoint.hpp"
#include "core/result.hpp"

namespace eredu {

/// The largest JSON header accepted, in bytes (the reference
/// implementation's bound).
inline constexpr std::uint64_t kSafetensorsMaxHeader = 100'000'000;

/// A parsed safetensors header.
struct SafetensorsHeader {
  std::vector<CheckpointTensor> tensors;        // in data order
  std::map<std::string, std::string> metadata;  // `__metadata__`
  std::uint64_t data_start = 0;                 // 8 + header length
};

/// Reads and validates the header of `file`, tagging each tensor with
/// `file_index`. Errors, all Parse naming the file (and the tensor where
/// there is one), in this order: fewer than 8 bytes; a header length above
/// kSafetensorsMaxHeader or past the end of the file; a header that does not
/// start with `{` or is not JSON (a repeated key included); a non-object
/// `__metadata__` or a non-string value in it; a tensor entry without a
/// known `dtype`, an integer `shape` or a two-integer `data_offsets`; an
/// element count or byte length past 64 bits; data_offsets that do not tile
/// the data section from 0 in order (a gap, an overlap, end before begin);
/// a byte length other than elements × dtype size; a data section whose
/// size is not the last end (missing or trailing bytes). Reads the first
/// 8 + header length bytes only.
Result<SafetensorsHeader> read_safetensors_header(const BinaryFile& file, std::uint32_t file_index);

}  // namespace eredu
