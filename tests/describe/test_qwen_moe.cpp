// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The qwen2_moe, qwen3_moe and qwen3_5_moe families (docs/describe.md) on
// tiny synthetic folders: routed experts, the shared expert, dense layers,
// text_config, hybrid Gated DeltaNet / gated attention layers, and the
// refusals.
#include <doctest/doctest.h>

#include <fmt/format.h>

#include <string>
#include <utility>
#include <vector>

#include "describe/describe.hpp"
#include "described_models.hpp"
#include "model_folders.hpp"
#include "plan/planner.hpp"
#include "world/world.hpp"

namespace eredu {
namespace {

using nlohmann::json;
using Shape = std::vector<std::uint64_t>;

using test::group_named;
using test::targets;

// hidden 64, 4 query heads and 2 KV heads of head_dim 16, vocab 100.
constexpr std::uint64_t kHidden = 64;
constexpr std::uint64_t kVocab = 100;

// Tensor names and element counts, written as a weight index of 2-byte
// elements.
class Tensors {
 public:
  void add(std::string name, std::uint64_t elements) {
    tensors_.emplace_back(std::move(name), elements);
  }
  // Attention with q_proj of `q_proj_rows` rows (64, or 128 with an output
  // gate), q/k/v biases or q_norm / k_norm, and the layer norms.
  void attention(const std::string& p, std::uint64_t q_proj_rows, bool biases, bool qk_norm) {
    add(p + "self_attn.q_proj.weight", q_proj_rows * kHidden);
    add(p + "self_attn.k_proj.weight", 32 * kHidden);
    add(p + "self_attn.v_proj.weight", 32 * kHidden);
    add(p + "self_attn.o_proj.weight", kHidden * 64);
    if (biases) {
      add(p + "self_attn.q_proj.bias", q_proj_rows);
      add(p + "self_attn.k_proj.bias", 32);
      add(p + "self_attn.v_proj.bias", 32);
    }
    if (qk_norm) {
      add(p + "self_attn.q_norm.weight", 16);
      add(p + "self_attn.k_norm.weight", 16);
    }
  }
  void norms(const std::string& p) {
    add(p + "input_layernorm.weight", kHidden);
    add(p + "post_attention_layernorm.weight", kHidden);
  }
  void mlp(const std::string& p, const std::string& name, std::uint64_t intermediate) {
    for (const char* proj : {".gate_proj.weight", ".up_proj.weight", ".down_proj.weight"}) {
      add(p + name + proj, intermediate * kHidden);
    }
  }
  // Router, `experts` routed experts of `intermediate` channels, and a shared
  // expert of `shared` channels with its gate unless `shared` is 0.
  void moe(const std::string& p, std::uint64_t experts, std::uint64_t intermediate,
           std::uint64_t shared) {
    add(p + "mlp.gate.weight", experts * kHidden);
    for (std::uint64_t e = 0; e < experts; ++e)
      mlp(p, fmt::format("mlp.experts.{}", e), intermediate);
    if (shared > 0) {
      mlp(p, "mlp.shared_expert", shared);
      add(p + "mlp.shared_expert_gate.weight", kHidden);
    }
  }
  // Embedding, final norm and lm_head under `prefix`.
  void ends(const std::string& prefix, bool head) {
    add(prefix + "embed_tokens.weight", kVocab * kHidden);
    add(prefix + "norm.weight", kHidden);
    if (head) add("lm_head.weight", kVocab * kHidden);
  }
  json index() const {
    json map = json::object();
    std::uint64_t bytes = 0;
    for (const auto& [name, elements] : tensors_) {
      map[name] = "model.safetensors";
      bytes += elements * 2;
    }
    return {{"metadata", {{"total_size", bytes}}}, {"weight_map", map}};
  }

 private:
  std::vector<std::pair<std::string, std::uint64_t>> tensors_;
};

// A temporary model folder.
struct Folder {
  test::TempFolder folder;
  json config;
  json index;

  Result<std::shared_ptr<const ModelDescription>> describe() const {
    folder.write("config.json", config.dump());
    folder.write("model.safetensors.index.json", index.dump());
    return describe_model_dir(folder.str());
  }
  std::shared_ptr<const ModelDescription> described() const {
    auto model = describe();
    REQUIRE_MESSAGE(model.has_value(), model.error().message);
    return model.value();
  }
  Error error() const {
    auto model = describe();
    REQUIRE_FALSE(model.has_value());
    return model.error();
  }
  std::string file() const { return folder.str() + "/config.json"; }
};

json attention_fields() {
  return {{"hidden_size", kHidden},      {"num_attention_heads", 4},
          {"num_key_value_heads", 2},    {"head_dim", 16},
          {"vocab_size", kVocab},        {"rms_norm_eps", 1e-6},
          {"tie_word_embeddings", false}};
}

// qwen2_moe: 3 layers, layer 1 dense (mlp_only_layers); 4 routed experts of
// 32 channels, a shared expert of 48, dense MLP 96; q/k/v biases.
void qwen2_moe(Folder& out) {
  out.config = attention_fields();
  out.config.update({{"model_type", "qwen2_moe"},
                     {"torch_dtype", "bfloat16"},
                     {"num_hidden_layers", 3},
                     {"intermediate_size", 96},
                     {"num_experts", 4},
                     {"moe_intermediate_size", 32},
                     {"shared_expert_intermediate_size", 48},
                     {"decoder_sparse_step", 1},
                     {"mlp_only_layers", json::array({1})}});
  Tensors tensors;
  tensors.ends("model.", true);
  for (int layer = 0; layer < 3; ++layer) {
    const std::string p = fmt::format("model.layers.{}.", layer);
    tensors.attention(p, 64, true, false);
    tensors.norms(p);
    if (layer == 1) {
      tensors.mlp(p, "mlp", 96);
    } else {
      tensors.moe(p, 4, 32, 48);
    }
  }
  out.index = tensors.index();
}

// qwen3_5_moe with a text_config: 2 layers, linear then full attention (by
// layer_types, which wins over full_attention_interval); Gated DeltaNet of 2
// key heads and 4 value heads of 8 channels (key dim 16, value dim 32, conv
// dim 64); 4 routed experts of 32 channels, a shared expert of 16.
void qwen3_5_moe(Folder& out) {
  json text = attention_fields();
  text.update({{"model_type", "qwen3_5_moe_text"},
               {"dtype", "float16"},
               {"num_hidden_layers", 2},
               {"layer_types", json::array({"linear_attention", "full_attention"})},
               {"full_attention_interval", 1},
               {"linear_num_key_heads", 2},
               {"linear_num_value_heads", 4},
               {"linear_key_head_dim", 8},
               {"linear_value_head_dim", 8},
               {"linear_conv_kernel_dim", 4},
               {"num_experts", 4},
               {"moe_intermediate_size", 32},
               {"shared_expert_intermediate_size", 16}});
  text.erase("tie_word_embeddings");
  out.config = {{"model_type", "qwen3_5_moe"},
                {"text_config", text},
                {"tie_word_embeddings", false},
                {"vision_config", {{"depth", 2}}}};
  Tensors tensors;
  const std::string lm = "model.language_model.";
  tensors.ends(lm, true);
  const std::string linear = lm + "layers.0.linear_attn.";
  tensors.add(linear + "in_proj_qkv.weight", 64 * kHidden);
  tensors.add(linear + "in_proj_z.weight", 32 * kHidden);
  tensors.add(linear + "in_proj_b.weight", 4 * kHidden);
  tensors.add(linear + "in_proj_a.weight", 4 * kHidden);
  tensors.add(linear + "conv1d.weight", 64 * 4);
  tensors.add(linear + "dt_bias", 4);
  tensors.add(linear + "A_log", 4);
  tensors.add(linear + "norm.weight", 8);
  tensors.add(linear + "out_proj.weight", kHidden * 32);
  tensors.attention(lm + "layers.1.", 128, false, true);
  for (int layer = 0; layer < 2; ++layer) {
    const std::string p = fmt::format("{}layers.{}.", lm, layer);
    tensors.norms(p);
    tensors.moe(p, 4, 32, 16);
  }
  out.index = tensors.index();
}

const LocalTensorLayout& tensor(const LocalModelLayout& layout, const std::string& target) {
  const LocalTensorLayout* found = layout.tensor(target);
  REQUIRE_MESSAGE(found != nullptr, target);
  return *found;
}

std::vector<std::string> names(const ModelDescription& model) {
  std::vector<std::string> out;
  for (const ParameterGroupSpec& group : model.groups()) out.push_back(group.logical_name());
  return out;
}

TEST_CASE("qwen2_moe: routed experts, a shared expert, a dense layer from mlp_only_layers") {
  Folder folder;
  qwen2_moe(folder);
  const auto model = folder.described();
  CHECK(model->info().layers == 3);
  CHECK(model->info().experts == std::optional<std::uint64_t>{4});
  std::vector<std::string> expected{"embed"};
  for (int layer = 0; layer < 3; ++layer) {
    const std::string p = fmt::format("model.layers.{}.", layer);
    expected.insert(expected.end(), {p + "self_attn", p + "norms"});
    if (layer == 1) {
      expected.push_back(p + "mlp");
      continue;
    }
    expected.push_back(p + "mlp.gate");
    for (int e = 0; e < 4; ++e) expected.push_back(fmt::format("{}mlp.experts.{}", p, e));
    expected.push_back(p + "mlp.shared_expert");
  }
  expected.push_back("head");
  CHECK(names(*model) == expected);

  const ParameterGroupSpec& router = group_named(*model, "model.layers.2.mlp.gate");
  CHECK(router.role() == ParameterRole::Replicated);
  CHECK(router.scope() == GroupScope::indexed(2, std::nullopt));
  CHECK(router.members()[0].global_shape() == Shape{4, 64});

  const ParameterGroupSpec& expert = group_named(*model, "model.layers.2.mlp.experts.3");
  CHECK(expert.role() == ParameterRole::ExpertIntermediate);
  CHECK(expert.partition_units() == std::optional<std::uint64_t>{32});
  CHECK(expert.scope() == GroupScope::indexed(2, 3));
  CHECK(targets(expert) ==
        std::vector<std::string>{"model.layers.2.mlp.experts.3.gate_proj.weight",
                                 "model.layers.2.mlp.experts.3.up_proj.weight",
                                 "model.layers.2.mlp.experts.3.down_proj.weight"});
  CHECK(expert.members()[0].global_shape() == Shape{32, 64});
  CHECK(expert.members()[0].sharding() == MemberSharding::partitioned(0));
  CHECK(expert.members()[1].sharding() == MemberSharding::partitioned(0));
  CHECK(expert.members()[2].global_shape() == Shape{64, 32});
  CHECK(expert.members()[2].sharding() == MemberSharding::partitioned(1));
  CHECK(expert.members()[2].dtype() == Dtype::BF16);

  const ParameterGroupSpec& shared = group_named(*model, "model.layers.0.mlp.shared_expert");
  CHECK(shared.role() == ParameterRole::ExpertIntermediate);
  CHECK(shared.partition_units() == std::optional<std::uint64_t>{48});
  CHECK(shared.scope() == GroupScope::indexed(0, std::nullopt));
  CHECK(targets(shared) ==
        std::vector<std::string>{"model.layers.0.mlp.shared_expert.gate_proj.weight",
                                 "model.layers.0.mlp.shared_expert.up_proj.weight",
                                 "model.layers.0.mlp.shared_expert.down_proj.weight",
                                 "model.layers.0.mlp.shared_expert_gate.weight"});
  CHECK(shared.members()[2].global_shape() == Shape{64, 48});
  CHECK(shared.members()[3].global_shape() == Shape{1, 64});
  CHECK(shared.members()[3].sharding() == MemberSharding::replicated());

  const ParameterGroupSpec& dense = group_named(*model, "model.layers.1.mlp");
  CHECK(dense.role() == ParameterRole::FeedForwardIntermediate);
  CHECK(dense.partition_units() == std::optional<std::uint64_t>{96});
  CHECK(targets(group_named(*model, "model.layers.0.self_attn")).size() == 7);  // with biases

  // TP 2 × EP 2: expert rank e holds experts [2e, 2e + 2) of each MoE layer;
  // every rank holds its half of the shared expert and of the dense MLP.
  auto world = plan_world(model, test::topology(2, 1, 2), ShardingPolicy::Require);
  REQUIRE_MESSAGE(world.has_value(), world.error().message);
  CHECK(world.value().coverage_ok());
  for (std::uint64_t rank = 0; rank < 4; ++rank) {
    CAPTURE(rank);
    auto layout = plan_rank(model, test::topology(2, 1, 2), rank, ShardingPolicy::Require);
    REQUIRE(layout.has_value());
    const std::uint64_t e = layout.value().coordinates.expert;
    const std::uint64_t t = layout.value().coordinates.tensor;
    for (std::uint64_t expert = 0; expert < 4; ++expert) {
      const LocalTensorLayout& down = tensor(
          layout.value(), fmt::format("model.layers.2.mlp.experts.{}.down_proj.weight", expert));
      if (expert / 2 == e) {
        CHECK(down.placement == TensorPlacement::range(1, 16 * t, 16 * t + 16));
        CHECK(down.local_shape == Shape{64, 16});
      } else {
        CHECK(down.placement.kind == PlacementKind::Omit);
      }
    }
    CHECK(tensor(layout.value(), "model.layers.0.mlp.shared_expert.up_proj.weight").placement ==
          TensorPlacement::range(0, 24 * t, 24 * t + 24));
    CHECK(tensor(layout.value(), "model.layers.0.mlp.shared_expert_gate.weight").placement ==
          TensorPlacement::replicated());
    CHECK(tensor(layout.value(), "model.layers.1.mlp.down_proj.weight").placement ==
          TensorPlacement::range(1, 48 * t, 48 * t + 48));
  }
}

TEST_CASE("qwen3_moe: no shared expert, decoder_sparse_step, q_norm / k_norm") {
  Folder folder;
  folder.config = attention_fields();
  folder.config.update({{"model_type", "qwen3_moe"},
                        {"torch_dtype", "bfloat16"},
                        {"num_hidden_layers", 4},
                        {"intermediate_size", 96},
                        {"num_experts", 2},
                        {"moe_intermediate_size", 32},
                        {"decoder_sparse_step", 2},
                        {"mlp_only_layers", json::array()}});
  Tensors tensors;
  tensors.ends("model.", true);
  for (int layer = 0; layer < 4; ++layer) {
    const std::string p = fmt::format("model.layers.{}.", layer);
    tensors.attention(p, 64, false, true);
    tensors.norms(p);
    // Layers 1 and 3 (L + 1 a multiple of 2) are sparse.
    if (layer % 2 == 1) {
      tensors.moe(p, 2, 32, 0);
    } else {
      tensors.mlp(p, "mlp", 96);
    }
  }
  folder.index = tensors.index();
  const auto model = folder.described();
  CHECK(model->info().experts == std::optional<std::uint64_t>{2});
  CHECK(model->groups().size() == 1 + 2 * 3 + 2 * 5 + 1);
  CHECK(group_named(*model, "model.layers.0.mlp").role() == ParameterRole::FeedForwardIntermediate);
  CHECK(group_named(*model, "model.layers.3.mlp.experts.1").scope() == GroupScope::indexed(3, 1));
  CHECK(targets(group_named(*model, "model.layers.3.norms")) ==
        std::vector<std::string>{"model.layers.3.input_layernorm.weight",
                                 "model.layers.3.post_attention_layernorm.weight",
                                 "model.layers.3.self_attn.q_norm.weight",
                                 "model.layers.3.self_attn.k_norm.weight"});
  auto world = plan_world(model, test::topology(2, 1, 2), ShardingPolicy::Require);
  REQUIRE_MESSAGE(world.has_value(), world.error().message);
  CHECK(world.value().coverage_ok());

  // A shared expert in the index is not part of qwen3_moe.
  tensors.mlp("model.layers.1.", "mlp.shared_expert", 16);
  folder.index = tensors.index();
  const Error error = folder.error();
  CHECK(error.code == Status::CheckpointMismatch);
  CHECK(error.message.find("3 index tensors not described: "
                           "\"model.layers.1.mlp.shared_expert.down_proj.weight\"") !=
        std::string::npos);
}

TEST_CASE("qwen3_5_moe: text_config, model.language_model., Gated DeltaNet and gated attention") {
  Folder folder;
  qwen3_5_moe(folder);
  const auto model = folder.described();
  CHECK(model->info().layers == 2);
  CHECK(model->info().experts == std::optional<std::uint64_t>{4});
  const std::string l0 = "model.language_model.layers.0.";
  const std::string l1 = "model.language_model.layers.1.";
  CHECK(names(*model) ==
        std::vector<std::string>{"embed", l0 + "linear_attn", l0 + "norms", l0 + "mlp.gate",
                                 l0 + "mlp.experts.0", l0 + "mlp.experts.1", l0 + "mlp.experts.2",
                                 l0 + "mlp.experts.3", l0 + "mlp.shared_expert", l1 + "self_attn",
                                 l1 + "norms", l1 + "mlp.gate", l1 + "mlp.experts.0",
                                 l1 + "mlp.experts.1", l1 + "mlp.experts.2", l1 + "mlp.experts.3",
                                 l1 + "mlp.shared_expert", "head"});
  CHECK(model->groups().front().members()[0].target() ==
        "model.language_model.embed_tokens.weight");
  CHECK(targets(model->groups().back()) ==
        std::vector<std::string>{"model.language_model.norm.weight", "lm_head.weight"});

  const ParameterGroupSpec& linear = group_named(*model, l0 + "linear_attn");
  CHECK(linear.role() == ParameterRole::Channels);
  CHECK(linear.partition_units() == std::optional<std::uint64_t>{2});
  CHECK(linear.query_units() == std::nullopt);
  const std::vector<IndexRange> qkv{{0, 16}, {16, 32}, {32, 64}};
  const std::vector<std::pair<Shape, MemberSharding>> members{
      {{64, 64}, MemberSharding::partitioned_segments(0, qkv)},
      {{32, 64}, MemberSharding::partitioned(0)},
      {{4, 64}, MemberSharding::partitioned(0)},
      {{4, 64}, MemberSharding::partitioned(0)},
      {{64, 1, 4}, MemberSharding::partitioned_segments(0, qkv)},
      {{4}, MemberSharding::partitioned(0)},
      {{4}, MemberSharding::partitioned(0)},
      {{8}, MemberSharding::replicated()},
      {{64, 32}, MemberSharding::partitioned(1)}};
  REQUIRE(linear.members().size() == members.size());
  for (std::size_t i = 0; i < members.size(); ++i) {
    CAPTURE(linear.members()[i].target());
    CHECK(linear.members()[i].global_shape() == members[i].first);
    CHECK(linear.members()[i].sharding() == members[i].second);
    CHECK(linear.members()[i].dtype() == Dtype::F16);
  }
  CHECK(linear.members()[4].target() == l0 + "linear_attn.conv1d.weight");

  const ParameterGroupSpec& attention = group_named(*model, l1 + "self_attn");
  CHECK(attention.partition_units() == std::optional<std::uint64_t>{2});
  CHECK(attention.query_units() == std::optional<std::uint64_t>{4});
  CHECK(attention.members()[0].global_shape() == Shape{128, 64});  // values and gates
  CHECK(attention.members()[3].global_shape() == Shape{64, 64});   // o_proj

  // TP 2, tensor rank 1: key head 1 with value heads 2 and 3, of every
  // segment; query heads 2 and 3 with their gates.
  auto layout = plan_rank(model, test::topology(2, 1, 1), 1, ShardingPolicy::Require);
  REQUIRE_MESSAGE(layout.has_value(), layout.error().message);
  const std::vector<IndexRange> runs{{8, 16}, {24, 32}, {48, 64}};
  CHECK(tensor(layout.value(), l0 + "linear_attn.in_proj_qkv.weight").placement ==
        TensorPlacement::indices(0, runs));
  CHECK(tensor(layout.value(), l0 + "linear_attn.conv1d.weight").placement ==
        TensorPlacement::indices(0, runs));
  CHECK(tensor(layout.value(), l0 + "linear_attn.conv1d.weight").local_shape == Shape{32, 1, 4});
  CHECK(tensor(layout.value(), l0 + "linear_attn.in_proj_z.weight").placement ==
        TensorPlacement::range(0, 16, 32));
  CHECK(tensor(layout.value(), l0 + "linear_attn.in_proj_b.weight").placement ==
        TensorPlacement::range(0, 2, 4));
  CHECK(tensor(layout.value(), l0 + "linear_attn.A_log").placement ==
        TensorPlacement::range(0, 2, 4));
  CHECK(tensor(layout.value(), l0 + "linear_attn.norm.weight").placement ==
        TensorPlacement::replicated());
  CHECK(tensor(layout.value(), l0 + "linear_attn.out_proj.weight").placement ==
        TensorPlacement::range(1, 16, 32));
  CHECK(tensor(layout.value(), l1 + "self_attn.q_proj.weight").placement ==
        TensorPlacement::range(0, 64, 128));
  CHECK(tensor(layout.value(), l1 + "self_attn.o_proj.weight").placement ==
        TensorPlacement::range(1, 32, 64));
  auto world = plan_world(model, test::topology(2, 1, 2), ShardingPolicy::Require);
  REQUIRE_MESSAGE(world.has_value(), world.error().message);
  CHECK(world.value().coverage_ok());
}

TEST_CASE("qwen3_5_moe_text: a flat config, full_attention_interval, model. prefix, tied") {
  Folder folder;
  qwen3_5_moe(folder);
  json text = folder.config["text_config"];
  text.erase("layer_types");
  text["num_hidden_layers"] = 4;
  text["full_attention_interval"] = 2;  // layers 1 and 3 are full attention
  text["tie_word_embeddings"] = true;
  folder.config = text;
  Tensors tensors;
  tensors.ends("model.", false);
  for (int layer = 0; layer < 4; ++layer) {
    const std::string p = fmt::format("model.layers.{}.", layer);
    if (layer % 2 == 1) {
      tensors.attention(p, 128, false, true);
    } else {
      for (const auto& [name, elements] :
           std::vector<std::pair<std::string, std::uint64_t>>{{"in_proj_qkv.weight", 64 * 64},
                                                              {"in_proj_z.weight", 32 * 64},
                                                              {"in_proj_b.weight", 4 * 64},
                                                              {"in_proj_a.weight", 4 * 64},
                                                              {"conv1d.weight", 64 * 4},
                                                              {"dt_bias", 4},
                                                              {"A_log", 4},
                                                              {"norm.weight", 8},
                                                              {"out_proj.weight", 64 * 32}}) {
        tensors.add(p + "linear_attn." + name, elements);
      }
    }
    tensors.norms(p);
    tensors.moe(p, 4, 32, 16);
  }
  folder.index = tensors.index();
  const auto model = folder.described();
  CHECK(model->groups().front().scope() == GroupScope::tied_embedding());
  CHECK(model->groups()[1].logical_name() == "model.layers.0.linear_attn");
  CHECK(group_named(*model, "model.layers.3.self_attn").members()[0].global_shape() ==
        Shape{128, 64});
  CHECK(group_named(*model, "model.layers.2.linear_attn").partition_units() ==
        std::optional<std::uint64_t>{2});

  // Without the output gate q_proj has half the rows the index holds.
  folder.config["attn_output_gate"] = false;
  const Error error = folder.error();
  CHECK(error.code == Status::CheckpointMismatch);
  CHECK(error.message.find("(fewer by 16384)") != std::string::npos);
}

TEST_CASE("qwen MoE families: refusals") {
  Folder folder;
  qwen3_5_moe(folder);
  json& text = folder.config["text_config"];
  const std::string nested = folder.file() + " text_config: ";
  SUBCASE("linear value heads not a multiple of the key heads") {
    text["linear_num_value_heads"] = 3;
    const Error error = folder.error();
    CHECK(error.code == Status::Parse);
    CHECK(error.message ==
          nested + "linear_num_value_heads 3 is not a multiple of linear_num_key_heads 2");
  }
  SUBCASE("a Gated DeltaNet field missing") {
    text.erase("linear_conv_kernel_dim");
    const Error error = folder.error();
    CHECK(error.code == Status::Parse);
    CHECK(error.message == nested + "required field linear_conv_kernel_dim is missing");
  }
  SUBCASE("a Gated DeltaNet dimension overflowing 64 bits") {
    text["linear_key_head_dim"] = std::uint64_t{1} << 63;
    const Error error = folder.error();
    CHECK(error.code == Status::Parse);
    CHECK(error.message == nested + "linear_num_key_heads × linear_key_head_dim overflows 64 bits");
  }
  SUBCASE("layer_types of another length") {
    text["layer_types"] = json::array({"full_attention"});
    const Error error = folder.error();
    CHECK(error.code == Status::Parse);
    CHECK(error.message == nested +
                               "layer_types must list the type of each of the 2 layers "
                               "(num_hidden_layers), got 1 entries");
  }
  SUBCASE("an unknown layer type") {
    text["layer_types"][1] = "sliding_attention";
    const Error error = folder.error();
    CHECK(error.code == Status::Parse);
    CHECK(error.message == nested +
                               "layer_types[1] must be \"full_attention\" or "
                               "\"linear_attention\", got \"sliding_attention\"");
  }
  SUBCASE("more routed experts than index tensors") {
    text["num_experts"] = std::uint64_t{1} << 62;
    const Error error = folder.error();
    CHECK(error.code == Status::CheckpointMismatch);
    CHECK(error.message == fmt::format("config.json declares 4611686018427387904 routed experts "
                                       "in each of 2 layers but model.safetensors.index.json "
                                       "lists only {} tensors",
                                       folder.index["weight_map"].size()));
  }
  SUBCASE("text_config not an object") {
    folder.config["text_config"] = 3;
    const Error error = folder.error();
    CHECK(error.code == Status::Parse);
    CHECK(error.message == folder.file() + ": text_config must be an object, got 3");
  }
  SUBCASE("the dtype falls back to config.json's") {
    text.erase("dtype");
    CHECK(folder.error().message ==
          folder.file() + ": neither torch_dtype nor dtype is given, so tensor bytes are unknown");
    folder.config["torch_dtype"] = "float16";
    CHECK(folder.describe().has_value());
  }
  SUBCASE("mlp_only_layers makes a layer dense, which needs intermediate_size") {
    text["mlp_only_layers"] = json::array({0});
    CHECK(folder.error().message == nested + "required field intermediate_size is missing");
    text["mlp_only_layers"] = "0";
    CHECK(folder.error().message ==
          nested + "mlp_only_layers must be an array of layer indices, got \"0\"");
    text["mlp_only_layers"] = json::array({-1});
    CHECK(folder.error().message ==
          nested + "mlp_only_layers[0] must be a layer index (an integer from 0), got -1");
  }
  SUBCASE("qwen2_moe needs the shared expert's width") {
    Folder qwen2;
    qwen2_moe(qwen2);
    qwen2.config.erase("shared_expert_intermediate_size");
    const Error error = qwen2.error();
    CHECK(error.code == Status::Parse);
    CHECK(error.message ==
          qwen2.file() + ": required field shared_expert_intermediate_size is missing");
  }
}

}  // namespace
}  // namespace eredu
