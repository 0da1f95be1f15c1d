// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "describe/recipe_engine.hpp"

#include <fmt/format.h>

#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "describe/decoder_config.hpp"

namespace eredu {
namespace {

using recipe::Size;
using recipe::Split;
using recipe::When;

bool uses(std::span<const recipe::Group> groups, Size size) {
  for (const recipe::Group& group : groups) {
    for (const recipe::Tensor& tensor : group.tensors) {
      for (std::uint8_t axis = 0; axis < tensor.rank; ++axis) {
        if (tensor.shape[axis] == size) return true;
      }
    }
  }
  return false;
}

// Whether any tensor of any layer's groups has `size` in its shape.
bool uses(const recipe::Family& family, Size size) {
  if (uses(family.layer, size)) return true;
  for (const recipe::LayerType& type : family.layer_types) {
    if (uses(type.groups, size)) return true;
  }
  return false;
}

// Every size of a recipe's table, read once.
struct Sizes {
  DecoderConfig config;
  AttentionRows rows;
  std::uint64_t qkv_rows = 0;
  std::uint64_t head_qkv_rows = 0;
  std::uint64_t gate_up_rows = 0;
  std::uint64_t experts = 0;
  bool bias = false;  // the recipe's bias_key

  std::uint64_t of(Size size) const {
    switch (size) {
      case Size::Hidden:
        return config.hidden_size;
      case Size::Intermediate:
        return config.intermediate_size;
      case Size::HeadDim:
        return config.head_dim;
      case Size::QRows:
        return rows.q_rows;
      case Size::KvRows:
        return rows.kv_rows;
      case Size::QkvRows:
        return qkv_rows;
      case Size::HeadQkvRows:
        return head_qkv_rows;
      case Size::GateUpRows:
        return gate_up_rows;
      case Size::Vocab:
        return config.vocab_size;
      case Size::Experts:
        return experts;
    }
    return 0;
  }
};

Result<Sizes> read_sizes(const recipe::Family& family, const ConfigFields& fields,
                         const WeightIndex& index) {
  EREDU_TRY(dtype, fields.dtype());
  EREDU_TRY(config, read_decoder_config(fields, dtype, family.keys));
  config.qkv_bias = config.qkv_bias || family.qkv_bias;
  config.qk_norm = config.qk_norm || family.qk_norm;
  std::uint64_t experts = 0;
  if (!family.experts_key.empty()) {
    EREDU_TRY(read, fields.required_count(family.experts_key.data()));
    experts = read;
  }
  EREDU_TRY(check_layer_count(config.num_hidden_layers, index.file, index.tensor_bound()));
  EREDU_TRY(rows, attention_rows(fields, config));
  Sizes sizes{config, rows};
  sizes.experts = experts;
  if (uses(family, Size::QkvRows)) {
    EREDU_TRY(qkv_rows, fields.sum("qkv rows", {rows.q_rows, rows.kv_rows, rows.kv_rows}));
    sizes.qkv_rows = qkv_rows;
  }
  if (uses(family, Size::HeadQkvRows)) {
    EREDU_TRY(head_qkv_rows,
              fields.product("3 × num_attention_heads × head_dim", {3, rows.q_rows}));
    sizes.head_qkv_rows = head_qkv_rows;
  }
  if (uses(family, Size::GateUpRows)) {
    EREDU_TRY(gate_up_rows, fields.product("gate_up rows", {config.intermediate_size, 2}));
    sizes.gate_up_rows = gate_up_rows;
  }
  if (!family.bias_key.empty()) {
    EREDU_TRY(bias, fields.flag(family.bias_key.data(), false));
    sizes.bias = bias;
  }
  return sizes;
}

// What `when` assumes without a weight index.
bool assumed(When when, const Sizes& sizes) {
  switch (when) {
    case When::Always:
      return true;
    case When::Present:
      return false;
    case When::QkvBias:
      return sizes.config.qkv_bias;
    case When::OBias:
      return sizes.config.o_bias;
    case When::QkNorm:
      return sizes.config.qk_norm;
    case When::Bias:
      return sizes.bias;
  }
  return false;
}

// The segments of a fused tensor's axis 0.
std::vector<IndexRange> segments(Split split, const Sizes& sizes) {
  if (split == Split::FusedQkv) {
    const std::uint64_t q = sizes.rows.q_rows;
    const std::uint64_t k_end = q + sizes.rows.kv_rows;
    return {IndexRange{0, q}, IndexRange{q, k_end}, IndexRange{k_end, sizes.qkv_rows}};
  }
  const std::uint64_t half = sizes.config.intermediate_size;
  return {IndexRange{0, half}, IndexRange{half, sizes.gate_up_rows}};
}

// `split` of a tensor whose first `shift` axes are not split (1 for the
// expert axis of a stacked tensor).
MemberSharding split_sharding(Split split, const Sizes& sizes, std::uint64_t shift) {
  switch (split) {
    case Split::Replicated:
      return MemberSharding::replicated();
    case Split::Column:
      return MemberSharding::partitioned(shift);
    case Split::ColumnKv:
      return MemberSharding::partitioned(shift).kv_head();
    case Split::Row:
      return MemberSharding::partitioned(shift + 1);
    case Split::FusedQkv:
    case Split::FusedGateUp:
      return MemberSharding::partitioned_segments(shift, segments(split, sizes));
  }
  return MemberSharding::replicated();
}

MemberSharding sharding(Split split, const Sizes& sizes, recipe::Kind kind) {
  if (kind != recipe::Kind::StackedExperts) return split_sharding(split, sizes, 0);
  return split_sharding(split, sizes, 1).stacked_experts(0);
}

// `name` with `{}` standing for the expert, for an expert group.
std::string expert_name(std::string_view name, std::optional<std::uint64_t> expert) {
  if (!expert) return std::string(name);
  return fmt::format(fmt::runtime(name), *expert);
}

Result<ParameterGroupSpec> layer_group(const recipe::Group& group, const Sizes& sizes,
                                       const WeightIndex& index, const std::string& prefix,
                                       GroupScope scope) {
  Members members(sizes.config.dtype);
  for (const recipe::Tensor& tensor : group.tensors) {
    std::vector<std::uint64_t> shape;
    for (std::uint8_t axis = 0; axis < tensor.rank; ++axis) {
      shape.push_back(sizes.of(tensor.shape[axis]));
    }
    std::string target = prefix + expert_name(tensor.name, scope.expert);
    if (tensor.element == recipe::Element::F32) {
      members.add(std::move(target), std::move(shape), sharding(tensor.split, sizes, group.kind),
                  Dtype::F32);
    } else if (tensor.when == When::Always) {
      members.add(std::move(target), std::move(shape), sharding(tensor.split, sizes, group.kind));
    } else {
      members.add_present(index, std::move(target), std::move(shape),
                          sharding(tensor.split, sizes, group.kind), assumed(tensor.when, sizes));
    }
  }
  std::string name = prefix + expert_name(group.name, scope.expert);
  const DecoderConfig& config = sizes.config;
  switch (group.kind) {
    case recipe::Kind::Attention: {
      // KV heads are replicated by holding k and v whole, which a fused
      // q | k | v tensor cannot: it is split by KV heads alone.
      std::optional<std::uint64_t> query_units = config.num_attention_heads;
      for (const recipe::Tensor& tensor : group.tensors) {
        if (tensor.split == Split::FusedQkv) query_units.reset();
      }
      return ParameterGroupSpec::partitioned(std::move(name), ParameterRole::AttentionHeads,
                                             config.num_key_value_heads, members.take(), scope,
                                             query_units);
    }
    case recipe::Kind::Heads:
      return ParameterGroupSpec::partitioned(std::move(name), ParameterRole::AttentionHeads,
                                             config.num_attention_heads, members.take(), scope);
    case recipe::Kind::Mlp:
      return ParameterGroupSpec::partitioned(std::move(name),
                                             ParameterRole::FeedForwardIntermediate,
                                             config.intermediate_size, members.take(), scope);
    case recipe::Kind::Experts:
    case recipe::Kind::StackedExperts:
      return ParameterGroupSpec::partitioned(std::move(name), ParameterRole::ExpertIntermediate,
                                             config.intermediate_size, members.take(), scope);
    case recipe::Kind::Replicated:
      break;
  }
  return ParameterGroupSpec::create(std::move(name), ParameterRole::Replicated, members.take(),
                                    scope);
}

// The groups of each layer: the family's `layer`, or with a layer-type
// list the groups of each layer's type. Errors: Parse for a list that is
// not an array of one entry per layer, or an entry of no known type.
Result<std::vector<std::span<const recipe::Group>>> layer_groups(const recipe::Family& family,
                                                                 const ConfigFields& fields,
                                                                 std::uint64_t layers) {
  if (family.layer_types_key.empty()) {
    return std::vector<std::span<const recipe::Group>>(layers, family.layer);
  }
  const char* key = family.layer_types_key.data();
  const nlohmann::json* list = fields.field(key);
  if (list == nullptr || !list->is_array() || list->size() != layers) {
    return failf(Status::Parse, "{}: {} must list the type of each of the {} layers ({})",
                 fields.file(), key, layers, family.keys.layers);
  }
  std::vector<std::span<const recipe::Group>> out;
  for (std::size_t layer = 0; layer < list->size(); ++layer) {
    const nlohmann::json& entry = (*list)[layer];
    std::string type;
    if (entry.is_string()) type = entry.get<std::string>();
    if (entry.is_number_integer()) type = entry.dump();
    std::string known;
    const recipe::LayerType* found = nullptr;
    for (const recipe::LayerType& candidate : family.layer_types) {
      if (candidate.type == type) found = &candidate;
      known += fmt::format("{}{}", known.empty() ? "" : ", ", candidate.type);
    }
    if (found == nullptr) {
      return failf(Status::Parse, "{}: {}[{}] must be one of {}, got {}", fields.file(), key, layer,
                   known, entry.dump());
    }
    out.push_back(found->groups);
  }
  return out;
}

}  // namespace

Result<FamilyGroups> describe_recipe(const recipe::Family& family, const ConfigFields& config,
                                     const WeightIndex& index) {
  EREDU_TRY(sizes, read_sizes(family, config, index));
  const DecoderConfig& decoder = sizes.config;
  EREDU_TRY(per_layer, layer_groups(family, config, decoder.num_hidden_layers));
  const std::string head(family.head);
  DecoderOutline outline{decoder.num_hidden_layers,
                         decoder.vocab_size,
                         decoder.hidden_size,
                         decoder.dtype,
                         uses_tied_head(decoder.tie_word_embeddings, index, head),
                         std::string(family.embedding),
                         std::string(family.layer_prefix),
                         {family.final_norms.begin(), family.final_norms.end()},
                         head};
  EREDU_TRY(described,
            decoder_groups(outline,
                           [&](const std::string& prefix,
                               GroupScope scope) -> Result<std::vector<ParameterGroupSpec>> {
                             std::vector<ParameterGroupSpec> groups;
                             for (const recipe::Group& group : per_layer[*scope.layer]) {
                               const std::uint64_t count =
                                   group.kind == recipe::Kind::Experts ? sizes.experts : 1;
                               for (std::uint64_t expert = 0; expert < count; ++expert) {
                                 const GroupScope at =
                                     group.kind == recipe::Kind::Experts
                                         ? GroupScope::indexed(scope.layer, expert)
                                         : scope;
                                 EREDU_TRY(built, layer_group(group, sizes, index, prefix, at));
                                 groups.push_back(std::move(built));
                               }
                             }
                             return groups;
                           }));
  if (!family.experts_key.empty()) described.experts = sizes.experts;
  return described;
}

}  // namespace eredu
