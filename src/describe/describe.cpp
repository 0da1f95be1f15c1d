// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "describe/describe.hpp"

#include <array>
#include <filesystem>
#include <optional>
#include <string_view>
#include <utility>

#include "checkpoint/open.hpp"
#include "core/text.hpp"
#include "describe/checkpoint_check.hpp"
#include "describe/checkpoint_headers.hpp"
#include "describe/deepseek_family.hpp"
#include "describe/falcon_family.hpp"
#include "describe/gemma3_family.hpp"
#include "describe/gguf_describe.hpp"
#include "describe/gpt_neox_family.hpp"
#include "describe/gpt_oss_family.hpp"
#include "describe/granitemoe_family.hpp"
#include "describe/json_file.hpp"
#include "describe/llama_family.hpp"
#include "describe/mixtral_family.hpp"
#include "describe/mlx_quantization.hpp"
#include "describe/phi3_family.hpp"
#include "describe/quantization_refusal.hpp"
#include "describe/qwen2_vl_family.hpp"
#include "describe/qwen_family.hpp"
#include "describe/qwen_moe_family.hpp"
#include "describe/weight_index.hpp"
#include "model/vocab_padding.hpp"

namespace eredu {
namespace {

// Which quantized checkpoints a family reads: an MLX `quantization` expanded
// over its plain two-axis linear weights (any `quantization_config` refused),
// its own `quantization_config` (gpt_oss), or none (both refused).
enum class Quantization { Mlx, Own, None };

// A supported model_type, its describer and the quantization it reads.
struct Family {
  std::string_view model_type;
  FamilyDescriber describe;
  Quantization quantization;
};

constexpr std::array<Family, 21> kFamilies = {{
    {"llama", describe_llama, Quantization::Mlx},
    {"mistral", describe_llama, Quantization::Mlx},
    {"qwen2", describe_llama, Quantization::Mlx},
    {"qwen3", describe_llama, Quantization::Mlx},
    {"phi3", describe_phi3, Quantization::Mlx},
    {"falcon", describe_falcon, Quantization::Mlx},
    {"gpt_oss", describe_gpt_oss, Quantization::Own},
    {"mixtral", describe_mixtral, Quantization::Mlx},
    {"qwen2_moe", describe_qwen2_moe, Quantization::Mlx},
    {"qwen3_moe", describe_qwen3_moe, Quantization::Mlx},
    {"qwen3_5_moe", describe_qwen3_5_moe, Quantization::Mlx},
    {"qwen3_5_moe_text", describe_qwen3_5_moe, Quantization::Mlx},
    {"gpt_neox", describe_gpt_neox, Quantization::None},
    {"gpt_neox_reward_model", describe_gpt_neox_reward_model, Quantization::None},
    {"qwen", describe_qwen, Quantization::None},
    {"qwen2_vl", describe_qwen2_vl, Quantization::None},
    {"gemma3", describe_gemma3, Quantization::None},
    {"granitemoe", describe_granitemoe, Quantization::None},
    {"deepseek_v2", describe_deepseek, Quantization::Own},
    {"deepseek_v3", describe_deepseek, Quantization::Own},
    // Refused, naming the tensors config.json cannot size; not in kSupported.
    {"deepseek_vl_v2", refuse_deepseek_vl_v2, Quantization::None},
}};

constexpr std::string_view kSupported =
    "llama, mistral, qwen2, qwen3, phi3, falcon, gpt_oss, mixtral, qwen2_moe, qwen3_moe, "
    "qwen3_5_moe, qwen3_5_moe_text, gpt_neox, gpt_neox_reward_model, qwen, qwen2_vl, gemma3, "
    "granitemoe, deepseek_v2, deepseek_v3";

Result<const Family*> find_family(const ConfigFields& config) {
  const nlohmann::json* type = config.field("model_type");
  if (type == nullptr || !type->is_string()) {
    return failf(Status::UnsupportedModel, "{}: no model_type; supported: {}", config.file(),
                 kSupported);
  }
  const std::string name = type->get<std::string>();
  for (const Family& family : kFamilies) {
    if (family.model_type == name) return &family;
  }
  return failf(Status::UnsupportedModel, "{}: model_type {} is not supported; supported: {}",
               config.file(), debug_quoted(name), kSupported);
}

// "models/qwen3-1.7b/" and "." name the folder itself, not "" or ".".
std::string folder_name(const std::string& dir) {
  std::error_code ignored;
  std::filesystem::path path = std::filesystem::absolute(dir, ignored).lexically_normal();
  if (path.filename().empty()) path = path.parent_path();
  return path.filename().string();
}

}  // namespace

Result<std::shared_ptr<const ModelDescription>> describe_model_dir(const std::string& dir,
                                                                   const DescribeOptions& options) {
  const std::string file = dir + "/config.json";
  EREDU_TRY(document, read_json_file(file));
  if (!document.is_object()) return failf(Status::Parse, "{}: not a JSON object", file);
  const ConfigFields config(document, dir);
  EREDU_TRY(family, find_family(config));
  std::optional<MlxQuantization> mlx;
  if (family->quantization == Quantization::Mlx) {
    EREDU_TRY(read, read_mlx_quantization(config));
    mlx = std::move(read);
    if (!mlx) {
      EREDU_TRY(refuse_quantization_config(config));
    }
  } else {
    EREDU_TRY(refuse_mlx_quantization(config, std::string(family->model_type)));
    if (family->quantization == Quantization::None) {
      EREDU_TRY(refuse_quantization_config(config));
    }
  }
  // The shards' headers, when they are on disk; a folder of metadata only
  // is checked against its index alone.
  std::optional<Checkpoint> checkpoint;
  if (!options.config_only) {
    EREDU_TRY(opened, open_folder_checkpoint(dir));
    checkpoint = std::move(opened);
  }
  WeightIndex index = config_only_index();
  if (checkpoint && !has_weight_index(dir)) {
    index = index_from_checkpoint(*checkpoint, "model.safetensors");
  } else if (!options.config_only) {
    EREDU_TRY(read, read_weight_index(dir));
    index = std::move(read);
  }
  EREDU_TRY(described, family->describe(config, index));
  if (checkpoint) {
    EREDU_TRY(typed, adopt_stored_dtypes(std::move(described.groups), *checkpoint));
    described.groups = std::move(typed);
  }
  const std::string name = folder_name(dir);
  std::vector<ParameterGroupSpec> groups = std::move(described.groups);
  if (mlx) {
    EREDU_TRY(expanded, expand_mlx_groups(std::move(groups), *mlx, index));
    groups = std::move(expanded);
  }
  EREDU_TRY(builder, ModelBuilder::create(ModelInfo{name, described.layers, described.experts}));
  for (ParameterGroupSpec& group : groups) {
    EREDU_TRY(builder.add_group(std::move(group)));
  }
  EREDU_TRY(model, std::move(builder).finish());
  if (!options.config_only) {
    EREDU_TRY(check_checkpoint(*model, index));
  }
  if (checkpoint) {
    EREDU_TRY(check_stored_shapes(*model, *checkpoint));
  }
  if (options.vocab_pad_multiple) return pad_vocabulary(*model, *options.vocab_pad_multiple);
  return model;
}

Result<std::shared_ptr<const ModelDescription>> describe_model(const std::string& path,
                                                               const DescribeOptions& options) {
  std::error_code ignored;
  if (std::filesystem::is_regular_file(path, ignored)) {
    if (is_gguf_file(path)) return describe_gguf(path, options);
    return failf(Status::Parse,
                 "{}: not a GGUF file (it does not start with \"GGUF\") and not a model folder",
                 path);
  }
  return describe_model_dir(path, options);
}

}  // namespace eredu
