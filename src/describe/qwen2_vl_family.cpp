// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "describe/qwen2_vl_family.hpp"

#include <fmt/format.h>

#include <string>
#include <utility>
#include <vector>

#include "describe/decoder_config.hpp"
#include "describe/llama_family.hpp"
#include "model/projection.hpp"

namespace eredu {
namespace {

// The vision tower's shapes, from vision_config.
struct VisionConfig {
  std::uint64_t depth = 0;     // blocks
  std::uint64_t embed = 0;     // embed_dim
  std::uint64_t heads = 0;     // num_heads
  std::uint64_t qkv_rows = 0;  // 3 × embed_dim
  std::uint64_t mlp = 0;       // embed_dim × mlp_ratio
  std::uint64_t merged = 0;    // embed_dim × spatial_merge_size²: the merger's width
  std::uint64_t output = 0;    // hidden_size: the merger's output, the language model's width
  std::vector<std::uint64_t> patch_shape;  // [embed_dim, in_chans, temporal, patch, patch]
  Dtype dtype = Dtype::F32;
};

Result<VisionConfig> read_vision_config(const ConfigFields& fields, Dtype dtype) {
  EREDU_TRY(vision, fields.section("vision_config"));
  EREDU_TRY(depth, vision.required_count("depth"));
  EREDU_TRY(embed, vision.required_count("embed_dim"));
  EREDU_TRY(heads, vision.required_count("num_heads"));
  EREDU_TRY(ratio, vision.required_count("mlp_ratio"));
  EREDU_TRY(output, vision.required_count("hidden_size"));
  EREDU_TRY(in_chans, vision.optional_count("in_chans"));
  EREDU_TRY(in_channels, vision.optional_count("in_channels"));
  EREDU_TRY(patch, vision.required_count("patch_size"));
  EREDU_TRY(temporal, vision.required_count("temporal_patch_size"));
  EREDU_TRY(merge, vision.required_count("spatial_merge_size"));
  if (embed % heads != 0) {
    return failf(Status::Parse, "{}: embed_dim {} is not divisible by num_heads {}", vision.file(),
                 embed, heads);
  }
  EREDU_TRY(qkv_rows, vision.product("qkv rows", {3, embed}));
  EREDU_TRY(mlp, vision.product("embed_dim × mlp_ratio", {embed, ratio}));
  EREDU_TRY(merged, vision.product("embed_dim × spatial_merge_size²", {embed, merge, merge}));
  const std::uint64_t channels = in_chans.value_or(in_channels.value_or(3));
  return VisionConfig{depth, embed,  heads,  qkv_rows,
                      mlp,   merged, output, {embed, channels, temporal, patch, patch},
                      dtype};
}

Result<ParameterGroupSpec> patch_embed_group(const VisionConfig& config) {
  Members members(config.dtype);
  members.add("visual.patch_embed.proj.weight", config.patch_shape, MemberSharding::replicated());
  return ParameterGroupSpec::create("visual.patch_embed", ParameterRole::Replicated, members.take(),
                                    GroupScope::embedding());
}

// The fused qkv is component-major ([3, heads, head_dim] rows, as Qwen2-VL
// splits it); vLLM gives each rank its heads of each of q, k and v (its
// loader regroups the rows per head before a column-parallel split, or its
// QKVParallelLinear reads the segments), so a segmented projection.
Result<ParameterGroupSpec> block_attention_group(const VisionConfig& config,
                                                 const WeightIndex& index,
                                                 const std::string& prefix) {
  const std::string attn = prefix + "attn.";
  ProjectionModule qkv = {{attn + "qkv.weight", {config.qkv_rows, config.embed}, config.dtype}};
  if (index.contains(attn + "qkv.bias", true)) {
    qkv.push_back({attn + "qkv.bias", {config.qkv_rows}, config.dtype});
  }
  ProjectionModule proj = {{attn + "proj.weight", {config.embed, config.embed}, config.dtype}};
  if (index.contains(attn + "proj.bias", true)) {
    proj.push_back({attn + "proj.bias", {config.embed}, config.dtype});
  }
  const std::uint64_t e = config.embed;
  return segmented_projection_group(
      prefix + "attn", ParameterRole::AttentionHeads, qkv, proj,
      {IndexRange{0, e}, IndexRange{e, 2 * e}, IndexRange{2 * e, config.qkv_rows}}, config.heads,
      GroupScope::embedding());
}

Result<ParameterGroupSpec> block_norms_group(const VisionConfig& config,
                                             const std::string& prefix) {
  Members members(config.dtype);
  for (const char* norm : {"norm1", "norm2"}) {
    for (const char* part : {".weight", ".bias"}) {
      members.add(prefix + norm + part, {config.embed}, MemberSharding::replicated());
    }
  }
  return ParameterGroupSpec::create(prefix + "norms", ParameterRole::Replicated, members.take(),
                                    GroupScope::embedding());
}

Result<ParameterGroupSpec> merger_norm_group(const VisionConfig& config) {
  Members members(config.dtype);
  members.add("visual.merger.ln_q.weight", {config.embed}, MemberSharding::replicated());
  members.add("visual.merger.ln_q.bias", {config.embed}, MemberSharding::replicated());
  return ParameterGroupSpec::create("visual.merger.ln_q", ParameterRole::Replicated, members.take(),
                                    GroupScope::embedding());
}

Result<std::vector<ParameterGroupSpec>> vision_groups(const VisionConfig& config,
                                                      const WeightIndex& index) {
  std::vector<ParameterGroupSpec> groups;
  EREDU_TRY(patch, patch_embed_group(config));
  groups.push_back(std::move(patch));
  for (std::uint64_t block = 0; block < config.depth; ++block) {
    const std::string prefix = fmt::format("visual.blocks.{}.", block);
    EREDU_TRY(attention, block_attention_group(config, index, prefix));
    groups.push_back(std::move(attention));
    EREDU_TRY(norms, block_norms_group(config, prefix));
    groups.push_back(std::move(norms));
    EREDU_TRY(mlp, column_row_group(prefix + "mlp", prefix + "mlp.fc1", prefix + "mlp.fc2",
                                    {config.embed, config.mlp, config.embed}, config.dtype,
                                    GroupScope::embedding()));
    groups.push_back(std::move(mlp));
  }
  EREDU_TRY(ln_q, merger_norm_group(config));
  groups.push_back(std::move(ln_q));
  EREDU_TRY(merger,
            column_row_group("visual.merger.mlp", "visual.merger.mlp.0", "visual.merger.mlp.2",
                             {config.merged, config.merged, config.output}, config.dtype,
                             GroupScope::embedding()));
  groups.push_back(std::move(merger));
  return groups;
}

}  // namespace

Result<FamilyGroups> describe_qwen2_vl(const ConfigFields& fields, const WeightIndex& index) {
  EREDU_TRY(dtype, fields.dtype());
  EREDU_TRY(config, read_decoder_config(fields, dtype));
  EREDU_TRY(vision, read_vision_config(fields, dtype));
  EREDU_TRY(check_layer_count(config.num_hidden_layers, index.file, index.tensor_bound()));
  EREDU_TRY(rows, attention_rows(fields, config));
  // Each vision block has tensors of its own: a depth past the index's
  // tensor count cannot match it (and bounds the work).
  if (vision.depth > index.tensor_bound()) {
    return failf(Status::CheckpointMismatch,
                 "config.json vision_config declares {} blocks but {} lists only {} tensors",
                 vision.depth, index.file, index.tensor_bound());
  }
  EREDU_TRY(visual, vision_groups(vision, index));
  return decoder_groups(
      decoder_outline(config, index),
      [&](const std::string& prefix, GroupScope scope) -> Result<std::vector<ParameterGroupSpec>> {
        EREDU_TRY(attention, llama_attention_group(config, index, rows, prefix, scope));
        EREDU_TRY(norms, llama_norms_group(config, index, prefix, scope));
        EREDU_TRY(mlp, llama_mlp_group(config, prefix, scope));
        return std::vector{std::move(attention), std::move(norms), std::move(mlp)};
      },
      DecoderExtras{std::move(visual), std::nullopt});
}

}  // namespace eredu
