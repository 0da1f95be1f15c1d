// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "format/dtype.hpp"

#include <array>

namespace eredu {
namespace {

struct DtypeInfo {
  std::string_view name;
  std::uint64_t size;
};

constexpr std::array<DtypeInfo, kDtypeCount> kDtypes{{
    {"BOOL", 1},
    {"U8", 1},
    {"I8", 1},
    {"I16", 2},
    {"U16", 2},
    {"F16", 2},
    {"BF16", 2},
    {"I32", 4},
    {"U32", 4},
    {"F32", 4},
    {"F64", 8},
    {"I64", 8},
    {"U64", 8},
    {"F8_E4M3", 1},
    {"F8_E5M2", 1},
    {"F8_E8M0", 1},
}};

}  // namespace

std::uint64_t dtype_size(Dtype dtype) { return kDtypes[static_cast<std::uint32_t>(dtype)].size; }

std::string_view dtype_name(Dtype dtype) { return kDtypes[static_cast<std::uint32_t>(dtype)].name; }

std::optional<Dtype> parse_dtype(std::string_view name) {
  for (std::uint32_t i = 0; i < kDtypeCount; ++i) {
    if (kDtypes[i].name == name) return static_cast<Dtype>(i);
  }
  return std::nullopt;
}

std::optional<Dtype> dtype_from_value(std::uint32_t value) {
  if (value >= kDtypeCount) return std::nullopt;
  return static_cast<Dtype>(value);
}

}  // namespace eredu
