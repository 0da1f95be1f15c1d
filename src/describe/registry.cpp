// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "describe/registry.hpp"

#include <array>
#include <vector>

#include "core/text.hpp"
#include "describe/deepseek_family.hpp"
#include "describe/falcon_family.hpp"
#include "describe/gemma3_family.hpp"
#include "describe/gpt_neox_family.hpp"
#include "describe/gpt_oss_family.hpp"
#include "describe/qwen2_vl_family.hpp"
#include "describe/qwen_family.hpp"
#include "describe/qwen_moe_family.hpp"
#include "describe/recipe_engine.hpp"

namespace eredu {
namespace {

constexpr FamilyEntry coded(std::string_view model_type, FamilyDescriber describe,
                            Quantization quantization) {
  return FamilyEntry{model_type, nullptr, describe, quantization, {}, {}, true};
}

// Qwen2VLVisionConfig's defaults (transformers 4.57,
// models/qwen2_vl/configuration_qwen2_vl.py): the upstream Qwen2-VL
// configurations give vision_config as little more than its model_type.
constexpr std::string_view kQwen2VlDefaults = R"({"vision_config": {
  "depth": 32, "embed_dim": 1280, "hidden_size": 3584, "mlp_ratio": 4, "num_heads": 16,
  "in_channels": 3, "patch_size": 14, "spatial_merge_size": 2, "temporal_patch_size": 2}})";

// The families with code of their own, after the recipe families.
const std::array<FamilyEntry, 15> kCoded = {{
    coded("falcon", describe_falcon, Quantization::Mlx),
    coded("gpt_oss", describe_gpt_oss, Quantization::Own),
    coded("qwen2_moe", describe_qwen2_moe, Quantization::Mlx),
    coded("qwen3_moe", describe_qwen3_moe, Quantization::Mlx),
    coded("qwen3_5_moe", describe_qwen3_5_moe, Quantization::Mlx),
    coded("qwen3_5_moe_text", describe_qwen3_5_moe, Quantization::Mlx),
    coded("gpt_neox", describe_gpt_neox, Quantization::None),
    coded("gpt_neox_reward_model", describe_gpt_neox_reward_model, Quantization::None),
    coded("qwen", describe_qwen, Quantization::None),
    FamilyEntry{"qwen2_vl", nullptr, describe_qwen2_vl, Quantization::None,
                "Qwen2VLVisionConfig (transformers 4.57)", kQwen2VlDefaults, true},
    coded("gemma3", describe_gemma3, Quantization::None),
    coded("deepseek_v2", describe_deepseek, Quantization::Own),
    coded("deepseek_v3", describe_deepseek, Quantization::Own),
    coded("mistral3", describe_mistral3, Quantization::Mlx),
    // Refused, naming the tensors config.json cannot size.
    FamilyEntry{
        "deepseek_vl_v2", nullptr, refuse_deepseek_vl_v2, Quantization::None, {}, {}, false},
}};

const std::vector<FamilyEntry>& registry() {
  static const std::vector<FamilyEntry> entries = [] {
    std::vector<FamilyEntry> out;
    for (const RecipeFamily& family : recipe_families()) {
      out.push_back(FamilyEntry{family.model_type, family.family, nullptr, family.quantization,
                                family.defaults_class, family.defaults, true});
    }
    out.insert(out.end(), kCoded.begin(), kCoded.end());
    return out;
  }();
  return entries;
}

}  // namespace

std::span<const FamilyEntry> family_entries() { return registry(); }

const std::string& supported_model_types() {
  static const std::string list = [] {
    std::string out;
    for (const FamilyEntry& entry : registry()) {
      if (!entry.supported) continue;
      if (!out.empty()) out += ", ";
      out += entry.model_type;
    }
    return out;
  }();
  return list;
}

Result<const FamilyEntry*> find_family(const ConfigFields& config) {
  const nlohmann::json* type = config.field("model_type");
  if (type == nullptr || !type->is_string()) {
    return failf(Status::UnsupportedModel, "{}: no model_type; supported: {}", config.file(),
                 supported_model_types());
  }
  const std::string name = type->get<std::string>();
  for (const FamilyEntry& entry : registry()) {
    if (entry.model_type == name) return &entry;
  }
  return failf(Status::UnsupportedModel, "{}: model_type {} is not supported; supported: {}",
               config.file(), debug_quoted(name), supported_model_types());
}

Result<FamilyGroups> describe_family(const FamilyEntry& entry, const ConfigFields& config,
                                     const WeightIndex& index) {
  if (entry.recipe != nullptr) return describe_recipe(*entry.recipe, config, index);
  return entry.describe(config, index);
}

}  // namespace eredu
