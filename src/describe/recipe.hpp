// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// A model family as a declarative table (docs/describe.md, "Recipes"): the
// config.json keys that size it, the tensors of its embedding, layers and
// head, and how each one shards. describe_recipe (recipe_engine.hpp) reads
// a folder through one.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string_view>

namespace eredu::recipe {

/// A size a table names. Its value is read from config.json through the
/// recipe's Keys: Hidden (hidden_size), Intermediate (intermediate_size),
/// HeadDim (head_dim, else hidden / heads), QRows (heads × head_dim), KvRows
/// (KV heads × head_dim), QkvRows (QRows + 2 × KvRows), HeadQkvRows
/// (3 × QRows: q, k and v of every query head), GateUpRows
/// (2 × Intermediate), Vocab (vocab_size), Experts (the routed experts per
/// layer, Family::experts_key).
enum class Size : std::uint8_t {
  Hidden,
  Intermediate,
  HeadDim,
  QRows,
  KvRows,
  QkvRows,
  HeadQkvRows,
  GateUpRows,
  Vocab,
  Experts,
};

/// How a tensor shards across the tensor-parallel ranks of its group.
enum class Split : std::uint8_t {
  Replicated,   // held whole by every rank (norms, a row-parallel bias)
  Column,       // output features: partitioned on axis 0
  ColumnKv,     // Column, per KV head: held whole when KV heads are replicated
  Row,          // input features: partitioned on axis 1
  FusedQkv,     // axis 0 holds q | k | v, each partitioned by the group's units
  FusedGateUp,  // axis 0 holds gate | up, each partitioned by the group's units
};

/// When a tensor is described. With a weight index, the Present kinds mean
/// "when the index holds it"; without one (`--config-only`) they follow the
/// config: QkvBias (`attention_bias`, or the recipe's qkv_bias), OBias
/// (`attention_bias`), QkNorm (the recipe's qk_norm), Bias (the recipe's
/// bias_key), Present (never).
enum class When : std::uint8_t { Always, Present, QkvBias, OBias, QkNorm, Bias };

/// The element type of a tensor: the model's dtype, or F32 for a tensor the
/// checkpoint keeps in full precision whatever the model's (MiniMax's
/// router).
enum class Element : std::uint8_t { Model, F32 };

/// One tensor: its name after the layer prefix, its shape (outermost axis
/// first; `rank` axes of `shape` are used), its sharding, when it is
/// described and its element type. A tensor of a StackedExperts group has
/// the layer's experts on axis 0 and its Split applies to the axes after it
/// (Column is axis 1, Row axis 2).
struct Tensor {
  std::string_view name;
  std::array<Size, 3> shape;
  std::uint8_t rank;
  Split split;
  When when = When::Always;
  Element element = Element::Model;
};

/// What a layer group is and so what partitions it: Attention (its KV heads,
/// with the query heads as query units; role attention_heads), Heads (the
/// query heads, for attention without KV groups such as lightning
/// attention; role attention_heads), Mlp (the intermediate features; role
/// feed_forward_intermediate), Replicated (norms, routers; role
/// replicated), Experts (one group per routed expert E, scope {layer,
/// expert E}, partitioned by the intermediate features; role
/// expert_intermediate; `{}` in the group's and its tensors' names stands
/// for E), StackedExperts (one group whose tensors stack every routed
/// expert of the layer on axis 0, split across expert ranks there and by
/// the intermediate features within an expert; role expert_intermediate).
enum class Kind : std::uint8_t { Attention, Heads, Mlp, Replicated, Experts, StackedExperts };

/// A layer group: named by the layer prefix + `name`, its tensors in order.
struct Group {
  std::string_view name;
  Kind kind;
  std::span<const Tensor> tensors;
};

/// The config.json keys of the sizes; a family may name them its own way
/// (chatglm's `num_layers`, `ffn_hidden_size`, `multi_query_group_num`).
struct Keys {
  std::string_view hidden = "hidden_size";
  std::string_view intermediate = "intermediate_size";
  std::string_view layers = "num_hidden_layers";
  std::string_view heads = "num_attention_heads";
  std::string_view kv_heads = "num_key_value_heads";  // optional: defaults to the heads
  std::string_view head_dim = "head_dim";             // optional: hidden / heads
  std::string_view vocab = "vocab_size";
  std::string_view tied = "tie_word_embeddings";
};

/// The groups of the layers whose entry in the family's layer-type list is
/// `type` (a string, or an integer written in decimal).
struct LayerType {
  std::string_view type;
  std::span<const Group> groups;
};

/// A family: its keys, the tensors at both ends and the groups of every
/// layer.
struct Family {
  Keys keys;
  std::string_view embedding = "model.embed_tokens.weight";
  std::string_view layer_prefix = "model.layers.";
  std::span<const std::string_view> final_norms;  // [hidden] each, replicated
  std::string_view head = "lm_head.weight";
  std::span<const Group> layer;
  /// With a layer-type list (`layer_types_key`, one entry per layer), each
  /// layer has the groups of its type instead of `layer`.
  std::string_view layer_types_key;
  std::span<const LayerType> layer_types;
  /// The key of the routed experts per layer (Size::Experts, Kind::Experts);
  /// empty for a dense family.
  std::string_view experts_key;
  /// Config-only assumptions (When): q/k/v biases without `attention_bias`
  /// (qwen2), q_norm / k_norm (qwen3), and the flag that turns every
  /// When::Bias tensor on (starcoder2's `use_bias`).
  bool qkv_bias = false;
  bool qk_norm = false;
  std::string_view bias_key;
};

}  // namespace eredu::recipe
