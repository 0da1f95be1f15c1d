// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "describe/deepseek_family.hpp"

#include <fmt/format.h>

#include <array>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "describe/decoder_config.hpp"
#include "describe/llama_family.hpp"
#include "describe/quantization_refusal.hpp"
#include "model/expand.hpp"

namespace eredu {
namespace {

using json = nlohmann::json;

// Multi-head latent attention: the rows and columns of its projections.
struct Mla {
  std::optional<std::uint64_t> q_lora_rank;  // null: a plain q_proj
  std::uint64_t kv_lora_rank = 0;
  std::uint64_t rope = 0;       // qk_rope_head_dim
  std::uint64_t nope = 0;       // qk_nope_head_dim
  std::uint64_t v_head = 0;     // v_head_dim
  std::uint64_t q_rows = 0;     // heads × (qk_nope_head_dim + qk_rope_head_dim)
  std::uint64_t kv_a_rows = 0;  // kv_lora_rank + qk_rope_head_dim
  std::uint64_t kv_b_rows = 0;  // heads × (qk_nope_head_dim + v_head_dim)
  std::uint64_t o_cols = 0;     // heads × v_head_dim
};

// The mixture of experts, when n_routed_experts is given.
struct Moe {
  std::uint64_t experts = 0;
  std::uint64_t intermediate = 0;         // moe_intermediate_size
  std::uint64_t shared_intermediate = 0;  // n_shared_experts × moe_intermediate_size; 0: none
  std::uint64_t first_dense = 0;          // first_k_dense_replace
  std::uint64_t frequency = 1;            // moe_layer_freq
  bool correction_bias = false;           // topk_method noaux_tc: e_score_correction_bias
};

struct DeepSeekLayout {
  DecoderConfig decoder;
  std::string prefix;  // before `model.` and `lm_head.`: "" or "language_model."

  Mla mla;
  std::optional<Moe> moe;
  std::optional<BlockFp8Format> fp8;
  std::uint64_t mtp_layers = 0;  // num_nextn_predict_layers
  std::uint64_t eh_columns = 0;  // 2 × hidden_size: eh_proj's input

  bool sparse(std::uint64_t layer) const {
    return moe && layer >= moe->first_dense && layer % moe->frequency == 0;
  }
};

// quantization_config: absent, or fp8 (e4m3) with its weight_block_size.
Result<std::optional<BlockFp8Format>> read_fp8(const ConfigFields& fields) {
  const json* quantization = fields.field("quantization_config");
  if (quantization == nullptr) return std::optional<BlockFp8Format>{};
  const auto refuse = [&] {
    return failf(Status::UnsupportedModel,
                 "{}: {} is not supported for the DeepSeek family; supported: fp8 (e4m3) with "
                 "weight_block_size",
                 fields.file(), quantization_label(*quantization));
  };
  if (!quantization->is_object()) return refuse();
  const auto method = quantization->find("quant_method");
  const auto format = quantization->find("fmt");
  if (method == quantization->end() || *method != "fp8" ||
      (format != quantization->end() && *format != "e4m3")) {
    return refuse();
  }
  const auto block = quantization->find("weight_block_size");
  if (block == quantization->end() || !block->is_array() || block->size() != 2) return refuse();
  std::array<std::int32_t, 2> sizes{};
  for (std::size_t i = 0; i < 2; ++i) {
    const json& size = (*block)[i];
    if (!size.is_number_unsigned() || size.get<std::uint64_t>() == 0 ||
        size.get<std::uint64_t>() > 0x7fffffff) {
      return failf(Status::Parse,
                   "{}: quantization_config.weight_block_size must be two positive 32-bit "
                   "integers, got {}",
                   fields.file(), block->dump());
    }
    sizes[i] = static_cast<std::int32_t>(size.get<std::uint64_t>());
  }
  EREDU_TRY(fp8, BlockFp8Format::create(sizes[0], sizes[1], BlockFp8ScaleEncoding::FloatingPoint));
  return std::optional<BlockFp8Format>{fp8};
}

Result<Mla> read_mla(const ConfigFields& fields, const DecoderConfig& decoder) {
  Mla mla;
  EREDU_TRY(q_lora, fields.optional_count("q_lora_rank"));
  EREDU_TRY(kv_lora, fields.required_count("kv_lora_rank"));
  EREDU_TRY(nope, fields.required_count("qk_nope_head_dim"));
  EREDU_TRY(rope, fields.required_count("qk_rope_head_dim"));
  EREDU_TRY(v_head, fields.required_count("v_head_dim"));
  const std::uint64_t heads = decoder.num_attention_heads;
  EREDU_TRY(q_head, fields.sum("qk_nope_head_dim + qk_rope_head_dim", {nope, rope}));
  EREDU_TRY(kv_head, fields.sum("qk_nope_head_dim + v_head_dim", {nope, v_head}));
  mla.q_lora_rank = q_lora;
  mla.kv_lora_rank = kv_lora;
  mla.rope = rope;
  mla.nope = nope;
  mla.v_head = v_head;
  EREDU_TRY(q_rows, fields.product("q_b_proj rows", {heads, q_head}));
  EREDU_TRY(kv_a_rows, fields.sum("kv_lora_rank + qk_rope_head_dim", {kv_lora, rope}));
  EREDU_TRY(kv_b_rows, fields.product("kv_b_proj rows", {heads, kv_head}));
  EREDU_TRY(o_cols, fields.product("o_proj columns", {heads, v_head}));
  mla.q_rows = q_rows;
  mla.kv_a_rows = kv_a_rows;
  mla.kv_b_rows = kv_b_rows;
  mla.o_cols = o_cols;
  return mla;
}

Result<std::optional<Moe>> read_moe(const ConfigFields& fields) {
  EREDU_TRY(experts, fields.optional_count("n_routed_experts"));
  if (!experts) return std::optional<Moe>{};
  Moe moe;
  moe.experts = *experts;
  EREDU_TRY(intermediate, fields.required_count("moe_intermediate_size"));
  EREDU_TRY(shared, fields.optional_size("n_shared_experts"));
  EREDU_TRY(first_dense, fields.optional_size("first_k_dense_replace"));
  EREDU_TRY(frequency, fields.optional_count("moe_layer_freq"));
  moe.intermediate = intermediate;
  EREDU_TRY(shared_intermediate, fields.product("n_shared_experts × moe_intermediate_size",
                                                {shared.value_or(0), intermediate}));
  moe.shared_intermediate = shared_intermediate;
  moe.first_dense = first_dense.value_or(0);
  moe.frequency = frequency.value_or(1);
  const json* method = fields.field("topk_method");
  moe.correction_bias = method != nullptr && *method == "noaux_tc";
  return std::optional<Moe>{moe};
}

Result<DeepSeekLayout> read_layout(const ConfigFields& fields, Dtype dtype,
                                   std::optional<BlockFp8Format> fp8) {
  DeepSeekLayout layout;
  EREDU_TRY(decoder, read_decoder_config(fields, dtype));
  EREDU_TRY(mla, read_mla(fields, decoder));
  EREDU_TRY(moe, read_moe(fields));
  EREDU_TRY(mtp, fields.optional_size("num_nextn_predict_layers"));
  layout.decoder = decoder;
  layout.mla = mla;
  layout.moe = moe;
  layout.fp8 = fp8;
  layout.mtp_layers = mtp.value_or(0);
  EREDU_TRY(eh_columns, fields.sum("2 × hidden_size", {decoder.hidden_size, decoder.hidden_size}));
  layout.eh_columns = eh_columns;
  return layout;
}

// The members of one group: a linear is F8_E4M3 when the checkpoint is
// block-FP8 and holds its weight_scale_inv (the expansion adds the scale),
// else the checkpoint dtype.
class LayerMembers {
 public:
  LayerMembers(const DeepSeekLayout& layout, const WeightIndex& index)
      : layout_(layout), index_(index), members_(layout.decoder.dtype) {}

  void linear(std::string target, std::vector<std::uint64_t> shape, MemberSharding sharding) {
    const bool fp8 = layout_.fp8 && index_.contains(target + "_scale_inv", true);
    members_.add(std::move(target), std::move(shape), std::move(sharding),
                 fp8 ? Dtype::F8E4M3 : layout_.decoder.dtype);
  }
  void plain(std::string target, std::vector<std::uint64_t> shape, MemberSharding sharding) {
    members_.add(std::move(target), std::move(shape), std::move(sharding));
  }
  // A float32 buffer or bias, only when the index holds it (without an
  // index: when `assumed`).
  void f32_present(std::string target, std::vector<std::uint64_t> shape, bool assumed) {
    if (index_.contains(target, assumed)) {
      members_.add(std::move(target), std::move(shape), MemberSharding::replicated(), Dtype::F32);
    }
  }
  std::vector<ParameterMemberSpec> take() { return members_.take(); }

 private:
  const DeepSeekLayout& layout_;
  const WeightIndex& index_;
  Members members_;
};

// Multi-head latent attention, split by heads as vLLM's DeepSeek-V2 loader
// does: the low-rank down projections and their norms are replicated, the
// per-head up projections are column-parallel and o_proj row-parallel.
Result<ParameterGroupSpec> attention_group(const DeepSeekLayout& layout, const WeightIndex& index,
                                           const std::string& prefix, GroupScope scope) {
  const std::string attn = prefix + "self_attn.";
  const Mla& mla = layout.mla;
  const std::uint64_t hidden = layout.decoder.hidden_size;
  LayerMembers members(layout, index);
  if (mla.q_lora_rank) {
    members.linear(attn + "q_a_proj.weight", {*mla.q_lora_rank, hidden},
                   MemberSharding::replicated());
    members.plain(attn + "q_a_layernorm.weight", {*mla.q_lora_rank}, MemberSharding::replicated());
    members.linear(attn + "q_b_proj.weight", {mla.q_rows, *mla.q_lora_rank},
                   MemberSharding::partitioned(0));
  } else {
    members.linear(attn + "q_proj.weight", {mla.q_rows, hidden}, MemberSharding::partitioned(0));
  }
  members.linear(attn + "kv_a_proj_with_mqa.weight", {mla.kv_a_rows, hidden},
                 MemberSharding::replicated());
  members.plain(attn + "kv_a_layernorm.weight", {mla.kv_lora_rank}, MemberSharding::replicated());
  if (index.contains(attn + "embed_q.weight", false)) {
    // MLX stores kv_b_proj split per head: the key half transposed
    // (embed_q [H, kv_lora_rank, qk_nope]) and the value half (unembed_out
    // [H, v_head, kv_lora_rank]).
    const std::uint64_t heads = layout.decoder.num_attention_heads;
    members.linear(attn + "embed_q.weight", {heads, mla.kv_lora_rank, mla.nope},
                   MemberSharding::partitioned(0));
    members.linear(attn + "unembed_out.weight", {heads, mla.v_head, mla.kv_lora_rank},
                   MemberSharding::partitioned(0));
  } else {
    members.linear(attn + "kv_b_proj.weight", {mla.kv_b_rows, mla.kv_lora_rank},
                   MemberSharding::partitioned(0));
  }
  members.linear(attn + "o_proj.weight", {hidden, mla.o_cols}, MemberSharding::partitioned(1));
  // The rotary inverse frequencies some checkpoints save: one per pair of
  // rope dimensions.
  members.f32_present(attn + "rotary_emb.inv_freq", {mla.rope / 2}, false);
  return ParameterGroupSpec::partitioned(prefix + "self_attn", ParameterRole::AttentionHeads,
                                         layout.decoder.num_attention_heads, members.take(), scope);
}

// gate_proj and up_proj column-parallel, down_proj row-parallel over
// `intermediate` channels: a dense MLP, a routed expert, the shared experts.
Result<ParameterGroupSpec> mlp_group(const DeepSeekLayout& layout, const WeightIndex& index,
                                     const std::string& name, ParameterRole role,
                                     std::uint64_t intermediate, GroupScope scope) {
  const std::uint64_t hidden = layout.decoder.hidden_size;
  LayerMembers members(layout, index);
  members.linear(name + ".gate_proj.weight", {intermediate, hidden},
                 MemberSharding::partitioned(0));
  members.linear(name + ".up_proj.weight", {intermediate, hidden}, MemberSharding::partitioned(0));
  members.linear(name + ".down_proj.weight", {hidden, intermediate},
                 MemberSharding::partitioned(1));
  return ParameterGroupSpec::partitioned(name, role, intermediate, members.take(), scope);
}

// MLX's routed experts, stacked per layer (`mlp.switch_mlp`): expert axis 0
// split by expert rank, the intermediate channels as a dense MLP's.
Result<ParameterGroupSpec> stacked_experts_group(const DeepSeekLayout& layout,
                                                 const std::string& prefix, GroupScope scope) {
  const std::string name = prefix + "mlp.switch_mlp";
  const std::uint64_t experts = layout.moe->experts;
  const std::uint64_t intermediate = layout.moe->intermediate;
  const std::uint64_t hidden = layout.decoder.hidden_size;
  Members members(layout.decoder.dtype);
  members.add(name + ".gate_proj.weight", {experts, intermediate, hidden},
              MemberSharding::partitioned(1).stacked_experts(0));
  members.add(name + ".up_proj.weight", {experts, intermediate, hidden},
              MemberSharding::partitioned(1).stacked_experts(0));
  members.add(name + ".down_proj.weight", {experts, hidden, intermediate},
              MemberSharding::partitioned(2).stacked_experts(0));
  return ParameterGroupSpec::partitioned(name, ParameterRole::ExpertIntermediate, intermediate,
                                         members.take(), scope);
}

// The router: one row of logits per expert and, for noaux_tc routing, a
// float32 correction bias per expert; the same on every rank.
Result<ParameterGroupSpec> router_group(const DeepSeekLayout& layout, const WeightIndex& index,
                                        const std::string& prefix, GroupScope scope) {
  const std::string gate = prefix + "mlp.gate";
  LayerMembers members(layout, index);
  members.plain(gate + ".weight", {layout.moe->experts, layout.decoder.hidden_size},
                MemberSharding::replicated());
  members.f32_present(gate + ".e_score_correction_bias", {layout.moe->experts},
                      layout.moe->correction_bias);
  return ParameterGroupSpec::create(gate, ParameterRole::Replicated, members.take(), scope);
}

// The mixture of experts of one layer: the router, every routed expert
// (owned by the expert rank of its expert), the shared experts (held by
// every expert rank, split like a dense MLP).
Result<void> add_moe(std::vector<ParameterGroupSpec>& groups, const DeepSeekLayout& layout,
                     const WeightIndex& index, const std::string& prefix, std::uint64_t layer,
                     GroupScope scope) {
  EREDU_TRY(router, router_group(layout, index, prefix, scope));
  groups.push_back(std::move(router));
  const Moe& moe = *layout.moe;
  if (index.contains(prefix + "mlp.switch_mlp.gate_proj.weight", false)) {
    EREDU_TRY(stacked, stacked_experts_group(layout, prefix, scope));
    groups.push_back(std::move(stacked));
  } else {
    for (std::uint64_t expert = 0; expert < moe.experts; ++expert) {
      EREDU_TRY(group, mlp_group(layout, index, fmt::format("{}mlp.experts.{}", prefix, expert),
                                 ParameterRole::ExpertIntermediate, moe.intermediate,
                                 GroupScope::indexed(layer, expert)));
      groups.push_back(std::move(group));
    }
  }
  if (moe.shared_intermediate > 0) {
    EREDU_TRY(shared, mlp_group(layout, index, prefix + "mlp.shared_experts",
                                ParameterRole::ExpertIntermediate, moe.shared_intermediate, scope));
    groups.push_back(std::move(shared));
  }
  return outcome::success();
}

// One decoder layer's groups; `layer` decides dense or MoE, `scope` owns
// them (a multi-token-prediction layer is owned with the last layer).
Result<std::vector<ParameterGroupSpec>> layer_groups(const DeepSeekLayout& layout,
                                                     const WeightIndex& index,
                                                     const std::string& prefix, std::uint64_t layer,
                                                     GroupScope scope) {
  std::vector<ParameterGroupSpec> groups;
  EREDU_TRY(attention, attention_group(layout, index, prefix, scope));
  groups.push_back(std::move(attention));
  EREDU_TRY(norms, llama_norms_group(layout.decoder, index, prefix, scope));
  groups.push_back(std::move(norms));
  if (layout.sparse(layer)) {
    EREDU_TRY(add_moe(groups, layout, index, prefix, *scope.layer, scope));
  } else {
    EREDU_TRY(mlp, mlp_group(layout, index, prefix + "mlp", ParameterRole::FeedForwardIntermediate,
                             layout.decoder.intermediate_size, scope));
    groups.push_back(std::move(mlp));
  }
  return groups;
}

// A multi-token-prediction layer L (DeepSeek-V3's `model.layers.61`): a
// decoder layer plus its own embedding and head (vocabulary rows split as
// the model's), the norms of the two streams and eh_proj, which vLLM keeps
// whole on every rank. Owned with the last decoder layer: the last pipeline
// stage, where vLLM runs it.
Result<std::vector<ParameterGroupSpec>> mtp_groups(const DeepSeekLayout& layout,
                                                   const WeightIndex& index, std::uint64_t layer) {
  const std::string prefix = fmt::format("{}model.layers.{}.", layout.prefix, layer);
  const GroupScope scope = GroupScope::indexed(layout.decoder.num_hidden_layers - 1, std::nullopt);
  const std::uint64_t hidden = layout.decoder.hidden_size;
  const std::uint64_t vocab = layout.decoder.vocab_size;
  EREDU_TRY(groups, layer_groups(layout, index, prefix, layer, scope));
  LayerMembers rows(layout, index);
  rows.plain(prefix + "embed_tokens.weight", {vocab, hidden}, MemberSharding::balanced(0));
  rows.plain(prefix + "shared_head.head.weight", {vocab, hidden}, MemberSharding::balanced(0));
  EREDU_TRY(vocabulary, ParameterGroupSpec::create(prefix + "mtp.vocabulary",
                                                   ParameterRole::Vocabulary, rows.take(), scope));
  groups.push_back(std::move(vocabulary));
  LayerMembers whole(layout, index);
  for (const char* norm : {"enorm.weight", "hnorm.weight", "shared_head.norm.weight"}) {
    whole.plain(prefix + norm, {hidden}, MemberSharding::replicated());
  }
  whole.linear(prefix + "eh_proj.weight", {hidden, layout.eh_columns},
               MemberSharding::replicated());
  EREDU_TRY(mtp, ParameterGroupSpec::create(prefix + "mtp", ParameterRole::Replicated, whole.take(),
                                            scope));
  groups.push_back(std::move(mtp));
  return groups;
}

// Every member the checkpoint stores as block-FP8 expanded into its weight
// and `<target>_scale_inv` (float32 inverse scales, one per block).
Result<std::vector<ParameterGroupSpec>> expand_fp8(std::vector<ParameterGroupSpec> groups,
                                                   const BlockFp8Format& fp8) {
  return expand_linear_format_parameter_groups(
      std::move(groups),
      [&](const ParameterMemberSpec& member) -> Result<std::optional<LinearFormatSpec>> {
        if (member.dtype() != Dtype::F8E4M3) return std::optional<LinearFormatSpec>{};
        EREDU_TRY(spec, LinearFormatSpec::scaled(LinearFormat::block_fp8(fp8),
                                                 member.target() + "_scale_inv", Dtype::F32));
        return std::optional<LinearFormatSpec>{std::move(spec)};
      });
}

// The groups of the language model `layout` describes: the decoder, its
// multi-token-prediction layers before the head, block-FP8 expanded.
Result<FamilyGroups> describe_layout(const DeepSeekLayout& layout, const WeightIndex& index) {
  const DecoderConfig& decoder = layout.decoder;
  EREDU_TRY(check_layer_count(decoder.num_hidden_layers, index.file, index.tensor_bound()));
  EREDU_TRY(described,
            decoder_groups(decoder_outline(decoder, index, layout.prefix),
                           [&](const std::string& prefix,
                               GroupScope scope) -> Result<std::vector<ParameterGroupSpec>> {
                             return layer_groups(layout, index, prefix, *scope.layer, scope);
                           }));
  std::vector<ParameterGroupSpec> mtp;
  for (std::uint64_t i = 0; i < layout.mtp_layers; ++i) {
    const std::uint64_t layer = decoder.num_hidden_layers + i;
    const std::string eh_proj =
        fmt::format("{}model.layers.{}.eh_proj.weight", layout.prefix, layer);
    if (!index.contains(eh_proj, true)) continue;
    EREDU_TRY(groups, mtp_groups(layout, index, layer));
    for (ParameterGroupSpec& group : groups) mtp.push_back(std::move(group));
  }
  described.groups.insert(described.groups.end() - 1, std::make_move_iterator(mtp.begin()),
                          std::make_move_iterator(mtp.end()));
  if (layout.fp8) {
    EREDU_TRY(expanded, expand_fp8(std::move(described.groups), *layout.fp8));
    described.groups = std::move(expanded);
  }
  if (layout.moe) described.experts = layout.moe->experts;
  return described;
}

// The index tensors outside the language model, by their first two name
// parts and count ("vision_tower.* (390 tensors), …"); empty when none.
std::string tensors_outside(const WeightIndex& index,
                            const std::function<bool(const std::string&)>& language_model) {
  std::map<std::string, std::uint64_t> outside;
  for (const std::string& name : index.names) {
    if (language_model(name)) continue;
    const std::size_t first = name.find('.');
    const std::size_t second = first == std::string::npos ? first : name.find('.', first + 1);
    ++outside[second == std::string::npos ? name : name.substr(0, second) + ".*"];
  }
  std::string listed;
  for (const auto& [prefix, count] : outside) {
    listed += fmt::format("{}{} ({} tensor{})", listed.empty() ? "" : ", ", prefix, count,
                          count == 1 ? "" : "s");
  }
  return listed;
}

}  // namespace

Result<FamilyGroups> describe_deepseek(const ConfigFields& fields, const WeightIndex& index) {
  EREDU_TRY(fp8, read_fp8(fields));
  EREDU_TRY(dtype, fields.dtype());
  EREDU_TRY(layout, read_layout(fields, dtype, fp8));
  return describe_layout(layout, index);
}

Result<FamilyGroups> describe_mistral3(const ConfigFields& fields, const WeightIndex& index) {
  EREDU_TRY(text, fields.section("text_config"));
  const json* text_type = text.field("model_type");
  if (text_type == nullptr || *text_type != "mistral4") {
    return failf(Status::UnsupportedModel,
                 "{}: model_type \"mistral3\" with text_config.model_type {} is not supported; "
                 "supported: \"mistral4\"",
                 fields.file(), text_type == nullptr ? "absent" : text_type->dump());
  }
  const std::string listed = tensors_outside(
      index, [](const std::string& name) { return name.starts_with("language_model."); });
  if (!listed.empty()) {
    return failf(Status::UnsupportedModel,
                 "{}: model_type \"mistral3\": only the language model is described; its vision "
                 "tower and projector are not supported: {}",
                 fields.file(), listed);
  }
  EREDU_TRY(dtype, fields.dtype_or(text));
  EREDU_TRY(layout, read_layout(text, dtype, std::nullopt));
  layout.prefix = "language_model.";
  return describe_layout(layout, index);
}

Result<FamilyGroups> refuse_deepseek_vl_v2(const ConfigFields& fields, const WeightIndex& index) {
  const std::string listed = tensors_outside(index, [](const std::string& name) {
    return name.starts_with("model.layers.") || name.starts_with("model.embed_tokens.") ||
           name.starts_with("model.norm.") || name.starts_with("lm_head.");
  });
  return failf(Status::UnsupportedModel,
               "{}: model_type \"deepseek_vl_v2\" is not supported: config.json does not give the "
               "shapes of its vision and projector tensors{}{}",
               fields.file(), listed.empty() ? "" : ": ", listed);
}

}  // namespace eredu
