// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The GGML block table (docs/planning.md, "GGML block table"): the supported
// `ggml_type` codes with their values and bytes per block.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "core/result.hpp"

namespace eredu {

/// One supported GGML tensor type: `block_values` logical values are stored
/// in `block_bytes` bytes.
struct GgmlTypeInfo {
  std::uint32_t code = 0;
  std::string_view name;  // ggml's own spelling: "Q4_K", "IQ2_XXS", "BF16"
  std::uint64_t block_values = 0;
  std::uint64_t block_bytes = 0;
  friend bool operator==(const GgmlTypeInfo&, const GgmlTypeInfo&) = default;
};

/// Every supported type, in ascending code order (static storage).
std::span<const GgmlTypeInfo> supported_ggml_types();

/// Seed `GgmlType::block_and_bytes` by code. Codes 4, 5, 9, 15, 31–38 and
/// unknown codes fail with InvalidFormat `unsupported GGML tensor type N`.
Result<GgmlTypeInfo> ggml_type_info(std::uint32_t code);

/// The code ggml gives `name` (exact, case-sensitive spelling such as
/// "Q4_K"), also for the known but unsupported live types Q8_1 (9), Q8_K
/// (15), TQ1_0 (34) and TQ2_0 (35), so that `ggml_type_info` reports them as
/// unsupported; nullopt for a name ggml does not define.
std::optional<std::uint32_t> ggml_code_from_name(std::string_view name);

}  // namespace eredu
