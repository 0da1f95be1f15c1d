// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The GGUF container, versions 2 and 3 (docs/checkpoints.md, "GGUF"): a
// header, typed metadata key/values, tensor infos, then the aligned data
// section.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "checkpoint/binary_file.hpp"
#include "checkpoint/checkpoint.hpp"
#include "core/result.hpp"

namespace eredu {

/// GGUF metadata value types, by their file codes.
enum class GgufType : std::uint32_t {
  U8 = 0,
  I8 = 1,
  U16 = 2,
  I16 = 3,
  U32 = 4,
  I32 = 5,
  F32 = 6,
  Bool = 7,
  String = 8,
  Array = 9,
  U64 = 10,
  I64 = 11,
  F64 = 12,
};

/// One metadata value. Scalars keep their value in the field of their kind
/// (unsigned, signed, real, boolean, text); an array keeps its element type
/// and count, and its values when they are integers (at most
/// kGgufKeptArrayValues of them), since the tokenizer arrays eredu does not
/// need are the bulk of a GGUF header.
struct GgufValue {
  GgufType type = GgufType::U8;
  std::uint64_t unsigned_value = 0;
  std::int64_t signed_value = 0;
  double real = 0;
  bool boolean = false;
  std::string text;
  GgufType element_type = GgufType::U8;  // arrays
  std::uint64_t count = 0;               // arrays: elements
  std::vector<std::int64_t> integers;    // arrays of integers (kept ones)

  /// The value as an unsigned integer: unsigned types, and signed ones that
  /// are not negative; nullopt otherwise.
  std::optional<std::uint64_t> as_unsigned() const;
};

inline constexpr std::uint64_t kGgufKeptArrayValues = 4096;

/// A parsed GGUF file's header.
struct GgufHeader {
  std::uint32_t version = 0;
  std::map<std::string, GgufValue> metadata;
  std::vector<CheckpointTensor> tensors;  // in file order, shapes outermost first
  std::uint64_t alignment = 32;           // general.alignment, or 32
  std::uint64_t data_start = 0;           // absolute offset of the data section

  const GgufValue* find(const std::string& key) const;
};

/// Reads and validates the header of `file`, tagging each tensor with
/// `file_index`. Errors, all Parse naming the file (and the key or tensor),
/// in file order: not starting with `GGUF`; a version other than 2 or 3
/// (a byte-swapped one: big-endian files are not read); a count or string
/// length larger than the bytes left in the file; a repeated key; an
/// unknown value type, an array of arrays, a boolean other than 0 or 1; a
/// general.alignment that is not a power-of-two u32; a repeated tensor
/// name; more than 4 dimensions, a dimension above 2^63 - 1 or an element
/// count past 64 bits; an unsupported ggml type (the GGML block table of
/// docs/planning.md); a row (first ggml dimension) that is not a whole
/// number of blocks; an offset other than the end of the tensor before,
/// padded to the alignment (ggml's layout rule); data past the end of the
/// file; bytes after the last tensor's padded end. Reads the header only,
/// through a 64 KiB window; allocates no more than the file's bytes.
Result<GgufHeader> read_gguf_header(const BinaryFile& file, std::uint32_t file_index);

}  // namespace eredu
