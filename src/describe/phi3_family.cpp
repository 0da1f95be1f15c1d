// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "describe/phi3_family.hpp"

#include <string>
#include <utility>
#include <vector>

#include "describe/decoder_config.hpp"
#include "model/projection.hpp"

namespace eredu {
namespace {

// Shapes of one model, derived once from the config.
struct Dimensions {
  std::uint64_t hidden = 0;
  std::uint64_t q_rows = 0;    // heads × head_dim
  std::uint64_t kv_rows = 0;   // kv heads × head_dim
  std::uint64_t qkv_rows = 0;  // q_rows + 2 × kv_rows
  std::uint64_t intermediate = 0;
  std::uint64_t gate_up_rows = 0;  // 2 × intermediate
};

Result<Dimensions> dimensions(const ConfigFields& fields, const DecoderConfig& config) {
  EREDU_TRY(rows, attention_rows(fields, config));
  const std::uint64_t q_rows = rows.q_rows;
  const std::uint64_t kv_rows = rows.kv_rows;
  EREDU_TRY(qkv_rows, fields.sum("qkv_proj rows", {q_rows, kv_rows, kv_rows}));
  EREDU_TRY(gate_up_rows, fields.product("gate_up_proj rows", {config.intermediate_size, 2}));
  return Dimensions{config.hidden_size,       q_rows,      kv_rows, qkv_rows,
                    config.intermediate_size, gate_up_rows};
}

Result<ParameterGroupSpec> attention_group(const DecoderConfig& config, const Dimensions& dims,
                                           const std::string& prefix, GroupScope scope) {
  const std::string attn = prefix + "self_attn.";
  const ProjectionModule qkv = {
      {attn + "qkv_proj.weight", {dims.qkv_rows, dims.hidden}, config.dtype}};
  const ProjectionModule o = {{attn + "o_proj.weight", {dims.hidden, dims.q_rows}, config.dtype}};
  const std::uint64_t k_end = dims.q_rows + dims.kv_rows;
  return segmented_projection_group(prefix + "self_attn", ParameterRole::AttentionHeads, qkv, o,
                                    {IndexRange{0, dims.q_rows}, IndexRange{dims.q_rows, k_end},
                                     IndexRange{k_end, dims.qkv_rows}},
                                    config.num_key_value_heads, scope);
}

Result<ParameterGroupSpec> norms_group(const DecoderConfig& config, const Dimensions& dims,
                                       const std::string& prefix, GroupScope scope) {
  Members members(config.dtype);
  members.add(prefix + "input_layernorm.weight", {dims.hidden}, MemberSharding::replicated());
  members.add(prefix + "post_attention_layernorm.weight", {dims.hidden},
              MemberSharding::replicated());
  return ParameterGroupSpec::create(prefix + "norms", ParameterRole::Replicated, members.take(),
                                    scope);
}

Result<ParameterGroupSpec> mlp_group(const DecoderConfig& config, const Dimensions& dims,
                                     const std::string& prefix, GroupScope scope) {
  const std::string mlp = prefix + "mlp.";
  const ProjectionModule gate_up = {
      {mlp + "gate_up_proj.weight", {dims.gate_up_rows, dims.hidden}, config.dtype}};
  const ProjectionModule down = {
      {mlp + "down_proj.weight", {dims.hidden, dims.intermediate}, config.dtype}};
  return segmented_projection_group(
      prefix + "mlp", ParameterRole::FeedForwardIntermediate, gate_up, down,
      {IndexRange{0, dims.intermediate}, IndexRange{dims.intermediate, dims.gate_up_rows}},
      config.intermediate_size, scope);
}

}  // namespace

Result<FamilyGroups> describe_phi3(const ConfigFields& fields, const WeightIndex& index) {
  EREDU_TRY(dtype, fields.dtype());
  EREDU_TRY(config, read_decoder_config(fields, dtype));
  EREDU_TRY(check_layer_count(config.num_hidden_layers, index.file, index.tensor_bound()));
  EREDU_TRY(dims, dimensions(fields, config));
  return decoder_groups(
      decoder_outline(config, index),
      [&](const std::string& prefix, GroupScope scope) -> Result<std::vector<ParameterGroupSpec>> {
        EREDU_TRY(attention, attention_group(config, dims, prefix, scope));
        EREDU_TRY(norms, norms_group(config, dims, prefix, scope));
        EREDU_TRY(mlp, mlp_group(config, dims, prefix, scope));
        return std::vector{std::move(attention), std::move(norms), std::move(mlp)};
      });
}

}  // namespace eredu
