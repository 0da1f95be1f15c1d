// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "describe/gemma3_family.hpp"

#include <fmt/format.h>

#include <string>
#include <utility>
#include <vector>

#include "describe/decoder_config.hpp"
#include "describe/llama_family.hpp"

namespace eredu {
namespace {

constexpr const char* kVision = "vision_tower.vision_model.";

// The SigLIP vision tower's shapes, from vision_config.
struct SiglipConfig {
  std::uint64_t hidden = 0;
  std::uint64_t intermediate = 0;
  std::uint64_t heads = 0;
  std::uint64_t layers = 0;
  std::uint64_t positions = 0;             // (image_size / patch_size)²
  std::vector<std::uint64_t> patch_shape;  // [hidden, num_channels, patch, patch]
  Dtype dtype = Dtype::F32;
};

Result<SiglipConfig> read_siglip_config(const ConfigFields& fields, Dtype dtype) {
  EREDU_TRY(vision, fields.section("vision_config"));
  EREDU_TRY(hidden, vision.required_count("hidden_size"));
  EREDU_TRY(intermediate, vision.required_count("intermediate_size"));
  EREDU_TRY(heads, vision.required_count("num_attention_heads"));
  EREDU_TRY(layers, vision.required_count("num_hidden_layers"));
  EREDU_TRY(image, vision.required_count("image_size"));
  EREDU_TRY(patch, vision.required_count("patch_size"));
  EREDU_TRY(channels, vision.optional_count("num_channels"));
  if (hidden % heads != 0) {
    return failf(Status::Parse, "{}: hidden_size {} is not divisible by num_attention_heads {}",
                 vision.file(), hidden, heads);
  }
  EREDU_TRY(positions,
            vision.product("(image_size / patch_size)²", {image / patch, image / patch}));
  return SiglipConfig{hidden, intermediate, heads,
                      layers, positions,    {hidden, channels.value_or(3), patch, patch},
                      dtype};
}

Result<ParameterGroupSpec> embeddings_group(const SiglipConfig& config) {
  const std::string prefix = std::string(kVision) + "embeddings.";
  Members members(config.dtype);
  members.add(prefix + "patch_embedding.weight", config.patch_shape, MemberSharding::replicated());
  members.add(prefix + "patch_embedding.bias", {config.hidden}, MemberSharding::replicated());
  members.add(prefix + "position_embedding.weight", {config.positions, config.hidden},
              MemberSharding::replicated());
  return ParameterGroupSpec::create(std::string(kVision) + "embeddings", ParameterRole::Replicated,
                                    members.take(), GroupScope::embedding());
}

// vLLM fuses q, k and v into a QKVParallelLinear and splits them by heads,
// out_proj by the same heads' columns; the checkpoint keeps them apart.
Result<ParameterGroupSpec> siglip_attention_group(const SiglipConfig& config,
                                                  const WeightIndex& index,
                                                  const std::string& prefix) {
  const std::string attn = prefix + "self_attn.";
  const std::uint64_t h = config.hidden;
  Members members(config.dtype);
  for (const char* name : {"q_proj.weight", "k_proj.weight", "v_proj.weight"}) {
    members.add(attn + name, {h, h}, MemberSharding::partitioned(0));
  }
  members.add(attn + "out_proj.weight", {h, h}, MemberSharding::partitioned(1));
  for (const char* name : {"q_proj.bias", "k_proj.bias", "v_proj.bias"}) {
    members.add_present(index, attn + name, {h}, MemberSharding::partitioned(0), true);
  }
  members.add_present(index, attn + "out_proj.bias", {h}, MemberSharding::replicated(), true);
  return ParameterGroupSpec::partitioned(prefix + "self_attn", ParameterRole::AttentionHeads,
                                         config.heads, members.take(), GroupScope::embedding());
}

// LayerNorms (weight and bias) of the vision tower, replicated.
Result<ParameterGroupSpec> layer_norms_group(const SiglipConfig& config, std::string name,
                                             const std::vector<std::string>& norms) {
  Members members(config.dtype);
  for (const std::string& norm : norms) {
    members.add(norm + ".weight", {config.hidden}, MemberSharding::replicated());
    members.add(norm + ".bias", {config.hidden}, MemberSharding::replicated());
  }
  return ParameterGroupSpec::create(std::move(name), ParameterRole::Replicated, members.take(),
                                    GroupScope::embedding());
}

// Gemma3MultiModalProjector: a plain [vision hidden, text hidden] parameter
// (multiplied from the right) and an RMSNorm, both whole on every rank as
// in vLLM.
Result<ParameterGroupSpec> projector_group(const SiglipConfig& config, std::uint64_t text_hidden) {
  Members members(config.dtype);
  members.add("multi_modal_projector.mm_input_projection_weight", {config.hidden, text_hidden},
              MemberSharding::replicated());
  members.add("multi_modal_projector.mm_soft_emb_norm.weight", {config.hidden},
              MemberSharding::replicated());
  return ParameterGroupSpec::create("multi_modal_projector", ParameterRole::Replicated,
                                    members.take(), GroupScope::embedding());
}

Result<std::vector<ParameterGroupSpec>> vision_groups(const SiglipConfig& config,
                                                      const WeightIndex& index,
                                                      std::uint64_t text_hidden) {
  std::vector<ParameterGroupSpec> groups;
  EREDU_TRY(embeddings, embeddings_group(config));
  groups.push_back(std::move(embeddings));
  for (std::uint64_t layer = 0; layer < config.layers; ++layer) {
    const std::string prefix = fmt::format("{}encoder.layers.{}.", kVision, layer);
    EREDU_TRY(attention, siglip_attention_group(config, index, prefix));
    groups.push_back(std::move(attention));
    EREDU_TRY(norms, layer_norms_group(config, prefix + "norms",
                                       {prefix + "layer_norm1", prefix + "layer_norm2"}));
    groups.push_back(std::move(norms));
    EREDU_TRY(mlp, column_row_group(prefix + "mlp", prefix + "mlp.fc1", prefix + "mlp.fc2",
                                    {config.hidden, config.intermediate, config.hidden},
                                    config.dtype, GroupScope::embedding()));
    groups.push_back(std::move(mlp));
  }
  const std::string post = std::string(kVision) + "post_layernorm";
  EREDU_TRY(post_norm, layer_norms_group(config, post, {post}));
  groups.push_back(std::move(post_norm));
  EREDU_TRY(projector, projector_group(config, text_hidden));
  groups.push_back(std::move(projector));
  return groups;
}

// Gemma 3's four layer norms (around attention and around the MLP) and the
// per-head q_norm / k_norm, all replicated.
Result<ParameterGroupSpec> gemma3_norms_group(const DecoderConfig& config,
                                              const std::string& prefix, GroupScope scope) {
  Members members(config.dtype);
  for (const char* norm : {"input_layernorm", "post_attention_layernorm",
                           "pre_feedforward_layernorm", "post_feedforward_layernorm"}) {
    members.add(prefix + norm + ".weight", {config.hidden_size}, MemberSharding::replicated());
  }
  for (const char* norm : {"self_attn.q_norm.weight", "self_attn.k_norm.weight"}) {
    members.add(prefix + norm, {config.head_dim}, MemberSharding::replicated());
  }
  return ParameterGroupSpec::create(prefix + "norms", ParameterRole::Replicated, members.take(),
                                    scope);
}

}  // namespace

Result<FamilyGroups> describe_gemma3(const ConfigFields& fields, const WeightIndex& index) {
  EREDU_TRY(text, fields.section("text_config"));
  EREDU_TRY(dtype, fields.dtype_or(text));
  EREDU_TRY(config, read_decoder_config(text, dtype));
  // Gemma ties the output head to the embedding unless told otherwise.
  EREDU_TRY(top_tied, fields.flag("tie_word_embeddings", true));
  EREDU_TRY(tied, text.flag("tie_word_embeddings", top_tied));
  config.tie_word_embeddings = tied;
  EREDU_TRY(vision, read_siglip_config(fields, dtype));
  EREDU_TRY(check_layer_count(config.num_hidden_layers, index.file, index.tensor_bound()));
  if (vision.layers > index.tensor_bound()) {
    return failf(Status::CheckpointMismatch,
                 "config.json vision_config declares {} layers but {} lists only {} tensors",
                 vision.layers, index.file, index.tensor_bound());
  }
  EREDU_TRY(rows, attention_rows(text, config));
  EREDU_TRY(visual, vision_groups(vision, index, config.hidden_size));
  const DecoderOutline outline = decoder_outline(config, index, "language_model.");
  return decoder_groups(
      outline,
      [&](const std::string& prefix, GroupScope scope) -> Result<std::vector<ParameterGroupSpec>> {
        EREDU_TRY(attention, llama_attention_group(config, index, rows, prefix, scope));
        EREDU_TRY(norms, gemma3_norms_group(config, prefix, scope));
        EREDU_TRY(mlp, llama_mlp_group(config, prefix, scope));
        return std::vector{std::move(attention), std::move(norms), std::move(mlp)};
      },
      DecoderExtras{std::move(visual), std::nullopt});
}

}  // namespace eredu
