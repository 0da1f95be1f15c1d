// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "describe/gpt_oss_family.hpp"

#include <filesystem>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/json_file.hpp"
#include "core/text.hpp"
#include "describe/decoder_config.hpp"
#include "describe/quantization_refusal.hpp"

namespace eredu {
namespace {

constexpr std::uint64_t kMxfp4Block = 32;       // values per E8M0 scale
constexpr std::uint64_t kMxfp4BlockBytes = 16;  // 32 four-bit values

struct GptOssConfig {
  DecoderConfig decoder;
  std::uint64_t experts = 0;
  std::uint64_t q_rows = 0;        // heads × head_dim
  std::uint64_t kv_rows = 0;       // kv heads × head_dim
  std::uint64_t gate_up_rows = 0;  // 2 × intermediate, gate and up interleaved
  bool mxfp4 = false;
};

Result<bool> read_mxfp4(const ConfigFields& fields) {
  const nlohmann::json* quantization = fields.field("quantization_config");
  if (quantization == nullptr) return false;
  auto method = quantization->find("quant_method");
  if (method != quantization->end() && method->is_string() &&
      method->get<std::string>() == "mxfp4") {
    return true;
  }
  return failf(Status::UnsupportedModel, "{}: {} is not supported for gpt_oss; supported: mxfp4",
               fields.file(), quantization_label(*quantization));
}

// The one dtype of the original checkpoint's unquantized tensors in its
// dtypes.json (values other than the MXFP4 "FP4" blocks and "UE8" scales).
Result<Dtype> original_dtype(const std::string& path) {
  EREDU_TRY(document, read_json_file(path));
  if (!document.is_object()) return failf(Status::Parse, "{}: not a JSON object", path);
  std::set<std::string> names;
  for (const auto& [tensor, value] : document.items()) {
    if (!value.is_string()) {
      return failf(Status::Parse, "{}: the dtype of {} must be a string, got {}", path,
                   debug_quoted(tensor), value.dump());
    }
    const std::string name = value.get<std::string>();
    if (name != "FP4" && name != "UE8") names.insert(name);
  }
  if (names.size() == 1) {
    const std::optional<Dtype> dtype = parse_dtype(*names.begin());
    if (dtype == Dtype::F32 || dtype == Dtype::BF16 || dtype == Dtype::F16) return *dtype;
  }
  std::string listed;
  for (const std::string& name : names) listed += (listed.empty() ? "" : ", ") + name;
  return failf(Status::UnsupportedModel,
               "{}: the unquantized tensors must share one of F32, BF16, F16, got [{}]", path,
               listed);
}

// config.json's torch_dtype / dtype; gpt-oss releases leave both out, and
// then the dtypes.json of the bundled original checkpoint decides.
Result<Dtype> gpt_oss_dtype(const ConfigFields& fields) {
  if (fields.field("torch_dtype") != nullptr || fields.field("dtype") != nullptr) {
    return fields.dtype();
  }
  for (const char* name : {"original/dtypes.json", "original_dtypes.json"}) {
    const std::string path = fields.folder() + "/" + name;
    std::error_code ignored;
    if (std::filesystem::exists(path, ignored)) return original_dtype(path);
  }
  return failf(Status::UnsupportedModel,
               "{}: neither torch_dtype nor dtype is given and the folder has no "
               "original/dtypes.json, so tensor bytes are unknown",
               fields.file());
}

Result<GptOssConfig> read_gpt_oss_config(const ConfigFields& fields) {
  GptOssConfig config;
  EREDU_TRY(mxfp4, read_mxfp4(fields));
  EREDU_TRY(dtype, gpt_oss_dtype(fields));
  EREDU_TRY(decoder, read_decoder_config(fields, dtype));
  EREDU_TRY(experts, fields.required_count("num_local_experts"));
  EREDU_TRY(rows, attention_rows(fields, decoder));
  EREDU_TRY(gate_up_rows, fields.product("gate_up_proj rows", {2, decoder.intermediate_size}));
  if (mxfp4) {
    for (const auto& [name, value] : {std::pair{"hidden_size", decoder.hidden_size},
                                      std::pair{"intermediate_size", decoder.intermediate_size}}) {
      if (value % kMxfp4Block != 0) {
        return failf(Status::Parse, "{}: {} {} is not a multiple of the MXFP4 block of {} values",
                     fields.file(), name, value, kMxfp4Block);
      }
    }
  }
  config.decoder = decoder;
  config.experts = experts;
  config.q_rows = rows.q_rows;
  config.kv_rows = rows.kv_rows;
  config.gate_up_rows = gate_up_rows;
  config.mxfp4 = mxfp4;
  return config;
}

Result<ParameterGroupSpec> attention_group(const GptOssConfig& config, const WeightIndex& index,
                                           const std::string& prefix, GroupScope scope) {
  const std::string attn = prefix + "self_attn.";
  const std::uint64_t hidden = config.decoder.hidden_size;
  Members members(config.decoder.dtype);
  members.add(attn + "q_proj.weight", {config.q_rows, hidden}, MemberSharding::partitioned(0));
  // k and v (and their biases) are per KV head: held whole when KV heads are
  // replicated (docs/planning.md, "KV-head replication").
  members.add(attn + "k_proj.weight", {config.kv_rows, hidden},
              MemberSharding::partitioned(0).kv_head());
  members.add(attn + "v_proj.weight", {config.kv_rows, hidden},
              MemberSharding::partitioned(0).kv_head());
  members.add(attn + "o_proj.weight", {hidden, config.q_rows}, MemberSharding::partitioned(1));
  members.add_present(index, attn + "q_proj.bias", {config.q_rows}, MemberSharding::partitioned(0),
                      config.decoder.qkv_bias);
  for (const char* name : {"k_proj.bias", "v_proj.bias"}) {
    members.add_present(index, attn + name, {config.kv_rows},
                        MemberSharding::partitioned(0).kv_head(), config.decoder.qkv_bias);
  }
  members.add_present(index, attn + "o_proj.bias", {hidden}, MemberSharding::replicated(),
                      config.decoder.o_bias);
  // One learned sink logit per query head: split with the heads.
  members.add(attn + "sinks", {config.decoder.num_attention_heads}, MemberSharding::partitioned(0));
  return ParameterGroupSpec::partitioned(prefix + "self_attn", ParameterRole::AttentionHeads,
                                         config.decoder.num_key_value_heads, members.take(), scope,
                                         config.decoder.num_attention_heads);
}

Result<ParameterGroupSpec> norms_group(const GptOssConfig& config, const std::string& prefix,
                                       GroupScope scope) {
  Members members(config.decoder.dtype);
  for (const char* name : {"input_layernorm.weight", "post_attention_layernorm.weight"}) {
    members.add(prefix + name, {config.decoder.hidden_size}, MemberSharding::replicated());
  }
  return ParameterGroupSpec::create(prefix + "norms", ParameterRole::Replicated, members.take(),
                                    scope);
}

Result<ParameterGroupSpec> router_group(const GptOssConfig& config, const std::string& prefix,
                                        GroupScope scope) {
  const std::string router = prefix + "mlp.router.";
  Members members(config.decoder.dtype);
  members.add(router + "weight", {config.experts, config.decoder.hidden_size},
              MemberSharding::replicated());
  members.add(router + "bias", {config.experts}, MemberSharding::replicated());
  return ParameterGroupSpec::create(prefix + "mlp.router", ParameterRole::Replicated,
                                    members.take(), scope);
}

// The stacked experts, axis 0 of every member: expert parallelism gives each
// expert rank its range of them. Every expert's gate_up rows (gate and up
// interleaved, so a contiguous run of units keeps each pair) and down input
// columns are split by the same intermediate units; the down bias is added
// once.
Result<ParameterGroupSpec> experts_group(const GptOssConfig& config, const std::string& prefix,
                                         GroupScope scope) {
  const std::string experts = prefix + "mlp.experts.";
  const std::uint64_t count = config.experts;
  const std::uint64_t hidden = config.decoder.hidden_size;
  const std::uint64_t intermediate = config.decoder.intermediate_size;
  Members members(config.decoder.dtype);
  if (config.mxfp4) {
    const std::uint64_t hidden_blocks = hidden / kMxfp4Block;
    const std::uint64_t intermediate_blocks = intermediate / kMxfp4Block;
    members.add(experts + "gate_up_proj_blocks",
                {count, config.gate_up_rows, hidden_blocks, kMxfp4BlockBytes},
                MemberSharding::partitioned(1).stacked_experts(0), Dtype::U8);
    members.add(experts + "gate_up_proj_scales", {count, config.gate_up_rows, hidden_blocks},
                MemberSharding::partitioned(1).stacked_experts(0), Dtype::U8);
    members.add(experts + "gate_up_proj_bias", {count, config.gate_up_rows},
                MemberSharding::partitioned(1).stacked_experts(0));
    members.add(experts + "down_proj_blocks",
                {count, hidden, intermediate_blocks, kMxfp4BlockBytes},
                MemberSharding::partitioned(2).stacked_experts(0), Dtype::U8);
    members.add(experts + "down_proj_scales", {count, hidden, intermediate_blocks},
                MemberSharding::partitioned(2).stacked_experts(0), Dtype::U8);
  } else {
    members.add(experts + "gate_up_proj", {count, hidden, config.gate_up_rows},
                MemberSharding::partitioned(2).stacked_experts(0));
    members.add(experts + "gate_up_proj_bias", {count, config.gate_up_rows},
                MemberSharding::partitioned(1).stacked_experts(0));
    members.add(experts + "down_proj", {count, intermediate, hidden},
                MemberSharding::partitioned(1).stacked_experts(0));
  }
  members.add(experts + "down_proj_bias", {count, hidden},
              MemberSharding::replicated().stacked_experts(0));
  return partitioned_group_with_preferred_units(prefix + "mlp.experts",
                                                ParameterRole::ExpertIntermediate, intermediate,
                                                members.take(), scope);
}

}  // namespace

Result<FamilyGroups> describe_gpt_oss(const ConfigFields& fields, const WeightIndex& index) {
  EREDU_TRY(config, read_gpt_oss_config(fields));
  const DecoderConfig& decoder = config.decoder;
  EREDU_TRY(check_layer_count(decoder.num_hidden_layers, index.file, index.tensor_bound()));
  EREDU_TRY(out, decoder_groups(decoder_outline(decoder, index),
                                [&](const std::string& prefix,
                                    GroupScope scope) -> Result<std::vector<ParameterGroupSpec>> {
                                  EREDU_TRY(attention,
                                            attention_group(config, index, prefix, scope));
                                  EREDU_TRY(norms, norms_group(config, prefix, scope));
                                  EREDU_TRY(router, router_group(config, prefix, scope));
                                  EREDU_TRY(experts, experts_group(config, prefix, scope));
                                  return std::vector{std::move(attention), std::move(norms),
                                                     std::move(router), std::move(experts)};
                                }));
  out.experts = config.experts;
  return out;
}

}  // namespace eredu
