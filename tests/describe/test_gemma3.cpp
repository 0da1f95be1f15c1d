// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The gemma3 family (docs/describe.md, "gemma3") on medgemma-27b-gemma3: the
// language model from text_config with a tied output head, the SigLIP vision
// tower and the multimodal projector on the first stage.
#include <doctest/doctest.h>

#include <array>

#include "described_models.hpp"
#include "model_folders.hpp"
#include "plan/planner.hpp"
#include "world/world.hpp"

namespace eredu {
namespace {

using Shape = std::vector<std::uint64_t>;
using test::EditedFolder;

constexpr const char* kGemma = "medgemma-27b-gemma3";
constexpr std::uint64_t kBytes = 54864813280u;

using test::topology;

TEST_CASE("gemma3: every index tensor described once, bytes equal total_size") {
  const auto model = test::describe(kGemma);
  const auto index = test::read_json(test::example_model(kGemma), "model.safetensors.index.json");
  CHECK(model->tensor_count() == 1247);
  CHECK(model->tensor_count() == index["weight_map"].size());
  CHECK(model->global_bytes() == kBytes);
  CHECK(model->global_bytes() == index["metadata"]["total_size"].get<std::uint64_t>());
  CHECK(model->unknown_bytes_tensors() == 0);
  CHECK(model->info() == ModelInfo{kGemma, 62, std::nullopt});
  // embed; embeddings, 27 encoder layers of three groups, post_layernorm,
  // projector; 62 decoder layers of three groups; head.
  REQUIRE(model->groups().size() == 1 + 1 + 3 * 27 + 1 + 1 + 3 * 62 + 1);
  const auto& groups = model->groups();
  const std::string v = "vision_tower.vision_model.";
  CHECK(groups[1].logical_name() == v + "embeddings");
  CHECK(groups[2].logical_name() == v + "encoder.layers.0.self_attn");
  CHECK(groups[3].logical_name() == v + "encoder.layers.0.norms");
  CHECK(groups[4].logical_name() == v + "encoder.layers.0.mlp");
  CHECK(groups[83].logical_name() == v + "post_layernorm");
  CHECK(groups[84].logical_name() == "multi_modal_projector");
  CHECK(groups[85].logical_name() == "language_model.model.layers.0.self_attn");
  for (std::size_t i = 1; i < 85; ++i) {
    CAPTURE(groups[i].logical_name());
    CHECK(groups[i].scope() == GroupScope::embedding());
  }

  // Tied: the index has no lm_head, so the embedding is also the head.
  const ParameterGroupSpec& embed = groups.front();
  CHECK(embed.scope() == GroupScope::tied_embedding());
  CHECK(test::targets(embed) ==
        std::vector<std::string>{"language_model.model.embed_tokens.weight"});
  CHECK(embed.members()[0].global_shape() == Shape{262208, 5376});
  CHECK(embed.members()[0].dtype() == Dtype::BF16);
  CHECK(test::targets(groups.back()) ==
        std::vector<std::string>{"language_model.model.norm.weight"});

  CHECK(test::targets(groups[1]) ==
        std::vector<std::string>{v + "embeddings.patch_embedding.weight",
                                 v + "embeddings.patch_embedding.bias",
                                 v + "embeddings.position_embedding.weight"});
  CHECK(groups[1].members()[0].global_shape() == Shape{1152, 3, 14, 14});
  CHECK(groups[1].members()[2].global_shape() == Shape{4096, 1152});

  const ParameterGroupSpec& vattn = groups[2];
  CHECK(vattn.role() == ParameterRole::AttentionHeads);
  CHECK(vattn.partition_units() == std::optional<std::uint64_t>{16});
  CHECK_FALSE(vattn.query_units().has_value());
  const std::string a = v + "encoder.layers.0.self_attn.";
  CHECK(test::targets(vattn) == std::vector<std::string>{a + "q_proj.weight", a + "k_proj.weight",
                                                         a + "v_proj.weight", a + "out_proj.weight",
                                                         a + "q_proj.bias", a + "k_proj.bias",
                                                         a + "v_proj.bias", a + "out_proj.bias"});
  CHECK(vattn.members()[0].global_shape() == Shape{1152, 1152});
  CHECK(vattn.members()[0].sharding() == MemberSharding::partitioned(0));
  CHECK(vattn.members()[3].sharding() == MemberSharding::partitioned(1));
  CHECK(vattn.members()[6].sharding() == MemberSharding::partitioned(0));
  CHECK(vattn.members()[7].sharding() == MemberSharding::replicated());

  const ParameterGroupSpec& vmlp = groups[4];
  CHECK(vmlp.partition_units() == std::optional<std::uint64_t>{4304});
  CHECK(vmlp.members()[0].global_shape() == Shape{4304, 1152});
  CHECK(vmlp.members()[2].global_shape() == Shape{1152, 4304});

  const ParameterGroupSpec& projector = groups[84];
  CHECK(projector.role() == ParameterRole::Replicated);
  CHECK(projector.members()[0].target() == "multi_modal_projector.mm_input_projection_weight");
  CHECK(projector.members()[0].global_shape() == Shape{1152, 5376});
  CHECK(projector.members()[1].global_shape() == Shape{1152});

  const std::string l = "language_model.model.layers.61.";
  const ParameterGroupSpec& attn = test::group_named(*model, l + "self_attn");
  CHECK(attn.scope() == GroupScope::indexed(61, std::nullopt));
  CHECK(attn.partition_units() == std::optional<std::uint64_t>{16});
  CHECK(attn.query_units() == std::optional<std::uint64_t>{32});
  CHECK(attn.members()[0].global_shape() == Shape{4096, 5376});  // 32 heads of 128, not hidden
  CHECK(attn.members()[1].global_shape() == Shape{2048, 5376});
  CHECK(attn.members()[1].sharding() == MemberSharding::partitioned(0).kv_head());
  CHECK(attn.members()[3].global_shape() == Shape{5376, 4096});
  const ParameterGroupSpec& norms = test::group_named(*model, l + "norms");
  CHECK(test::targets(norms) ==
        std::vector<std::string>{
            l + "input_layernorm.weight", l + "post_attention_layernorm.weight",
            l + "pre_feedforward_layernorm.weight", l + "post_feedforward_layernorm.weight",
            l + "self_attn.q_norm.weight", l + "self_attn.k_norm.weight"});
  CHECK(norms.members()[4].global_shape() == Shape{128});
  CHECK(test::group_named(*model, l + "mlp").partition_units() ==
        std::optional<std::uint64_t>{21504});
}

TEST_CASE("gemma3 at TP 8: rank 5 holds KV heads [10, 12) and vision heads [10, 12)") {
  const auto model = test::describe(kGemma);
  auto layout = plan_rank(model, topology(8), 5, ShardingPolicy::Require);
  REQUIRE_MESSAGE(layout.has_value(), layout.error().message);
  const std::string l = "language_model.model.layers.0.self_attn.";
  const LocalTensorLayout* q = layout.value().tensor(l + "q_proj.weight");
  REQUIRE(q != nullptr);
  CHECK(q->placement == TensorPlacement::range(0, 2560, 3072));
  CHECK(q->logical_range == IndexRange{10, 12});
  CHECK(q->local_shape == Shape{512, 5376});
  CHECK(q->local_bytes == std::optional<std::uint64_t>{5505024});
  const LocalTensorLayout* k = layout.value().tensor(l + "k_proj.weight");
  REQUIRE(k != nullptr);
  CHECK(k->placement == TensorPlacement::range(0, 1280, 1536));
  CHECK(k->local_shape == Shape{256, 5376});
  // SigLIP: 16 heads of 72 rows, 2 per rank.
  const std::string a = "vision_tower.vision_model.encoder.layers.0.self_attn.";
  const LocalTensorLayout* vq = layout.value().tensor(a + "q_proj.weight");
  REQUIRE(vq != nullptr);
  CHECK(vq->placement == TensorPlacement::range(0, 720, 864));
  CHECK(vq->logical_range == IndexRange{10, 12});
  CHECK(vq->local_shape == Shape{144, 1152});
  CHECK(vq->local_bytes == std::optional<std::uint64_t>{331776});
  const LocalTensorLayout* out = layout.value().tensor(a + "out_proj.weight");
  REQUIRE(out != nullptr);
  CHECK(out->placement == TensorPlacement::range(1, 720, 864));
  const LocalTensorLayout* projector =
      layout.value().tensor("multi_modal_projector.mm_input_projection_weight");
  REQUIRE(projector != nullptr);
  CHECK(projector->placement == TensorPlacement::replicated());
  CHECK(layout.value().totals.local_bytes == 6881087644u);
}

TEST_CASE("gemma3: coverage at TP 1/2/4/8/16 and PP 2; TP 32 is refused by the vision tower") {
  const auto model = test::describe(kGemma);
  const std::array<std::pair<std::uint64_t, std::uint64_t>, 5> rank_bytes{
      {{1, kBytes}, {2, 27445541488u}, {4, 13735905592u}, {8, 6881087644u}, {16, 3453678670u}}};
  for (const auto& entry : rank_bytes) {
    // Not structured bindings: clang 14 cannot capture them in CAPTURE's lambda.
    const auto& tp = std::get<0>(entry);
    const auto& bytes = std::get<1>(entry);
    CAPTURE(tp);
    auto world = plan_world(model, topology(tp), ShardingPolicy::Require);
    REQUIRE_MESSAGE(world.has_value(), world.error().message);
    CHECK(world.value().coverage_ok());
    CHECK(world.value().ranks.front().totals.local_bytes == bytes);
    CHECK(world.value().ranks.back().totals.local_bytes == bytes);
  }
  auto staged = plan_world(model, topology(2, 2), ShardingPolicy::Require);
  REQUIRE_MESSAGE(staged.has_value(), staged.error().message);
  CHECK(staged.value().coverage_ok());
  CHECK(staged.value().ranks[0].totals.local_bytes == 14645000816u);
  CHECK(staged.value().ranks[2].totals.local_bytes == 14210170880u);
  // The tied embedding is on both stages; the 439 vision and projector
  // tensors on the first only.
  auto last = plan_rank(model, topology(2, 2), 2, ShardingPolicy::Require);
  REQUIRE(last.has_value());
  CHECK(last.value().tensor("language_model.model.embed_tokens.weight")->placement.kind ==
        PlacementKind::Range);
  CHECK(last.value().tensor("multi_modal_projector.mm_input_projection_weight")->placement.kind ==
        PlacementKind::Omit);
  CHECK(staged.value().ranks[0].totals.materialized_tensors == 1 + 439 + 31 * 13);
  CHECK(staged.value().ranks[2].totals.materialized_tensors == 1 + 31 * 13 + 1);

  auto refused = plan_world(model, topology(32), ShardingPolicy::Require);
  REQUIRE_FALSE(refused.has_value());
  CHECK(refused.error().code == Status::InvalidTensor);
  CHECK(refused.error().message ==
        "logical parameter \"vision_tower.vision_model.encoder.layers.0.self_attn\": 16 partition "
        "units — declared by the group — cannot be split 32 ways; tensor sizes up to 64 that work "
        "for this group: 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16");
}

TEST_CASE("gemma3: an untied lm_head, text_config and vision_config refusals") {
  EditedFolder folder(kGemma);
  SUBCASE("an lm_head of its own") {
    folder.config["text_config"]["tie_word_embeddings"] = false;
    folder.index["weight_map"]["language_model.lm_head.weight"] =
        "model-00012-of-00012.safetensors";
    folder.index["metadata"]["total_size"] = kBytes + 262208u * 5376u * 2u;
    auto model = folder.describe();
    REQUIRE_MESSAGE(model.has_value(), model.error().message);
    CHECK(model.value()->groups().front().scope() == GroupScope::embedding());
    const ParameterGroupSpec& head = model.value()->groups().back();
    CHECK(test::targets(head) == std::vector<std::string>{"language_model.model.norm.weight",
                                                          "language_model.lm_head.weight"});
    CHECK(head.members()[1].sharding() == MemberSharding::balanced(0));
  }
  SUBCASE("no text_config") {
    folder.config.erase("text_config");
    Error error = folder.error();
    CHECK(error.code == Status::Parse);
    CHECK(error.message == folder.file() + ": required field text_config is missing");
  }
  SUBCASE("a text_config field missing") {
    folder.config["text_config"].erase("intermediate_size");
    Error error = folder.error();
    CHECK(error.code == Status::Parse);
    CHECK(error.message ==
          folder.file() + " text_config: required field intermediate_size is missing");
  }
  SUBCASE("the dtype from text_config when the top level has none") {
    folder.config.erase("torch_dtype");
    folder.config["text_config"]["torch_dtype"] = "float16";
    auto model = folder.describe();
    REQUIRE_MESSAGE(model.has_value(), model.error().message);
    CHECK(model.value()->groups().front().members()[0].dtype() == Dtype::F16);
  }
  SUBCASE("vision hidden_size not divisible by its heads") {
    folder.config["vision_config"]["num_attention_heads"] = 10;
    Error error = folder.error();
    CHECK(error.code == Status::Parse);
    CHECK(error.message == folder.file() +
                               " vision_config: hidden_size 1152 is not divisible by "
                               "num_attention_heads 10");
  }
  SUBCASE("vision_config not an object") {
    folder.config["vision_config"] = 3;
    Error error = folder.error();
    CHECK(error.code == Status::Parse);
    CHECK(error.message == folder.file() + ": vision_config must be an object, got 3");
  }
  SUBCASE("a quantization_config") {
    folder.config["quantization_config"] = {{"quant_method", "fp8"}};
    Error error = folder.error();
    CHECK(error.code == Status::UnsupportedModel);
    CHECK(error.message == folder.file() +
                               ": \"fp8\" quantization (quantization_config.quant_method) is not "
                               "supported");
  }
}

}  // namespace
}  // namespace eredu
