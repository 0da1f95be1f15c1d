// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "describe/mlx_quantization.hpp"

#include <limits>
#include <string_view>

#include "core/text.hpp"
#include "describe/physical_linear.hpp"
#include "describe/quantization_refusal.hpp"
#include "model/expand.hpp"

namespace eredu {
namespace {

using nlohmann::json;

// A positive int32 of an MLX quantization object, or `fallback` when absent.
Result<std::int32_t> quantization_count(const json& object, const char* key,
                                        std::optional<std::int32_t> fallback,
                                        const std::string& where) {
  auto it = object.find(key);
  if (it == object.end() || it->is_null()) {
    if (fallback) return *fallback;
    return failf(Status::Parse, "{}: required field {} is missing", where, key);
  }
  if (!it->is_number_unsigned() || it->get<std::uint64_t>() == 0 ||
      it->get<std::uint64_t>() >
          static_cast<std::uint64_t>(std::numeric_limits<std::int32_t>::max())) {
    return failf(Status::Parse, "{}: {} must be a positive integer that fits 32 bits, got {}",
                 where, key, shown_count(*it));
  }
  return static_cast<std::int32_t>(it->get<std::uint64_t>());
}

// group_size / bits / mode of `object`, defaulting to `defaults`.
Result<AffineQuantization> read_affine(const json& object,
                                       const std::optional<AffineQuantization>& defaults,
                                       const std::string& where) {
  auto mode = object.find("mode");
  if (mode != object.end() && !mode->is_null() &&
      !(mode->is_string() && mode->get<std::string>() == "affine")) {
    return failf(Status::UnsupportedModel,
                 "{}: MLX quantization mode {} is not supported; supported: \"affine\"", where,
                 mode->dump());
  }
  std::optional<std::int32_t> group;
  std::optional<std::int32_t> bits;
  if (defaults) {
    group = defaults->group_size;
    bits = defaults->bits;
  }
  EREDU_TRY(group_size, quantization_count(object, "group_size", group, where));
  EREDU_TRY(bit_width, quantization_count(object, "bits", bits, where));
  auto affine = AffineQuantization::create(group_size, bit_width);
  if (!affine) {
    return failf(Status::InvalidFormat, "{}: {}", where, affine.error().message);
  }
  return affine.value();
}

bool is_parameter_key(std::string_view key) {
  return key == "group_size" || key == "bits" || key == "mode";
}

}  // namespace

Result<std::optional<MlxQuantization>> read_mlx_quantization(const ConfigFields& config) {
  const json* quantization = config.field("quantization");
  if (quantization == nullptr) return std::optional<MlxQuantization>{};
  const std::string where = config.file() + ": quantization";
  if (!quantization->is_object()) {
    return failf(Status::Parse, "{} must be an object, got {}", where, quantization->dump());
  }
  if (const json* copy = config.field("quantization_config");
      copy != nullptr && *copy != *quantization) {
    return failf(Status::UnsupportedModel,
                 "{}: {} next to the MLX quantization {} is not supported", config.file(),
                 quantization_label(*copy), quantization->dump());
  }
  MlxQuantization out;
  EREDU_TRY(defaults, read_affine(*quantization, std::nullopt, where));
  out.defaults = defaults;
  for (const auto& [key, value] : quantization->items()) {
    if (is_parameter_key(key)) continue;
    const std::string module_where = fmt::format("{} of {}", where, debug_quoted(key));
    if (value.is_boolean()) {
      out.modules.emplace(key, value.get<bool>() ? std::optional(defaults) : std::nullopt);
    } else if (value.is_object()) {
      EREDU_TRY(affine, read_affine(value, defaults, module_where));
      out.modules.emplace(key, affine);
    } else {
      return failf(Status::Parse, "{} must be an object or a boolean, got {}", module_where,
                   value.dump());
    }
  }
  EREDU_TRY(dtype, config.dtype());
  out.companion_dtype = dtype;
  return std::optional<MlxQuantization>{std::move(out)};
}

Result<std::vector<ParameterGroupSpec>> expand_mlx_groups(std::vector<ParameterGroupSpec> groups,
                                                          const MlxQuantization& quantization,
                                                          const WeightIndex& index) {
  auto declaration =
      [&](const ParameterMemberSpec& member) -> Result<std::optional<LinearFormatSpec>> {
    const std::optional<std::string> module = weight_module(member.target());
    if (!module || member.global_shape().size() < 2 || !index.contains(*module + ".scales", true)) {
      return std::optional<LinearFormatSpec>{};
    }
    AffineQuantization affine = quantization.defaults;
    if (auto entry = quantization.modules.find(*module); entry != quantization.modules.end()) {
      if (!entry->second) return std::optional<LinearFormatSpec>{};
      affine = *entry->second;
    }
    EREDU_TRY(spec, LinearFormatSpec::affine(LinearFormat::affine(affine), *module + ".scales",
                                             *module + ".biases", quantization.companion_dtype));
    return std::optional<LinearFormatSpec>{std::move(spec)};
  };
  return expand_linear_format_parameter_groups(std::move(groups), declaration);
}

}  // namespace eredu
