// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "describe/compressed_tensors.hpp"

#include <algorithm>
#include <string_view>
#include <utility>

#include "core/text.hpp"
#include "describe/physical_linear.hpp"
#include "describe/quantization_refusal.hpp"

namespace eredu {
namespace {

constexpr std::string_view kName = "compressed-tensors";

Result<CompressedFormat> parse_format(const std::string& format, const std::string& where) {
  if (format == "pack-quantized") return CompressedFormat::PackQuantized;
  if (format == "float-quantized") return CompressedFormat::FloatQuantized;
  return failf(Status::UnsupportedModel,
               "{}: compressed-tensors format {} is not supported; supported: "
               "\"pack-quantized\", \"float-quantized\"",
               where, debug_quoted(format));
}

// The weights' strategy, checked against what `format` supports here.
Result<CompressedStrategy> parse_strategy(CompressedFormat format, const std::string& strategy,
                                          const std::string& where) {
  const bool packed = format == CompressedFormat::PackQuantized;
  if (strategy == "channel") return CompressedStrategy::Channel;
  if (packed && strategy == "group") return CompressedStrategy::Group;
  if (!packed && strategy == "tensor") return CompressedStrategy::Tensor;
  return failf(Status::UnsupportedModel, "{}: strategy {} is not supported for {}; supported: {}",
               where, debug_quoted(strategy), packed ? "pack-quantized" : "float-quantized",
               packed ? "\"group\", \"channel\"" : "\"tensor\", \"channel\"");
}

// `actorder`: null, a boolean (true is "group") or a word; true when the
// checkpoint stores weight_g_idx.
Result<bool> read_act_order(const ConfigFields& weights) {
  const nlohmann::json* value = weights.field("actorder");
  if (value != nullptr && value->is_boolean()) return weights.flag("actorder", false);
  EREDU_TRY(word, weights.optional_string("actorder"));
  if (!word) return false;
  const std::string order = ascii_lowered(*word);
  if (order == "group") return true;
  if (order == "static" || order == "weight") return false;
  return failf(Status::UnsupportedModel,
               "{}: actorder {} is not supported; supported: \"group\", \"weight\", \"static\"",
               weights.file(), debug_quoted(*word));
}

// input_activations: none for pack-quantized (weight-only); 8-bit float
// for float-quantized, static (an input_scale) unless dynamic.
Result<void> read_activations(const ConfigFields& group, CompressedTensorsQuantization& out) {
  EREDU_TRY(activations, group.optional_section("input_activations"));
  if (!activations) return outcome::success();
  if (out.format == CompressedFormat::PackQuantized) {
    return failf(Status::UnsupportedModel,
                 "{}: quantized activations next to pack-quantized weights are not supported "
                 "(weight-only W4A16 / W8A16 are)",
                 activations->file());
  }
  EREDU_TRY(bits, activations->required_count("num_bits"));
  EREDU_TRY(type, activations->optional_string("type"));
  if (bits != 8 || ascii_lowered(type.value_or("int")) != "float") {
    return failf(Status::UnsupportedModel,
                 "{}: {}-bit {} activations next to FP8 weights are not supported; supported: "
                 "8-bit float",
                 activations->file(), bits, debug_quoted(type.value_or("int")));
  }
  EREDU_TRY(dynamic, activations->flag("dynamic", false));
  out.static_input_scale = !dynamic;
  return outcome::success();
}

Result<void> read_weights(const ConfigFields& weights, CompressedTensorsQuantization& out) {
  const std::string& where = weights.file();
  const bool packed = out.format == CompressedFormat::PackQuantized;
  EREDU_TRY(bits, weights.required_count("num_bits"));
  EREDU_TRY(type, weights.optional_string("type"));
  const std::string kind = ascii_lowered(type.value_or("int"));
  if (kind != (packed ? "int" : "float")) {
    return failf(Status::InvalidFormat, "{}: {} weights must be of type {}, got {}", where,
                 packed ? "pack-quantized" : "float-quantized", packed ? "\"int\"" : "\"float\"",
                 debug_quoted(kind));
  }
  if (packed ? bits != 4 && bits != 8 : bits != 8) {
    return failf(Status::InvalidFormat, "{}: {} num_bits must be {}, got {}", where,
                 packed ? "pack-quantized" : "float-quantized", packed ? "4 or 8" : "8", bits);
  }
  out.bits = bits;
  EREDU_TRY(strategy_word, weights.optional_string("strategy"));
  if (!strategy_word) {
    return failf(Status::Parse, "{}: required field strategy is missing", where);
  }
  EREDU_TRY(strategy, parse_strategy(out.format, ascii_lowered(*strategy_word), where));
  out.strategy = strategy;
  if (strategy == CompressedStrategy::Group) {
    EREDU_TRY(group, weights.required_count("group_size"));
    out.group_size = group;
  }
  EREDU_TRY(dynamic, weights.flag("dynamic", false));
  if (dynamic) {
    return failf(Status::UnsupportedModel, "{}: dynamic weight quantization is not supported",
                 where);
  }
  EREDU_TRY(symmetric, weights.flag("symmetric", true));
  if (!symmetric && !packed) {
    return failf(Status::UnsupportedModel, "{}: asymmetric FP8 weights are not supported", where);
  }
  out.symmetric = symmetric;
  EREDU_TRY(act_order, read_act_order(weights));
  out.act_order = packed && act_order;
  return outcome::success();
}

}  // namespace

Result<std::optional<CompressedTensorsQuantization>> read_compressed_tensors(
    const ConfigFields& config) {
  const std::optional<std::string> method = quantization_method(config);
  if (!method || *method != "compressed-tensors") {
    return std::optional<CompressedTensorsQuantization>{};
  }
  EREDU_TRY(fields, config.section("quantization_config"));
  if (fields.field("kv_cache_scheme") != nullptr) {
    return failf(Status::UnsupportedModel,
                 "{}: kv_cache_scheme is not supported (its k_scale / v_scale tensors)",
                 fields.file());
  }
  EREDU_TRY(sparsity, fields.optional_section("sparsity_config"));
  if (sparsity) {
    EREDU_TRY(sparse_format, sparsity->optional_string("format"));
    if (sparse_format && ascii_lowered(*sparse_format) != "dense") {
      return failf(Status::UnsupportedModel, "{}: sparsity format {} is not supported",
                   sparsity->file(), debug_quoted(*sparse_format));
    }
  }
  EREDU_TRY(groups, fields.section("config_groups"));
  const std::vector<std::string> names = groups.keys();
  if (names.size() != 1) {
    return failf(Status::UnsupportedModel,
                 "{}: {} config groups are not supported; supported: one group targeting "
                 "\"Linear\"",
                 groups.file(), names.size());
  }
  EREDU_TRY(group, groups.section(names.front().c_str()));
  EREDU_TRY(targets, group.string_list("targets"));
  if (targets != std::vector<std::string>{"Linear"}) {
    return failf(Status::UnsupportedModel, "{}: targets other than [\"Linear\"] are not supported",
                 group.file());
  }
  // A group's own format wins over the top level's (compressed-tensors
  // writes it per group in mixed-format checkpoints).
  EREDU_TRY(group_format, group.optional_string("format"));
  EREDU_TRY(top_format, fields.optional_string("format"));
  if (!group_format && !top_format) {
    return failf(Status::Parse, "{}: required field format is missing", fields.file());
  }
  CompressedTensorsQuantization out;
  EREDU_TRY(format, parse_format(ascii_lowered(group_format ? *group_format : *top_format),
                                 group_format ? group.file() : fields.file()));
  out.format = format;
  EREDU_TRY(weights, group.section("weights"));
  EREDU_TRY(read_weights(weights, out));
  EREDU_TRY(read_activations(group, out));
  EREDU_TRY(ignore, fields.string_list("ignore"));
  for (const std::string& entry : ignore) {
    if (entry.rfind("re:", 0) == 0) {
      return failf(Status::UnsupportedModel,
                   "{}: ignore entry {} is a regular expression; supported: module names",
                   fields.file(), debug_quoted(entry));
    }
  }
  out.ignore = std::move(ignore);
  if (out.format == CompressedFormat::PackQuantized) {
    EREDU_TRY(dtype, config.dtype());
    out.scale_dtype = dtype;
  }
  return std::optional<CompressedTensorsQuantization>{std::move(out)};
}

namespace {

Result<PhysicalLinear> packed_linear(const CompressedTensorsQuantization& quantization,
                                     const std::string& module, std::uint64_t out,
                                     std::uint64_t in) {
  const std::uint64_t bits = quantization.bits;
  const bool grouped = quantization.strategy == CompressedStrategy::Group;
  const std::uint64_t group = grouped ? quantization.group_size : in;
  if (in % group != 0) {
    return failf(Status::InvalidTensor,
                 "{}: compressed-tensors group_size {} does not divide input width {}", module,
                 group, in);
  }
  const std::optional<std::uint64_t> in_words = packed_words(in, bits);
  if (!in_words) {
    return failf(Status::InvalidTensor,
                 "{}: compressed-tensors {}-bit input width {} does not fill whole 32-bit words",
                 module, bits, in);
  }
  // Group scales follow the input axis; a channel's [out, 1] stays whole
  // on a row split, as vLLM's ChannelQuantScaleParameter does.
  const AxisRule scale_in = grouped ? AxisRule{1, 1, group} : AxisRule{};
  const std::uint64_t scale_columns = grouped ? in / group : 1;
  PhysicalLinear linear;
  linear.members.push_back({"weight_packed", {out, *in_words}, Dtype::I32, {0}, {1, bits, 32}});
  linear.members.push_back(
      {"weight_scale", {out, scale_columns}, quantization.scale_dtype, {0}, scale_in});
  linear.members.push_back({"weight_shape", {2}, Dtype::I64, {}, {}});
  if (!quantization.symmetric) {
    const std::optional<std::uint64_t> out_words = packed_words(out, bits);
    if (!out_words) {
      return failf(Status::InvalidTensor,
                   "{}: compressed-tensors {}-bit zero points of output width {} do not fill "
                   "whole 32-bit words",
                   module, bits, out);
    }
    linear.members.push_back(
        {"weight_zero_point", {*out_words, scale_columns}, Dtype::I32, {0, bits, 32}, scale_in});
  }
  if (quantization.act_order) {
    linear.members.push_back({"weight_g_idx", {in}, Dtype::I32, {}, {0}});
    linear.row_split_cuts_groups = grouped;
  }
  return linear;
}

PhysicalLinear fp8_linear(const CompressedTensorsQuantization& quantization, std::uint64_t out,
                          std::uint64_t in, bool input_scale) {
  PhysicalLinear linear;
  linear.members.push_back({"weight", {out, in}, Dtype::F8E4M3, {0}, {1}});
  if (quantization.strategy == CompressedStrategy::Channel) {
    linear.members.push_back({"weight_scale", {out, 1}, Dtype::F32, {0}, {}});
  } else {
    linear.members.push_back({"weight_scale", {1}, Dtype::F32, {}, {}});
  }
  if (input_scale) linear.members.push_back({"input_scale", {1}, Dtype::F32, {}, {}});
  return linear;
}

}  // namespace

Result<std::vector<ParameterGroupSpec>> expand_compressed_tensors_groups(
    std::vector<ParameterGroupSpec> groups, const CompressedTensorsQuantization& quantization,
    const WeightIndex& index) {
  const bool packed = quantization.format == CompressedFormat::PackQuantized;
  return expand_physical_linears(
      std::move(groups), kName,
      [&](const std::string& module,
          const ParameterMemberSpec& dense) -> Result<std::optional<PhysicalLinear>> {
        const bool ignored = std::find(quantization.ignore.begin(), quantization.ignore.end(),
                                       module) != quantization.ignore.end();
        const bool partitioned = dense.sharding().is_partitioned();
        if (ignored ||
            !index.contains(module + (packed ? ".weight_packed" : ".weight_scale"), partitioned)) {
          return std::optional<PhysicalLinear>{};
        }
        const std::uint64_t out = dense.global_shape()[0];
        const std::uint64_t in = dense.global_shape()[1];
        if (packed) {
          EREDU_TRY(linear, packed_linear(quantization, module, out, in));
          return std::optional<PhysicalLinear>{std::move(linear)};
        }
        const bool input_scale =
            index.contains(module + ".input_scale", quantization.static_input_scale);
        return std::optional<PhysicalLinear>{fp8_linear(quantization, out, in, input_scale)};
      });
}

}  // namespace eredu
