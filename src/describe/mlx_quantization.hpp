// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// MLX affine-quantized checkpoints (config.json `quantization`): every
// quantized linear or embedding is stored as a packed U32 `.weight` plus
// `.scales` and `.biases`, one per group of input values. The family's
// logical dense groups are expanded with the seed's linear-format expansion.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "checkpoint/weight_index.hpp"
#include "core/result.hpp"
#include "describe/config_fields.hpp"
#include "format/linear_format.hpp"
#include "model/group.hpp"

namespace eredu {

/// The `quantization` object of an MLX config.json.
struct MlxQuantization {
  AffineQuantization defaults;  // top-level group_size and bits
  /// Per-module entries (`"model.layers.0.mlp.down_proj": {"bits": 8}`);
  /// nullopt for `false` (the module is not quantized).
  std::map<std::string, std::optional<AffineQuantization>> modules;
  Dtype companion_dtype = Dtype::F32;  // scales and biases: the checkpoint dtype
};

/// Reads config.json's `quantization`: nullopt when absent. When present,
/// a `quantization_config` must be absent or an identical copy (mlx-lm
/// writes both). Errors: UnsupportedModel for a `quantization_config` of
/// another kind (named as refuse_quantization_config does), a `mode` other
/// than "affine", a checkpoint dtype that is not given or supported; Parse
/// for a non-object, a missing or non-positive group_size or bits, a
/// per-module entry that is neither an object nor a boolean; InvalidFormat
/// for a group size or bit width AffineQuantization refuses (the message
/// names the module).
Result<std::optional<MlxQuantization>> read_mlx_quantization(const ConfigFields& config);

/// Expands `groups`: every member whose target is `<module>.weight`, with at
/// least two axes, whose `<module>.scales` is in `index` (and whose module
/// entry is not `false`) becomes its packed U32 weight [.., rows, cols·bits/32],
/// `<module>.scales` and `<module>.biases` [.., rows, cols/group] of the
/// companion dtype; partitioned groups get their units reduced by gcd
/// (expand_linear_format_parameter_groups). Errors: the expansion's
/// (InvalidTensor when an input width is not a multiple of the group or does
/// not fill whole 32-bit words, naming the member).
Result<std::vector<ParameterGroupSpec>> expand_mlx_groups(std::vector<ParameterGroupSpec> groups,
                                                          const MlxQuantization& quantization,
                                                          const WeightIndex& index);

}  // namespace eredu
