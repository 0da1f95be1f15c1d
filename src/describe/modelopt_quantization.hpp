// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// ModelOpt NVFP4 checkpoints (config.json `quantization_config.quant_method`
// "modelopt" with `quant_algo` "NVFP4", as NVIDIA TensorRT Model Optimizer
// exports them and vLLM's modelopt.py loads them): every quantized linear
// `<m>` is stored as FP4 E2M1 pairs in bytes, an FP8 E4M3 scale per 16
// input values and two per-tensor F32 scalars (docs/describe.md, "ModelOpt
// NVFP4").
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "checkpoint/weight_index.hpp"
#include "core/result.hpp"
#include "describe/config_fields.hpp"
#include "model/group.hpp"

namespace eredu {

/// The `quantization_config` of a ModelOpt NVFP4 checkpoint.
struct NvFp4Quantization {
  static constexpr std::uint64_t kGroupSize = 16;  // input values per weight_scale
  /// Modules left dense: `exclude_modules` (hf_quant_config.json's key) and
  /// `ignore` (config.json's); an entry also excludes the modules under it
  /// (`model.layers.0` excludes `model.layers.0.mlp.down_proj`).
  std::vector<std::string> exclude;
};

/// Reads `quantization_config` when its quant_method is "modelopt"; nullopt
/// for another or no quant_method. The fields are read from the object
/// itself or, when it holds one, from its `quantization` object (the
/// hf_quant_config.json layout). Errors, naming the object read: Parse for
/// a field of the wrong type, a missing quant_algo; UnsupportedModel for a
/// quant_algo other than "NVFP4" (ModelOpt FP8 included), a
/// kv_cache_quant_algo (its k_scale / v_scale tensors), an exclude entry
/// with a wildcard (`*`, `?`); InvalidFormat for a group_size other than
/// 16.
Result<std::optional<NvFp4Quantization>> read_modelopt_quantization(const ConfigFields& config);

/// Expands `groups`: every two-axis member `<m>.weight` [out, in] whose `<m>`
/// is not excluded and whose `<m>.weight_scale` is in `index` (assumed,
/// without an index, for partitioned members) becomes, in the group and in
/// this order: `<m>.weight` U8 [out, in/2] (two E2M1 values a byte),
/// `<m>.weight_scale` F8_E4M3 [out, in/16], `<m>.weight_scale_2` F32 []
/// and `<m>.input_scale` F32 [] (scalars). A column split splits the
/// weight and weight_scale on axis 0; a row split splits them on axis 1
/// (bytes, scale columns) with units reduced so every cut lands on whole
/// 16-value groups; the scalars are replicated. Errors: InvalidTensor
/// `<m>: NVFP4 input width W is not a multiple of 16`; and
/// expand_physical_linears' errors.
Result<std::vector<ParameterGroupSpec>> expand_nvfp4_groups(std::vector<ParameterGroupSpec> groups,
                                                            const NvFp4Quantization& quantization,
                                                            const WeightIndex& index);

}  // namespace eredu
