// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Little-endian fixed-width integers in byte strings, whatever the host's
// byte order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace eredu {

/// Appends the low `bytes` bytes of `value`, least significant first.
inline void append_le(std::string& out, std::uint64_t value, std::size_t bytes) {
  for (std::size_t i = 0; i < bytes; ++i) out.push_back(static_cast<char>(value >> (8 * i)));
}

inline void append_u32(std::string& out, std::uint32_t value) { append_le(out, value, 4); }
inline void append_u64(std::string& out, std::uint64_t value) { append_le(out, value, 8); }

/// The `bytes`-byte little-endian integer at `offset` of `in`; the caller
/// has checked that it lies inside.
inline std::uint64_t read_le(std::string_view in, std::size_t offset, std::size_t bytes) {
  std::uint64_t value = 0;
  for (std::size_t i = 0; i < bytes; ++i) {
    value |= std::uint64_t{static_cast<unsigned char>(in[offset + i])} << (8 * i);
  }
  return value;
}

inline std::uint32_t read_u32(std::string_view in, std::size_t offset) {
  return static_cast<std::uint32_t>(read_le(in, offset, 4));
}
inline std::uint64_t read_u64(std::string_view in, std::size_t offset) {
  return read_le(in, offset, 8);
}

}  // namespace eredu
