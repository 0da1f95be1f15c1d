// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "format/ggml.hpp"

#include <algorithm>
#include <array>

namespace eredu {
namespace {

constexpr std::array<GgmlTypeInfo, 28> kSupported{{
    {0, "F32", 1, 4},         {1, "F16", 1, 2},         {2, "Q4_0", 32, 18},
    {3, "Q4_1", 32, 20},      {6, "Q5_0", 32, 22},      {7, "Q5_1", 32, 24},
    {8, "Q8_0", 32, 34},      {10, "Q2_K", 256, 84},    {11, "Q3_K", 256, 110},
    {12, "Q4_K", 256, 144},   {13, "Q5_K", 256, 176},   {14, "Q6_K", 256, 210},
    {16, "IQ2_XXS", 256, 66}, {17, "IQ2_XS", 256, 74},  {18, "IQ3_XXS", 256, 98},
    {19, "IQ1_S", 256, 50},   {20, "IQ4_NL", 32, 18},   {21, "IQ3_S", 256, 110},
    {22, "IQ2_S", 256, 82},   {23, "IQ4_XS", 256, 136}, {24, "I8", 1, 1},
    {25, "I16", 1, 2},        {26, "I32", 1, 4},        {27, "I64", 1, 8},
    {28, "F64", 1, 8},        {29, "IQ1_M", 256, 56},   {30, "BF16", 1, 2},
    {39, "MXFP4", 32, 17},
}};

// Live ggml types this project does not support (docs/planning.md, "GGML
// block table").
struct NamedCode {
  std::string_view name;
  std::uint32_t code;
};
constexpr std::array<NamedCode, 4> kUnsupportedNames{{
    {"Q8_1", 9},
    {"Q8_K", 15},
    {"TQ1_0", 34},
    {"TQ2_0", 35},
}};

}  // namespace

std::span<const GgmlTypeInfo> supported_ggml_types() { return kSupported; }

Result<GgmlTypeInfo> ggml_type_info(std::uint32_t code) {
  const auto* found = std::find_if(kSupported.begin(), kSupported.end(),
                                   [code](const GgmlTypeInfo& info) { return info.code == code; });
  if (found == kSupported.end()) {
    return failf(Status::InvalidFormat, "unsupported GGML tensor type {}", code);
  }
  return *found;
}

std::optional<std::uint32_t> ggml_code_from_name(std::string_view name) {
  for (const GgmlTypeInfo& info : kSupported) {
    if (info.name == name) return info.code;
  }
  for (const NamedCode& entry : kUnsupportedNames) {
    if (entry.name == name) return entry.code;
  }
  return std::nullopt;
}

}  // namespace eredu
