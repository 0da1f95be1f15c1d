// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The one engine that reads a model folder through a recipe (recipe.hpp).
#pragma once

#include "checkpoint/weight_index.hpp"
#include "core/result.hpp"
#include "describe/config_fields.hpp"
#include "describe/family.hpp"
#include "describe/recipe.hpp"

namespace eredu {

/// The groups of the decoder `family` describes: `embed`, then every layer's
/// groups in the recipe's order, then `head` (docs/describe.md, "Recipes").
/// Reads the recipe's keys from `config` (the dtype first). Errors: Parse
/// for a missing or non-positive size, a non-boolean flag, hidden_size not
/// divisible by the heads without head_dim, a product of sizes past 64 bits
/// (named like "num_attention_heads × head_dim"); UnsupportedModel for the
/// dtype; CheckpointMismatch for more layers than index tensors.
Result<FamilyGroups> describe_recipe(const recipe::Family& family, const ConfigFields& config,
                                     const WeightIndex& index);

}  // namespace eredu
