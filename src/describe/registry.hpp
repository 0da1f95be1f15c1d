// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The one list of supported model types: the recipe families
// (recipes.hpp) and the families with code of their own. The error message
// of an unknown model_type, the C API's list and the documentation's table
// (checked by a test) all come from it.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "checkpoint/weight_index.hpp"
#include "core/result.hpp"
#include "describe/config_fields.hpp"
#include "describe/family.hpp"
#include "describe/recipes.hpp"

namespace eredu {

/// A supported model_type: a recipe or a describer of its own (exactly one
/// is set), the quantization it reads and its config defaults (as
/// RecipeFamily). `supported` is false for a model_type that is recognized
/// only to be refused with a reason (deepseek_vl_v2).
struct FamilyEntry {
  std::string_view model_type;
  const recipe::Family* recipe = nullptr;
  FamilyDescriber describe = nullptr;
  Quantization quantization = Quantization::None;
  std::string_view defaults_class;
  std::string_view defaults;
  bool supported = true;
};

/// Every entry, recipe families first, in the order of docs/describe.md's
/// table. Lives as long as the program.
std::span<const FamilyEntry> family_entries();

/// The entry of config.json's model_type. Errors: UnsupportedModel when it
/// is absent, not a string or not in the registry, listing
/// supported_model_types().
Result<const FamilyEntry*> find_family(const ConfigFields& config);

/// The supported model types, comma-separated, in registry order (recipe
/// families first). The string lives as long as the program.
const std::string& supported_model_types();

/// The groups `entry` describes for `config` and `index`.
Result<FamilyGroups> describe_family(const FamilyEntry& entry, const ConfigFields& config,
                                     const WeightIndex& index);

}  // namespace eredu
