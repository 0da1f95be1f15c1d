// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "describe/family.hpp"

#include <fmt/format.h>

namespace eredu {

Result<ParameterGroupSpec> column_row_group(std::string name, const std::string& up,
                                            const std::string& down, ColumnRowWidths widths,
                                            Dtype dtype, GroupScope scope) {
  Members members(dtype);
  members.add(up + ".weight", {widths.width, widths.input}, MemberSharding::partitioned(0));
  members.add(up + ".bias", {widths.width}, MemberSharding::partitioned(0));
  members.add(down + ".weight", {widths.output, widths.width}, MemberSharding::partitioned(1));
  members.add(down + ".bias", {widths.output}, MemberSharding::replicated());
  return ParameterGroupSpec::partitioned(std::move(name), ParameterRole::FeedForwardIntermediate,
                                         widths.width, members.take(), scope);
}

bool uses_tied_head(bool tie_word_embeddings, const WeightIndex& index, const std::string& head) {
  return tie_word_embeddings && !index.contains(head);
}

Result<ParameterGroupSpec> embedding_group(std::string target, std::uint64_t vocab,
                                           std::uint64_t hidden, Dtype dtype, bool tied) {
  Members members(dtype);
  members.add(std::move(target), {vocab, hidden}, MemberSharding::balanced(0));
  return ParameterGroupSpec::create("embed", ParameterRole::Vocabulary, members.take(),
                                    tied ? GroupScope::tied_embedding() : GroupScope::embedding());
}

Result<ParameterGroupSpec> head_group(const std::vector<std::string>& norms,
                                      const std::string& head, std::uint64_t vocab,
                                      std::uint64_t hidden, Dtype dtype, bool tied) {
  Members members(dtype);
  for (const std::string& norm : norms) members.add(norm, {hidden}, MemberSharding::replicated());
  if (!tied) members.add(head, {vocab, hidden}, MemberSharding::balanced(0));
  return ParameterGroupSpec::create("head", ParameterRole::Vocabulary, members.take(),
                                    GroupScope::output_head());
}

DecoderOutline decoder_outline(const DecoderConfig& config, const WeightIndex& index,
                               std::string_view prefix) {
  const std::string model = fmt::format("{}model.", prefix);
  const std::string head = fmt::format("{}lm_head.weight", prefix);
  return DecoderOutline{config.num_hidden_layers,
                        config.vocab_size,
                        config.hidden_size,
                        config.dtype,
                        uses_tied_head(config.tie_word_embeddings, index, head),
                        model + "embed_tokens.weight",
                        model + "layers.",
                        {model + "norm.weight"},
                        head};
}

Result<FamilyGroups> decoder_groups(const DecoderOutline& outline, const LayerDescriber& layer,
                                    DecoderExtras extras) {
  FamilyGroups out{outline.layers, {}, std::nullopt};
  EREDU_TRY(embed, embedding_group(outline.embedding, outline.vocab, outline.hidden, outline.dtype,
                                   outline.tied));
  out.groups.push_back(std::move(embed));
  for (ParameterGroupSpec& group : extras.after_embed) out.groups.push_back(std::move(group));
  for (std::uint64_t index = 0; index < outline.layers; ++index) {
    const std::string prefix = fmt::format("{}{}.", outline.layer_prefix, index);
    EREDU_TRY(groups, layer(prefix, GroupScope::indexed(index, std::nullopt)));
    for (ParameterGroupSpec& group : groups) out.groups.push_back(std::move(group));
  }
  if (extras.head) {
    out.groups.push_back(std::move(*extras.head));
    return out;
  }
  EREDU_TRY(head, head_group(outline.final_norms, outline.head, outline.vocab, outline.hidden,
                             outline.dtype, outline.tied));
  out.groups.push_back(std::move(head));
  return out;
}

}  // namespace eredu
