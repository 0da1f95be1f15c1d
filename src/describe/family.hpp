// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// What every family describer returns, and the pieces they share: a member
// list with the model's dtype, the vocabulary groups at both ends of the
// model and the walk over its layers, with a model's extra groups.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "checkpoint/weight_index.hpp"
#include "core/result.hpp"
#include "describe/config_fields.hpp"
#include "describe/decoder_config.hpp"
#include "model/group.hpp"

namespace eredu {

/// One family's description of a model folder, before quantized-format
/// expansion and the checkpoint check.
struct FamilyGroups {
  std::uint64_t layers = 0;                // num_hidden_layers
  std::vector<ParameterGroupSpec> groups;  // document order
  /// The routed experts per layer (model.experts), for a mixture of experts.
  std::optional<std::uint64_t> experts;
};

/// A family describer: reads its fields of config.json and lists the groups
/// of the folder whose weight index is `index` ("when present" tensors are
/// looked up there).
using FamilyDescriber = Result<FamilyGroups> (*)(const ConfigFields& config,
                                                 const WeightIndex& index);

/// The members of one group, each with `dtype` unless given another.
class Members {
 public:
  explicit Members(Dtype dtype) : dtype_(dtype) {}

  void add(std::string target, std::vector<std::uint64_t> shape, MemberSharding sharding) {
    members_.emplace_back(std::move(target), std::move(shape), std::move(sharding), dtype_);
  }
  void add(std::string target, std::vector<std::uint64_t> shape, MemberSharding sharding,
           Dtype dtype) {
    members_.emplace_back(std::move(target), std::move(shape), std::move(sharding), dtype);
  }
  /// Adds the member only when the index holds `target` (without an index:
  /// when `assumed`, WeightIndex::contains).
  void add_present(const WeightIndex& index, std::string target, std::vector<std::uint64_t> shape,
                   MemberSharding sharding, bool assumed = false) {
    if (index.contains(target, assumed)) {
      add(std::move(target), std::move(shape), std::move(sharding));
    }
  }
  std::vector<ParameterMemberSpec> take() { return std::move(members_); }

 private:
  Dtype dtype_;
  std::vector<ParameterMemberSpec> members_;
};

/// The widths of column_row_group's pair: `up` maps `input` to `width`
/// features, `down` maps them back to `output`.
struct ColumnRowWidths {
  std::uint64_t input = 0;
  std::uint64_t width = 0;
  std::uint64_t output = 0;
};

/// A feed_forward_intermediate group of `widths.width` units: the
/// column-parallel `up.weight` [width, input] and `up.bias` [width]
/// partitioned on axis 0, the row-parallel `down.weight` [output, width]
/// partitioned on axis 1 and `down.bias` [output] replicated (added after the
/// reduction). The MLPs and mergers of vision towers.
Result<ParameterGroupSpec> column_row_group(std::string name, const std::string& up,
                                            const std::string& down, ColumnRowWidths widths,
                                            Dtype dtype, GroupScope scope);

/// True when the output head reuses the embedding: the config ties them and
/// the index has no output projection `head` of its own.
bool uses_tied_head(bool tie_word_embeddings, const WeightIndex& index,
                    const std::string& head = "lm_head.weight");

/// Group `embed` (vocabulary): `target` [vocab, hidden] balanced on axis 0,
/// scope embedding, or tied_embedding when `tied`.
Result<ParameterGroupSpec> embedding_group(std::string target, std::uint64_t vocab,
                                           std::uint64_t hidden, Dtype dtype, bool tied);

/// Group `head` (vocabulary, scope output_head): the final norm tensors
/// [hidden] replicated, then the output projection `head` [vocab, hidden]
/// balanced on axis 0 unless `tied`.
Result<ParameterGroupSpec> head_group(const std::vector<std::string>& norms,
                                      const std::string& head, std::uint64_t vocab,
                                      std::uint64_t hidden, Dtype dtype, bool tied);

/// What a decoder's groups are built from: the embedding at one end, the
/// final norms and `lm_head.weight` at the other, and the layers between.
struct DecoderOutline {
  std::uint64_t layers = 0;
  std::uint64_t vocab = 0;
  std::uint64_t hidden = 0;
  Dtype dtype = Dtype::F32;
  bool tied = false;                     // uses_tied_head
  std::string embedding;                 // embedding_group's target
  std::string layer_prefix;              // layer L's tensors start with layer_prefix + "L."
  std::vector<std::string> final_norms;  // head_group's norms
  std::string head = "lm_head.weight";   // head_group's output projection
};

/// The outline of a llama-style decoder (llama, phi3, gpt_oss):
/// `model.embed_tokens.weight`, layers `model.layers.L.`, final norm
/// `model.norm.weight`, head `lm_head.weight`, tied per uses_tied_head;
/// every name after `prefix` (a multimodal checkpoint's "language_model.").
DecoderOutline decoder_outline(const DecoderConfig& config, const WeightIndex& index,
                               std::string_view prefix = {});

/// The groups of one layer in document order, given the layer's tensor
/// prefix ("model.layers.3.") and scope (indexed, that layer).
using LayerDescriber =
    std::function<Result<std::vector<ParameterGroupSpec>>(const std::string&, GroupScope)>;

/// What a model adds to its decoder's groups: groups that follow `embed` (a
/// vision tower and its projector, scoped to the embedding's stage), and a
/// `head` group of its own that replaces head_group's (a reward model's
/// scalar head).
struct DecoderExtras {
  std::vector<ParameterGroupSpec> after_embed;
  std::optional<ParameterGroupSpec> head;
};

/// A decoder's FamilyGroups: embedding_group, then `extras.after_embed`, then
/// each layer's groups in layer order, then `extras.head` or else
/// head_group; the first error in that order is returned.
Result<FamilyGroups> decoder_groups(const DecoderOutline& outline, const LayerDescriber& layer,
                                    DecoderExtras extras = {});

}  // namespace eredu
