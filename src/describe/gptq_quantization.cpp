// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "describe/gptq_quantization.hpp"

#include <limits>
#include <optional>
#include <string>
#include <string_view>

#include "core/text.hpp"
#include "describe/physical_linear.hpp"
#include "describe/quantization_refusal.hpp"

namespace eredu {
namespace {

std::string_view method_name(PackedMethod method) {
  return method == PackedMethod::Gptq ? "GPTQ" : "AWQ";
}

}  // namespace

Result<std::optional<PackedQuantization>> read_packed_quantization(const ConfigFields& config) {
  const std::optional<std::string> name = quantization_method(config);
  if (!name || (*name != "gptq" && *name != "awq")) return std::optional<PackedQuantization>{};
  EREDU_TRY(fields, config.section("quantization_config"));
  const std::string& where = fields.file();
  PackedQuantization out;
  out.method = *name == "gptq" ? PackedMethod::Gptq : PackedMethod::Awq;
  EREDU_TRY(bits, fields.required_count("bits"));
  EREDU_TRY(group, fields.required_integer("group_size"));
  if (out.method == PackedMethod::Gptq) {
    if (bits != 2 && bits != 3 && bits != 4 && bits != 8) {
      return failf(Status::InvalidFormat, "{}: GPTQ bits must be one of 2, 3, 4, or 8, got {}",
                   where, bits);
    }
    if ((group <= 0 && group != -1) || group > std::numeric_limits<std::int32_t>::max()) {
      return failf(Status::InvalidFormat, "{}: GPTQ group_size must be positive or -1, got {}",
                   where, group);
    }
    EREDU_TRY(desc_act, fields.flag("desc_act", false));
    EREDU_TRY(format, fields.optional_string("checkpoint_format"));
    EREDU_TRY(marlin, fields.flag("is_marlin_format", false));
    const std::string checkpoint_format =
        marlin ? "marlin" : ascii_lowered(format.value_or("gptq"));
    if (checkpoint_format != "gptq") {
      return failf(Status::UnsupportedModel,
                   "{}: GPTQ checkpoint_format {} is not supported; supported: \"gptq\"", where,
                   debug_quoted(checkpoint_format));
    }
    out.desc_act = desc_act;
  } else {
    if (bits != 4) {
      return failf(Status::InvalidFormat, "{}: AWQ bits must be 4, got {}", where, bits);
    }
    if (group <= 0 || group > std::numeric_limits<std::int32_t>::max()) {
      return failf(Status::InvalidFormat, "{}: AWQ group_size must be positive, got {}", where,
                   group);
    }
    EREDU_TRY(version, fields.optional_string("version"));
    const std::string kernel = ascii_lowered(version.value_or("gemm"));
    if (kernel != "gemm") {
      return failf(Status::UnsupportedModel,
                   "{}: AWQ version {} is not supported; supported: \"gemm\"", where,
                   debug_quoted(kernel));
    }
    EREDU_TRY(zero_point, fields.flag("zero_point", true));
    if (!zero_point) {
      return failf(Status::UnsupportedModel, "{}: AWQ without zero_point is not supported", where);
    }
  }
  out.bits = static_cast<std::int32_t>(bits);
  if (group != -1) out.group_size = static_cast<std::int32_t>(group);
  return std::optional<PackedQuantization>{out};
}

namespace {

// The physical members of `module` [out, in], or an alignment error.
Result<PhysicalLinear> packed_linear(const PackedQuantization& quantization,
                                     const std::string& module, std::uint64_t out,
                                     std::uint64_t in) {
  const std::string_view name = method_name(quantization.method);
  const auto bits = static_cast<std::uint64_t>(quantization.bits);
  const std::uint64_t group =
      quantization.group_size ? static_cast<std::uint64_t>(*quantization.group_size) : in;
  if (in % group != 0) {
    return failf(Status::InvalidTensor, "{}: {} group_size {} does not divide input width {}",
                 module, name, group, in);
  }
  const bool gptq = quantization.method == PackedMethod::Gptq;
  const std::optional<std::uint64_t> in_words = packed_words(in, bits);
  const std::optional<std::uint64_t> out_words = packed_words(out, bits);
  if (gptq && !in_words) {
    return failf(Status::InvalidTensor,
                 "{}: {} {}-bit input width {} does not fill whole 32-bit words", module, name,
                 bits, in);
  }
  if (!out_words) {
    return failf(Status::InvalidTensor,
                 "{}: {} {}-bit output width {} does not fill whole 32-bit words", module, name,
                 bits, out);
  }
  const AxisRule per_group{0, 1, group};
  // One group: an input split leaves every rank the whole group.
  const AxisRule group_in = quantization.group_size ? per_group : AxisRule{};
  PhysicalLinear linear;
  std::vector<PhysicalMember>& members = linear.members;
  if (gptq) {
    members.push_back({"qweight", {*in_words, out}, Dtype::I32, {1}, {0, bits, 32}});
  } else {
    members.push_back({"qweight", {in, *out_words}, Dtype::I32, {1, bits, 32}, {0}});
  }
  members.push_back({"qzeros", {in / group, *out_words}, Dtype::I32, {1, bits, 32}, group_in});
  members.push_back({"scales", {in / group, out}, Dtype::F16, {1}, group_in});
  if (gptq) members.push_back({"g_idx", {in}, Dtype::I32, {}, {0}});
  // Act-order with groups: g_idx scatters the input rows over the groups.
  linear.row_split_cuts_groups = quantization.desc_act && quantization.group_size.has_value();
  return linear;
}

}  // namespace

Result<std::vector<ParameterGroupSpec>> expand_packed_groups(std::vector<ParameterGroupSpec> groups,
                                                             const PackedQuantization& quantization,
                                                             const WeightIndex& index) {
  return expand_physical_linears(
      std::move(groups), method_name(quantization.method),
      [&](const std::string& module,
          const ParameterMemberSpec& dense) -> Result<std::optional<PhysicalLinear>> {
        if (!index.contains(module + ".qweight", dense.sharding().is_partitioned())) {
          return std::optional<PhysicalLinear>{};
        }
        EREDU_TRY(linear, packed_linear(quantization, module, dense.global_shape()[0],
                                        dense.global_shape()[1]));
        return std::optional<PhysicalLinear>{std::move(linear)};
      });
}

}  // namespace eredu
