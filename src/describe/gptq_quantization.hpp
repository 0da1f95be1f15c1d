// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// GPTQ and AWQ checkpoints (config.json `quantization_config.quant_method`
// "gptq" / "awq", as AutoGPTQ / AutoAWQ write them and vLLM loads them):
// every quantized linear `<m>` (its `<m>.qweight` is in the index) is stored
// as int32 packed words plus per-group scales and zeros. The family's dense
// groups are expanded member by member (docs/describe.md, "GPTQ and AWQ").
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "checkpoint/weight_index.hpp"
#include "core/result.hpp"
#include "describe/config_fields.hpp"
#include "model/group.hpp"

namespace eredu {

enum class PackedMethod { Gptq, Awq };

/// The `quantization_config` of a GPTQ or AWQ checkpoint.
struct PackedQuantization {
  PackedMethod method = PackedMethod::Gptq;
  std::int32_t bits = 4;
  /// Input values per group; nullopt for GPTQ's -1 (one group over the
  /// whole input axis).
  std::optional<std::int32_t> group_size;
  bool desc_act = false;  // GPTQ act-order
};

/// Reads `quantization_config` when its quant_method is "gptq" or "awq";
/// nullopt otherwise (absent, or another method). Fields are read through
/// ConfigFields::section, so errors name `<file> quantization_config`:
/// Parse for a missing or non-positive bits, a missing or non-integer
/// group_size, a non-boolean desc_act / is_marlin_format / zero_point, a
/// non-string checkpoint_format / version; InvalidFormat for bits GPTQ (2,
/// 3, 4, 8) or AWQ (4) does not support, a group_size that is neither
/// positive (fitting 32 bits) nor (GPTQ only) -1; UnsupportedModel for a
/// GPTQ checkpoint_format other than "gptq", an AWQ version other than
/// "gemm", an AWQ zero_point false.
Result<std::optional<PackedQuantization>> read_packed_quantization(const ConfigFields& config);

/// Expands `groups`: every two-axis member `<m>.weight` [out, in] whose
/// `<m>.qweight` is in `index` (assumed, without an index, for partitioned
/// members) becomes its packed members in the group:
///
/// - GPTQ: qweight I32 [in·b/32, out], qzeros I32 [in/g, out·b/32], scales
///   F16 [in/g, out], g_idx I32 [in];
/// - AWQ: qweight I32 [in, out·b/32], qzeros I32 [in/g, out·b/32], scales
///   F16 [in/g, out].
///
/// A split of the output axis splits every member's output axis, of the
/// input axis every input axis (g_idx too); the group's units are reduced so
/// every cut lands on whole words and whole groups. With one group (GPTQ
/// group_size -1) an input split replicates scales and zeros, as vLLM does;
/// under act-order (desc_act) with groups an input split would cut groups,
/// so the group keeps 1 unit and only tensor size 1 plans it
/// (expand_physical_linears). Errors (InvalidTensor, naming the module): an
/// input width that the group size does not divide, or a width that does
/// not fill whole 32-bit words; and expand_physical_linears' errors.
Result<std::vector<ParameterGroupSpec>> expand_packed_groups(std::vector<ParameterGroupSpec> groups,
                                                             const PackedQuantization& quantization,
                                                             const WeightIndex& index);

}  // namespace eredu
