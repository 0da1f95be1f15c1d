// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "describe/qwen_moe_family.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/checked.hpp"
#include "describe/decoder_config.hpp"
#include "describe/llama_family.hpp"

namespace eredu {
namespace {

using nlohmann::json;

enum class Variant { Qwen2Moe, Qwen3Moe, Qwen3_5Moe };

// The mixture of experts of a sparse layer.
struct Experts {
  std::uint64_t count = 0;         // num_experts, routed experts per layer
  std::uint64_t intermediate = 0;  // moe_intermediate_size, each routed expert's channels
  std::optional<std::uint64_t> shared_intermediate;  // shared_expert_intermediate_size
};

// The Gated DeltaNet of a linear attention layer (qwen3_5_moe).
struct LinearAttention {
  std::uint64_t key_heads = 0;    // linear_num_key_heads
  std::uint64_t value_heads = 0;  // linear_num_value_heads, a multiple of key_heads
  std::uint64_t value_head_dim = 0;
  std::uint64_t conv_kernel = 0;  // linear_conv_kernel_dim
  std::uint64_t key_dim = 0;      // key_heads × linear_key_head_dim
  std::uint64_t value_dim = 0;    // value_heads × value_head_dim
  std::uint64_t conv_dim = 0;     // 2 × key_dim + value_dim: q, k, v channels
};

// What each layer is, and the shapes its groups need.
struct QwenMoeLayout {
  DecoderConfig decoder;
  AttentionRows rows;
  Experts experts;
  std::vector<bool> sparse;          // per layer: a mixture of experts, else a dense mlp
  std::vector<bool> full_attention;  // per layer: self_attn, else linear_attn
  std::optional<LinearAttention> linear;
};

// The checkpoint dtype: the text model's torch_dtype / dtype, else
// config.json's.
Result<Dtype> text_dtype(const ConfigFields& fields, const ConfigFields& text) {
  if (text.field("torch_dtype") != nullptr || text.field("dtype") != nullptr) return text.dtype();
  return fields.dtype();
}

// The layers with a mixture of experts, as transformers decides: layer L
// unless it is in mlp_only_layers or L + 1 is not a multiple of
// decoder_sparse_step (default 1).
Result<std::vector<bool>> sparse_layers(const ConfigFields& text, std::uint64_t layers) {
  EREDU_TRY(step, text.optional_count("decoder_sparse_step"));
  std::vector<bool> sparse(layers);
  for (std::uint64_t layer = 0; layer < layers; ++layer) {
    sparse[layer] = (layer + 1) % step.value_or(1) == 0;
  }
  if (const json* dense = text.field("mlp_only_layers")) {
    if (!dense->is_array()) {
      return failf(Status::Parse, "{}: mlp_only_layers must be an array of layer indices, got {}",
                   text.file(), dense->dump());
    }
    for (std::size_t i = 0; i < dense->size(); ++i) {
      const json& entry = (*dense)[i];
      if (!entry.is_number_unsigned()) {
        return failf(Status::Parse,
                     "{}: mlp_only_layers[{}] must be a layer index (an integer from 0), got {}",
                     text.file(), i, shown_count(entry));
      }
      if (entry.get<std::uint64_t>() < layers) sparse[entry.get<std::uint64_t>()] = false;
    }
  }
  return sparse;
}

// The full attention layers (the others are linear attention), as
// transformers' Qwen3.5 config decides: layer_types when given, else every
// full_attention_interval-th layer (default 4).
Result<std::vector<bool>> full_attention_layers(const ConfigFields& text, std::uint64_t layers) {
  std::vector<bool> full(layers);
  const json* types = text.field("layer_types");
  if (types == nullptr) {
    EREDU_TRY(interval, text.optional_count("full_attention_interval"));
    for (std::uint64_t layer = 0; layer < layers; ++layer) {
      full[layer] = (layer + 1) % interval.value_or(4) == 0;
    }
    return full;
  }
  if (!types->is_array() || types->size() != layers) {
    return failf(Status::Parse,
                 "{}: layer_types must list the type of each of the {} layers "
                 "(num_hidden_layers), got {}",
                 text.file(), layers,
                 types->is_array() ? fmt::format("{} entries", types->size()) : types->dump());
  }
  for (std::uint64_t layer = 0; layer < layers; ++layer) {
    const json& type = (*types)[layer];
    if (type == "full_attention") {
      full[layer] = true;
    } else if (type != "linear_attention") {
      return failf(Status::Parse,
                   "{}: layer_types[{}] must be \"full_attention\" or \"linear_attention\", got {}",
                   text.file(), layer, type.dump());
    }
  }
  return full;
}

Result<LinearAttention> read_linear_attention(const ConfigFields& text) {
  EREDU_TRY(key_heads, text.required_count("linear_num_key_heads"));
  EREDU_TRY(value_heads, text.required_count("linear_num_value_heads"));
  EREDU_TRY(key_head_dim, text.required_count("linear_key_head_dim"));
  EREDU_TRY(value_head_dim, text.required_count("linear_value_head_dim"));
  EREDU_TRY(conv_kernel, text.required_count("linear_conv_kernel_dim"));
  // Each key head serves value_heads / key_heads consecutive value heads.
  if (value_heads % key_heads != 0) {
    return failf(Status::Parse,
                 "{}: linear_num_value_heads {} is not a multiple of linear_num_key_heads {}",
                 text.file(), value_heads, key_heads);
  }
  EREDU_TRY(key_dim,
            text.product("linear_num_key_heads × linear_key_head_dim", {key_heads, key_head_dim}));
  EREDU_TRY(value_dim, text.product("linear_num_value_heads × linear_value_head_dim",
                                    {value_heads, value_head_dim}));
  EREDU_TRY(conv_dim,
            text.sum("in_proj_qkv rows (2 × key dim + value dim)", {key_dim, key_dim, value_dim}));
  return LinearAttention{key_heads, value_heads, value_head_dim, conv_kernel,
                         key_dim,   value_dim,   conv_dim};
}

// Every routed expert of every sparse layer has tensors of its own, so a
// config declaring more than the index holds cannot match it; failing early
// bounds the groups built.
Result<void> check_expert_count(const QwenMoeLayout& layout, const WeightIndex& index) {
  const auto sparse =
      static_cast<std::uint64_t>(std::count(layout.sparse.begin(), layout.sparse.end(), true));
  const std::optional<std::uint64_t> routed = checked_mul(layout.experts.count, sparse);
  if (!routed || *routed > index.tensor_bound()) {
    return failf(Status::CheckpointMismatch,
                 "config.json declares {} routed experts in each of {} layers but {} lists only "
                 "{} tensors",
                 layout.experts.count, sparse, index.file, index.tensor_bound());
  }
  return outcome::success();
}

Result<QwenMoeLayout> read_layout(const ConfigFields& fields, const ConfigFields& text,
                                  const WeightIndex& index, Variant variant) {
  QwenMoeLayout layout;
  EREDU_TRY(dtype, text_dtype(fields, text));
  EREDU_TRY(decoder, read_expert_decoder_config(text, dtype));
  layout.decoder = decoder;
  if (&text != &fields && text.field("tie_word_embeddings") == nullptr) {
    EREDU_TRY(tied, fields.flag("tie_word_embeddings", false));
    layout.decoder.tie_word_embeddings = tied;
  }
  EREDU_TRY(count, text.required_count("num_experts"));
  EREDU_TRY(intermediate, text.required_count("moe_intermediate_size"));
  layout.experts = Experts{count, intermediate, std::nullopt};
  if (variant != Variant::Qwen3Moe) {
    EREDU_TRY(shared, text.required_count("shared_expert_intermediate_size"));
    layout.experts.shared_intermediate = shared;
  }
  const std::uint64_t layers = decoder.num_hidden_layers;
  EREDU_TRY(check_layer_count(layers, index.file, index.tensor_bound()));
  EREDU_TRY(sparse, sparse_layers(text, layers));
  layout.sparse = std::move(sparse);
  if (std::find(layout.sparse.begin(), layout.sparse.end(), false) != layout.sparse.end()) {
    EREDU_TRY(dense, text.required_count("intermediate_size"));
    layout.decoder.intermediate_size = dense;
  }
  EREDU_TRY(check_expert_count(layout, index));
  bool output_gate = false;
  if (variant == Variant::Qwen3_5Moe) {
    EREDU_TRY(full, full_attention_layers(text, layers));
    layout.full_attention = std::move(full);
    EREDU_TRY(gate, text.flag("attn_output_gate", true));
    output_gate = gate;
    const auto& kinds = layout.full_attention;
    if (std::find(kinds.begin(), kinds.end(), false) != kinds.end()) {
      EREDU_TRY(linear, read_linear_attention(text));
      layout.linear = linear;
    }
  } else {
    layout.full_attention.assign(layers, true);
  }
  EREDU_TRY(rows, attention_rows(text, layout.decoder, output_gate));
  layout.rows = rows;
  return layout;
}

// Layer group `linear_attn` (channels): the Gated DeltaNet split by key heads
// as vLLM's loader splits it. A tensor rank holds whole key heads, the value
// heads they serve and, of each projection, the matching rows of q, k and v
// (each its own segment of in_proj_qkv and of the conv channels), of z, b, a,
// dt_bias and A_log, and the matching out_proj columns; the gated norm over
// one head's values is the same for every head.
Result<ParameterGroupSpec> linear_attention_group(const QwenMoeLayout& layout,
                                                  const std::string& prefix, GroupScope scope) {
  const LinearAttention& linear = *layout.linear;
  const std::uint64_t hidden = layout.decoder.hidden_size;
  const std::string attn = prefix + "linear_attn.";
  const std::vector<IndexRange> qkv{{0, linear.key_dim},
                                    {linear.key_dim, 2 * linear.key_dim},
                                    {2 * linear.key_dim, linear.conv_dim}};
  Members members(layout.decoder.dtype);
  members.add(attn + "in_proj_qkv.weight", {linear.conv_dim, hidden},
              MemberSharding::partitioned_segments(0, qkv));
  members.add(attn + "in_proj_z.weight", {linear.value_dim, hidden},
              MemberSharding::partitioned(0));
  members.add(attn + "in_proj_b.weight", {linear.value_heads, hidden},
              MemberSharding::partitioned(0));
  members.add(attn + "in_proj_a.weight", {linear.value_heads, hidden},
              MemberSharding::partitioned(0));
  members.add(attn + "conv1d.weight", {linear.conv_dim, 1, linear.conv_kernel},
              MemberSharding::partitioned_segments(0, qkv));
  members.add(attn + "dt_bias", {linear.value_heads}, MemberSharding::partitioned(0));
  members.add(attn + "A_log", {linear.value_heads}, MemberSharding::partitioned(0));
  members.add(attn + "norm.weight", {linear.value_head_dim}, MemberSharding::replicated());
  members.add(attn + "out_proj.weight", {hidden, linear.value_dim}, MemberSharding::partitioned(1));
  return ParameterGroupSpec::partitioned(prefix + "linear_attn", ParameterRole::Channels,
                                         linear.key_heads, members.take(), scope);
}

// The router: one row of logits per routed expert, the same on every rank.
Result<ParameterGroupSpec> router_group(const QwenMoeLayout& layout, const std::string& prefix,
                                        GroupScope scope) {
  Members members(layout.decoder.dtype);
  members.add(prefix + "mlp.gate.weight", {layout.experts.count, layout.decoder.hidden_size},
              MemberSharding::replicated());
  return ParameterGroupSpec::create(prefix + "mlp.gate", ParameterRole::Replicated, members.take(),
                                    scope);
}

// An expert's (or the shared expert's) gate_proj and up_proj column-parallel
// and down_proj row-parallel over its `intermediate` channels.
void add_expert_projections(Members& members, const std::string& name, std::uint64_t hidden,
                            std::uint64_t intermediate) {
  members.add(name + ".gate_proj.weight", {intermediate, hidden}, MemberSharding::partitioned(0));
  members.add(name + ".up_proj.weight", {intermediate, hidden}, MemberSharding::partitioned(0));
  members.add(name + ".down_proj.weight", {hidden, intermediate}, MemberSharding::partitioned(1));
}

// Routed expert N of a layer, owned by one expert rank.
Result<ParameterGroupSpec> expert_group(const QwenMoeLayout& layout, const std::string& prefix,
                                        std::uint64_t layer, std::uint64_t expert) {
  const std::string name = fmt::format("{}mlp.experts.{}", prefix, expert);
  Members members(layout.decoder.dtype);
  add_expert_projections(members, name, layout.decoder.hidden_size, layout.experts.intermediate);
  return ParameterGroupSpec::partitioned(name, ParameterRole::ExpertIntermediate,
                                         layout.experts.intermediate, members.take(),
                                         GroupScope::indexed(layer, expert));
}

// The shared expert, which every token passes through: on every expert rank,
// split over the tensor ranks; its gate (one logit scaling its output) is
// replicated.
Result<ParameterGroupSpec> shared_expert_group(const QwenMoeLayout& layout,
                                               const std::string& prefix, GroupScope scope) {
  const std::string name = prefix + "mlp.shared_expert";
  const std::uint64_t hidden = layout.decoder.hidden_size;
  Members members(layout.decoder.dtype);
  add_expert_projections(members, name, hidden, *layout.experts.shared_intermediate);
  members.add(prefix + "mlp.shared_expert_gate.weight", {1, hidden}, MemberSharding::replicated());
  return ParameterGroupSpec::partitioned(name, ParameterRole::ExpertIntermediate,
                                         *layout.experts.shared_intermediate, members.take(),
                                         scope);
}

Result<std::vector<ParameterGroupSpec>> layer_groups(const QwenMoeLayout& layout,
                                                     const WeightIndex& index,
                                                     const std::string& prefix, GroupScope scope) {
  const std::uint64_t layer = *scope.layer;
  std::vector<ParameterGroupSpec> groups;
  if (layout.full_attention[layer]) {
    EREDU_TRY(attention, llama_attention_group(layout.decoder, index, layout.rows, prefix, scope));
    groups.push_back(std::move(attention));
  } else {
    EREDU_TRY(attention, linear_attention_group(layout, prefix, scope));
    groups.push_back(std::move(attention));
  }
  // Only full-attention layers have q_norm / k_norm.
  DecoderConfig norms = layout.decoder;
  norms.qk_norm = norms.qk_norm && layout.full_attention[layer];
  EREDU_TRY(norm_group, llama_norms_group(norms, index, prefix, scope));
  groups.push_back(std::move(norm_group));
  if (!layout.sparse[layer]) {
    EREDU_TRY(mlp, llama_mlp_group(layout.decoder, prefix, scope));
    groups.push_back(std::move(mlp));
    return groups;
  }
  EREDU_TRY(router, router_group(layout, prefix, scope));
  groups.push_back(std::move(router));
  for (std::uint64_t expert = 0; expert < layout.experts.count; ++expert) {
    EREDU_TRY(group, expert_group(layout, prefix, layer, expert));
    groups.push_back(std::move(group));
  }
  if (layout.experts.shared_intermediate) {
    EREDU_TRY(shared, shared_expert_group(layout, prefix, scope));
    groups.push_back(std::move(shared));
  }
  return groups;
}

// A checkpoint of Qwen3_5MoeForConditionalGeneration (or with a
// text_config): its text model lives under model.language_model.
bool multimodal_checkpoint(const ConfigFields& fields) {
  if (fields.field("text_config") != nullptr) return true;
  const json* architectures = fields.field("architectures");
  return architectures != nullptr && architectures->is_array() && !architectures->empty() &&
         (*architectures)[0].is_string() &&
         (*architectures)[0].get<std::string>().ends_with("ForConditionalGeneration");
}

Result<FamilyGroups> describe_qwen_moe(const ConfigFields& fields, const WeightIndex& index,
                                       Variant variant) {
  EREDU_TRY(nested, fields.optional_section("text_config"));
  const ConfigFields& text = nested ? *nested : fields;
  EREDU_TRY(layout, read_layout(fields, text, index, variant));
  DecoderOutline outline = decoder_outline(layout.decoder, index);
  // Qwen3.5's multimodal checkpoints keep the text model under
  // model.language_model.
  const std::string text_model = "model.language_model.";
  if (variant == Variant::Qwen3_5Moe &&
      index.contains(text_model + "embed_tokens.weight", multimodal_checkpoint(fields))) {
    outline.embedding = text_model + "embed_tokens.weight";
    outline.layer_prefix = text_model + "layers.";
    outline.final_norms = {text_model + "norm.weight"};
  }
  EREDU_TRY(described, decoder_groups(outline, [&](const std::string& prefix, GroupScope scope) {
              return layer_groups(layout, index, prefix, scope);
            }));
  described.experts = layout.experts.count;
  return described;
}

}  // namespace

Result<FamilyGroups> describe_qwen2_moe(const ConfigFields& config, const WeightIndex& index) {
  return describe_qwen_moe(config, index, Variant::Qwen2Moe);
}

Result<FamilyGroups> describe_qwen3_moe(const ConfigFields& config, const WeightIndex& index) {
  return describe_qwen_moe(config, index, Variant::Qwen3Moe);
}

Result<FamilyGroups> describe_qwen3_5_moe(const ConfigFields& config, const WeightIndex& index) {
  return describe_qwen_moe(config, index, Variant::Qwen3_5Moe);
}

}  // namespace eredu
