// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Quantized linears whose stored tensors the formats layer (LinearFormat)
// cannot express: GPTQ / AWQ, compressed-tensors and ModelOpt NVFP4 rename
// the weight, pack it along either axis, or add per-tensor scalars that a
// row split replicates. A family's logical dense member `<m>.weight`
// [out, in] is replaced by the physical members a declaration gives, each
// with the dense axes it follows (docs/describe.md, "GPTQ and AWQ").
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "format/dtype.hpp"
#include "model/group.hpp"

namespace eredu {

/// How one physical member follows one dense axis (out or in): the physical
/// axis it maps to (nullopt: a split of that dense axis replicates the
/// member) and the ratio physical / dense extent, num / den (GPTQ 4-bit
/// packing along in: {0, 4, 32}; scales per group of 128: {0, 1, 128}).
struct AxisRule {
  std::optional<std::uint64_t> axis;
  std::uint64_t num = 1;
  std::uint64_t den = 1;
};

/// One stored tensor of a quantized linear `<m>`: target `<m>.<suffix>`,
/// its global shape (outermost axis first) and dtype, and the rules for a
/// split of the dense output and input axes.
struct PhysicalMember {
  std::string suffix;
  std::vector<std::uint64_t> shape;
  Dtype dtype;
  AxisRule out;
  AxisRule in;
};

/// The stored tensors of one quantized linear, in the order they replace
/// `<m>.weight`. `row_split_cuts_groups`: a split of the input axis would
/// cut its quantization groups (GPTQ act-order), so a group holding a
/// row-parallel one keeps 1 unit and no KV-head replication.
struct PhysicalLinear {
  std::vector<PhysicalMember> members;
  bool row_split_cuts_groups = false;
};

/// The declaration of one dense member `<module>.weight` [out, in]: its
/// physical tensors, nullopt when it stays dense (not quantized, excluded,
/// absent from the index), or an error that stops the expansion.
using PhysicalLinearDeclaration = std::function<Result<std::optional<PhysicalLinear>>(
    const std::string& module, const ParameterMemberSpec& dense)>;

/// Expands `groups`: every two-axis member whose target is `<m>.weight` and
/// for which `declare` returns tensors is replaced by them, in the group
/// and in order. A dense split of the output (input) axis becomes, per
/// physical member, a split of the axis its `out` (`in`) rule names with
/// segment bounds scaled by num / den, or replication when the rule names
/// none (replicated members lose KV-head replication). A partitioned group
/// is rebuilt by partitioned_group_with_preferred_units with its old units
/// as preferred, so the units are reduced by gcd with every partitioned
/// extent and every cut lands on whole words and whole groups: a weight is
/// never separated from its scales. `format` names the encoding in
/// messages. Errors: `declare`'s; InvalidTensor `<m>: <format> tensors
/// cannot follow a <kind> split` (expert, equal or balanced splits),
/// InvalidTensor `packed companion <m>.<s> segment a..b is not aligned to
/// k`; InvalidGroup `<group>: <format> members next to another linear
/// format` (a group the formats layer already encoded); the group
/// rebuild's errors. Groups without a quantized member are returned as
/// they are.
Result<std::vector<ParameterGroupSpec>> expand_physical_linears(
    std::vector<ParameterGroupSpec> groups, std::string_view format,
    const PhysicalLinearDeclaration& declare);

/// `<module>.weight` → `<module>`, or nullopt for other targets.
std::optional<std::string> weight_module(const std::string& target);

/// `width × bits / 32` 32-bit words without the product, or nullopt when
/// the width does not fill whole words.
std::optional<std::uint64_t> packed_words(std::uint64_t width, std::uint64_t bits);

}  // namespace eredu
