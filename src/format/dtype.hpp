// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Safetensors element types, for byte accounting (docs/interchange.md, "A
// member").
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace eredu {

/// Values match EREDU_DTYPE_* of the C header.
enum class Dtype : std::uint32_t {
  Bool = 0,
  U8 = 1,
  I8 = 2,
  I16 = 3,
  U16 = 4,
  F16 = 5,
  BF16 = 6,
  I32 = 7,
  U32 = 8,
  F32 = 9,
  F64 = 10,
  I64 = 11,
  U64 = 12,
  F8E4M3 = 13,
  F8E5M2 = 14,
  F8E8M0 = 15,
};

inline constexpr std::uint32_t kDtypeCount = 16;

/// Bytes of one element.
std::uint64_t dtype_size(Dtype dtype);
/// The safetensors name ("BF16", "F8_E4M3").
std::string_view dtype_name(Dtype dtype);
/// Parses a safetensors name; nullopt when unknown.
std::optional<Dtype> parse_dtype(std::string_view name);
/// A C-side value, or nullopt when out of range.
std::optional<Dtype> dtype_from_value(std::uint32_t value);

}  // namespace eredu
