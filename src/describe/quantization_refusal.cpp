// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "describe/quantization_refusal.hpp"

#include <cctype>

#include "core/text.hpp"

namespace eredu {

using nlohmann::json;

std::string quantization_label(const json& quantization_config) {
  auto method = quantization_config.find("quant_method");
  if (method == quantization_config.end() || !method->is_string()) {
    return fmt::format("quantization_config {}", quantization_config.dump());
  }
  const std::string name = method->get<std::string>();
  if (name == "bitsandbytes") {
    auto int8 = quantization_config.find("load_in_8bit");
    const bool eight_bit =
        int8 != quantization_config.end() && int8->is_boolean() && int8->get<bool>();
    return eight_bit ? "bitsandbytes int8 (LLM.int8) quantization"
                     : "bitsandbytes 4-bit quantization";
  }
  return fmt::format("{} quantization (quantization_config.quant_method)", debug_quoted(name));
}

std::string ascii_lowered(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

std::optional<std::string> quantization_method(const ConfigFields& config) {
  const json* object = config.field("quantization_config");
  if (object == nullptr || !object->is_object()) return std::nullopt;
  auto method = object->find("quant_method");
  if (method == object->end() || !method->is_string()) return std::nullopt;
  return ascii_lowered(method->get<std::string>());
}

Result<void> refuse_quantization_config(const ConfigFields& config) {
  if (const json* quantization = config.field("quantization_config")) {
    return failf(Status::UnsupportedModel, "{}: {} is not supported", config.file(),
                 quantization_label(*quantization));
  }
  return outcome::success();
}

Result<void> refuse_mlx_quantization(const ConfigFields& config, const std::string& model_type) {
  if (const json* mlx = config.field("quantization")) {
    return failf(
        Status::UnsupportedModel,
        "{}: MLX quantized checkpoint (quantization {}) is not supported for model_type {}",
        config.file(), mlx->dump(), debug_quoted(model_type));
  }
  return outcome::success();
}

}  // namespace eredu
