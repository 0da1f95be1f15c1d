// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The families described by a recipe table alone (recipes.cpp).
#pragma once

#include <span>
#include <string_view>

#include "describe/recipe.hpp"

namespace eredu {

/// Which quantized checkpoints a family reads: an MLX `quantization`, or a
/// GPTQ / AWQ `quantization_config` (gptq_quantization.hpp), expanded over
/// its plain two-axis linear weights (any other `quantization_config`
/// refused), its own `quantization_config` (gpt_oss,
/// DeepSeek), or none (both refused).
enum class Quantization { Mlx, Own, None };

/// A model_type described by a recipe, the quantization it reads, and the
/// transformers configuration class whose defaults fill what config.json
/// omits (config_defaults.hpp): its name and version, and the defaults as a
/// JSON object.
struct RecipeFamily {
  std::string_view model_type;
  const recipe::Family* family;
  Quantization quantization;
  std::string_view defaults_class;
  std::string_view defaults;
};

/// Every recipe family, in the order `supported` lists them after the
/// families of their own code.
std::span<const RecipeFamily> recipe_families();

}  // namespace eredu
