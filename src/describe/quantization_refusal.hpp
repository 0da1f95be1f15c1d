// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The quantized checkpoints a family describer does not handle, refused with
// the name users know them by (docs/describe.md).
#pragma once

#include <optional>
#include <string>

#include "core/result.hpp"
#include "describe/config_fields.hpp"

namespace eredu {

/// How a `quantization_config` object reads in a message: "bitsandbytes int8
/// (LLM.int8) quantization", "bitsandbytes 4-bit quantization", "\"fp8\"
/// quantization (quantization_config.quant_method)", or the object itself
/// when it has no quant_method.
std::string quantization_label(const nlohmann::json& quantization_config);

/// `text` with its ASCII letters lowered: quantization words (quant_method,
/// checkpoint_format, version) are matched case-insensitively, as vLLM does.
std::string ascii_lowered(std::string text);

/// config.json's `quantization_config.quant_method`, lowered, when
/// `quantization_config` is an object with a string quant_method; nullopt
/// otherwise (absent, another type, no method: refuse_quantization_config
/// names those).
std::optional<std::string> quantization_method(const ConfigFields& config);

/// UnsupportedModel when config.json has a `quantization_config`, naming it
/// (`<file>: <label> is not supported`); success otherwise.
Result<void> refuse_quantization_config(const ConfigFields& config);

/// UnsupportedModel when config.json has an MLX `quantization` object
/// (`<file>: MLX quantized checkpoint (quantization {...}) is not supported
/// for model_type "<type>"`); success otherwise.
Result<void> refuse_mlx_quantization(const ConfigFields& config, const std::string& model_type);

}  // namespace eredu
