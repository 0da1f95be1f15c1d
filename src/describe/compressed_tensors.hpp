// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// compressed-tensors checkpoints (config.json `quantization_config.quant_method`
// "compressed-tensors", as llm-compressor writes them and vLLM's
// compressed_tensors scheme loads them): every quantized linear `<m>` is
// stored as `pack-quantized` int32 words (W4A16 / W8A16) or
// `float-quantized` FP8 E4M3 (W8A8-FP8), with its scales
// (docs/describe.md, "compressed-tensors").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "checkpoint/weight_index.hpp"
#include "core/result.hpp"
#include "describe/config_fields.hpp"
#include "format/dtype.hpp"
#include "model/group.hpp"

namespace eredu {

enum class CompressedFormat { PackQuantized, FloatQuantized };
/// The weights' `strategy`: a scale per `group_size` input values of each
/// output row, per output row, or one per tensor.
enum class CompressedStrategy { Group, Channel, Tensor };

/// The `quantization_config` of a compressed-tensors checkpoint with one
/// config group targeting "Linear".
struct CompressedTensorsQuantization {
  CompressedFormat format = CompressedFormat::PackQuantized;
  std::uint64_t bits = 4;  // pack-quantized: 4 or 8; float-quantized: 8
  CompressedStrategy strategy = CompressedStrategy::Group;
  std::uint64_t group_size = 0;  // Group only
  bool symmetric = true;         // false: pack-quantized weight_zero_point
  bool act_order = false;        // actorder "group": pack-quantized weight_g_idx
  /// float-quantized input_activations with dynamic false: an input_scale
  /// per linear (assumed so without an index).
  bool static_input_scale = false;
  std::vector<std::string> ignore;  // module names left dense
  Dtype scale_dtype = Dtype::BF16;  // pack-quantized scales: the checkpoint dtype
};

/// Reads `quantization_config` when its quant_method is
/// "compressed-tensors"; nullopt for another or no quant_method. Messages
/// name the object read (`<file> quantization_config config_groups group_0
/// weights: …`). Errors:
/// - Parse: a field of the wrong type (an object, a count, a string, a
///   boolean, an array of strings), a missing config_groups, weights,
///   num_bits, strategy or (strategy "group") group_size;
/// - InvalidFormat: num_bits other than 4 or 8 (pack-quantized) or 8
///   (float-quantized), a weights type other than "int" (pack-quantized)
///   or "float" (float-quantized);
/// - UnsupportedModel: a format other than "pack-quantized" and
///   "float-quantized" (from the top level or the group), a strategy the
///   format does not support here (pack-quantized: group, channel;
///   float-quantized: tensor, channel — "block" included), not exactly one
///   config group, targets other than ["Linear"], dynamic weights,
///   activations quantized next to pack-quantized weights or FP8
///   activations that are not 8-bit float, a `re:` ignore entry, a
///   kv_cache_scheme, a sparsity_config with a format other than "dense",
///   a checkpoint dtype that is not given or supported (pack-quantized).
Result<std::optional<CompressedTensorsQuantization>> read_compressed_tensors(
    const ConfigFields& config);

/// Expands `groups`: every two-axis member `<m>.weight` [out, in] whose `<m>`
/// is not ignored and whose `<m>.weight_packed` (pack-quantized) or
/// `<m>.weight_scale` (float-quantized) is in `index` (assumed, without an
/// index, for partitioned members) becomes, in the group and in this order
/// (b bits, g the group size):
///
/// - pack-quantized: weight_packed I32 [out, in·b/32]; weight_scale
///   (scale_dtype) [out, in/g], or [out, 1] per channel; weight_shape I64
///   [2]; when asymmetric weight_zero_point I32 [out·b/32, in/g] (per
///   channel [out·b/32, 1]); with act-order weight_g_idx I32 [in];
/// - float-quantized: weight F8_E4M3 [out, in]; weight_scale F32 [out, 1]
///   per channel or [1] per tensor; input_scale F32 [1] when in `index`
///   (without an index: static_input_scale).
///
/// A column split (dense axis 0) splits every member's output axis
/// (weight_zero_point its packed one); a row split (axis 1) splits
/// weight_packed's packed input axis, group scales and zero points on
/// their group axis and weight_g_idx, and replicates per-channel and
/// per-tensor scales, weight_shape and input_scale. Units are reduced so
/// every cut lands on whole words and whole groups (expand_physical_linears);
/// with act-order groups a row split would cut groups, so such a group keeps
/// 1 unit. Errors (InvalidTensor, naming the module): an input width that
/// g does not divide, a width that does not fill whole 32-bit words; and
/// expand_physical_linears' errors.
Result<std::vector<ParameterGroupSpec>> expand_compressed_tensors_groups(
    std::vector<ParameterGroupSpec> groups, const CompressedTensorsQuantization& quantization,
    const WeightIndex& index);

}  // namespace eredu
