// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "describe/family.hpp"

#include <fmt/format.h>

namespace eredu {

bool uses_tied_head(bool tie_word_embeddings, const WeightIndex& index) {
  return tie_word_embeddings && !index.contains("lm_head.weight");
}

Result<ParameterGroupSpec> embedding_group(std::string target, std::uint64_t vocab,
                                           std::uint64_t hidden, Dtype dtype, bool tied) {
  Members members(dtype);
  members.add(std::move(target), {vocab, hidden}, MemberSharding::balanced(0));
  return ParameterGroupSpec::create("embed", ParameterRole::Vocabulary, members.take(),
                                    tied ? GroupScope::tied_embedding() : GroupScope::embedding());
}

Result<ParameterGroupSpec> head_group(const std::vector<std::string>& norms, std::uint64_t vocab,
                                      std::uint64_t hidden, Dtype dtype, bool tied) {
  Members members(dtype);
  for (const std::string& norm : norms) members.add(norm, {hidden}, MemberSharding::replicated());
  if (!tied) members.add("lm_head.weight", {vocab, hidden}, MemberSharding::balanced(0));
  return ParameterGroupSpec::create("head", ParameterRole::Vocabulary, members.take(),
                                    GroupScope::output_head());
}

DecoderOutline decoder_outline(const DecoderConfig& config, const WeightIndex& index) {
  return DecoderOutline{config.num_hidden_layers,
                        config.vocab_size,
                        config.hidden_size,
                        config.dtype,
                        uses_tied_head(config.tie_word_embeddings, index),
                        "model.embed_tokens.weight",
                        "model.layers.",
                        {"model.norm.weight"}};
}

Result<FamilyGroups> decoder_groups(const DecoderOutline& outline, const LayerDescriber& layer) {
  FamilyGroups out{outline.layers, {}, std::nullopt, std::nullopt};
  EREDU_TRY(embed, embedding_group(outline.embedding, outline.vocab, outline.hidden, outline.dtype,
                                   outline.tied));
  out.groups.push_back(std::move(embed));
  for (std::uint64_t index = 0; index < outline.layers; ++index) {
    const std::string prefix = fmt::format("{}{}.", outline.layer_prefix, index);
    EREDU_TRY(groups, layer(prefix, GroupScope::indexed(index, std::nullopt)));
    for (ParameterGroupSpec& group : groups) out.groups.push_back(std::move(group));
  }
  EREDU_TRY(head, head_group(outline.final_norms, outline.vocab, outline.hidden, outline.dtype,
                             outline.tied));
  out.groups.push_back(std::move(head));
  return out;
}

}  // namespace eredu
