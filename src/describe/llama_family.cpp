#include "describe/llama_family.hpp"

#include <string>
#include <utility>
#include <vector>

#include "describe/decoder_config.hpp"

namespace eredu {
namespace {

// Shapes of one model, derived once from the config.
struct Dimensions {
  std::uint64_t hidden = 0;
  std::uint64_t q_rows = 0;   // heads × head_dim
  std::uint64_t kv_rows = 0;  // kv heads × head_dim
  std::uint64_t head_dim = 0;
  std::uint64_t intermediate = 0;
};

Result<Dimensions> dimensions(const ConfigFields& fields, const DecoderConfig& config) {
  EREDU_TRY(rows, attention_rows(fields, config));
  return Dimensions{config.hidden_size, rows.q_rows, rows.kv_rows, config.head_dim,
                    config.intermediate_size};
}

Result<ParameterGroupSpec> attention_group(const DecoderConfig& config, const WeightIndex& index,
                                           const Dimensions& dims, const std::string& prefix,
                                           GroupScope scope) {
  const std::string attn = prefix + "self_attn.";
  Members members(config.dtype);
  members.add(attn + "q_proj.weight", {dims.q_rows, dims.hidden}, MemberSharding::partitioned(0));
  members.add(attn + "k_proj.weight", {dims.kv_rows, dims.hidden}, MemberSharding::partitioned(0));
  members.add(attn + "v_proj.weight", {dims.kv_rows, dims.hidden}, MemberSharding::partitioned(0));
  members.add(attn + "o_proj.weight", {dims.hidden, dims.q_rows}, MemberSharding::partitioned(1));
  const std::pair<const char*, std::uint64_t> biases[] = {
      {"q_proj.bias", dims.q_rows}, {"k_proj.bias", dims.kv_rows}, {"v_proj.bias", dims.kv_rows}};
  for (const auto& [name, rows] : biases) {
    members.add_present(index, attn + name, {rows}, MemberSharding::partitioned(0));
  }
  members.add_present(index, attn + "o_proj.bias", {dims.hidden}, MemberSharding::replicated());
  return ParameterGroupSpec::partitioned(prefix + "self_attn", ParameterRole::AttentionHeads,
                                         config.num_key_value_heads, members.take(), scope);
}

Result<ParameterGroupSpec> norms_group(const DecoderConfig& config, const WeightIndex& index,
                                       const Dimensions& dims, const std::string& prefix,
                                       GroupScope scope) {
  Members members(config.dtype);
  members.add(prefix + "input_layernorm.weight", {dims.hidden}, MemberSharding::replicated());
  members.add(prefix + "post_attention_layernorm.weight", {dims.hidden},
              MemberSharding::replicated());
  for (const char* name : {"self_attn.q_norm.weight", "self_attn.k_norm.weight"}) {
    members.add_present(index, prefix + name, {dims.head_dim}, MemberSharding::replicated());
  }
  return ParameterGroupSpec::create(prefix + "norms", ParameterRole::Replicated, members.take(),
                                    scope);
}

Result<ParameterGroupSpec> mlp_group(const DecoderConfig& config, const Dimensions& dims,
                                     const std::string& prefix, GroupScope scope) {
  const std::string mlp = prefix + "mlp.";
  Members members(config.dtype);
  members.add(mlp + "gate_proj.weight", {dims.intermediate, dims.hidden},
              MemberSharding::partitioned(0));
  members.add(mlp + "up_proj.weight", {dims.intermediate, dims.hidden},
              MemberSharding::partitioned(0));
  members.add(mlp + "down_proj.weight", {dims.hidden, dims.intermediate},
              MemberSharding::partitioned(1));
  return ParameterGroupSpec::partitioned(prefix + "mlp", ParameterRole::FeedForwardIntermediate,
                                         config.intermediate_size, members.take(), scope);
}

}  // namespace

Result<FamilyGroups> describe_llama(const ConfigFields& fields, const WeightIndex& index) {
  EREDU_TRY(dtype, fields.dtype());
  EREDU_TRY(config, read_decoder_config(fields, dtype));
  EREDU_TRY(check_layer_count(config.num_hidden_layers, index.file, index.names.size()));
  EREDU_TRY(dims, dimensions(fields, config));
  return decoder_groups(
      decoder_outline(config, index),
      [&](const std::string& prefix, GroupScope scope) -> Result<std::vector<ParameterGroupSpec>> {
        EREDU_TRY(attention, attention_group(config, index, dims, prefix, scope));
        EREDU_TRY(norms, norms_group(config, index, dims, prefix, scope));
        EREDU_TRY(mlp, mlp_group(config, dims, prefix, scope));
        return std::vector{std::move(attention), std::move(norms), std::move(mlp)};
      });
}

}  // namespace eredu
