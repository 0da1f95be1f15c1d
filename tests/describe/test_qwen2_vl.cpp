// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The qwen2_vl family (docs/describe.md, "qwen2_vl") on olmocr-7b-qwen2-vl:
// the llama-style language model and the vision tower, whose fused qkv is
// split by heads within its q, k and v segments, on the first stage only.
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

constexpr const char* kOlmocr = "olmocr-7b-qwen2-vl";
constexpr std::uint64_t kBytes = 16582751232u;

using test::topology;

TEST_CASE("qwen2_vl: every index tensor described once, bytes equal total_size") {
  const auto model = test::describe(kOlmocr);
  const auto index = test::read_json(test::example_model(kOlmocr), "model.safetensors.index.json");
  CHECK(model->tensor_count() == 730);
  CHECK(model->tensor_count() == index["weight_map"].size());
  CHECK(model->global_bytes() == kBytes);
  CHECK(model->global_bytes() == index["metadata"]["total_size"].get<std::uint64_t>());
  CHECK(model->unknown_bytes_tensors() == 0);
  CHECK(model->info() == ModelInfo{kOlmocr, 28, std::nullopt});
  // embed; patch_embed, 32 blocks of attn, norms and mlp, the merger's
  // ln_q and mlp; 28 decoder layers of three groups; head.
  REQUIRE(model->groups().size() == 1 + 1 + 3 * 32 + 2 + 3 * 28 + 1);
  const auto& groups = model->groups();
  CHECK(groups[0].logical_name() == "embed");
  CHECK(groups[1].logical_name() == "visual.patch_embed");
  CHECK(groups[2].logical_name() == "visual.blocks.0.attn");
  CHECK(groups[3].logical_name() == "visual.blocks.0.norms");
  CHECK(groups[4].logical_name() == "visual.blocks.0.mlp");
  CHECK(groups[98].logical_name() == "visual.merger.ln_q");
  CHECK(groups[99].logical_name() == "visual.merger.mlp");
  CHECK(groups[100].logical_name() == "model.layers.0.self_attn");
  CHECK(groups.back().logical_name() == "head");
  for (std::size_t i = 1; i < 100; ++i) {
    CAPTURE(groups[i].logical_name());
    CHECK(groups[i].scope() == GroupScope::embedding());
  }

  const ParameterGroupSpec& patch = groups[1];
  CHECK(patch.role() == ParameterRole::Replicated);
  CHECK(patch.members()[0].target() == "visual.patch_embed.proj.weight");
  CHECK(patch.members()[0].global_shape() == Shape{1280, 3, 2, 14, 14});

  const ParameterGroupSpec& attn = test::group_named(*model, "visual.blocks.31.attn");
  CHECK(attn.role() == ParameterRole::AttentionHeads);
  CHECK(attn.partition_units() == std::optional<std::uint64_t>{16});
  CHECK_FALSE(attn.query_units().has_value());
  const std::string a = "visual.blocks.31.attn.";
  CHECK(test::targets(attn) == std::vector<std::string>{a + "qkv.weight", a + "qkv.bias",
                                                        a + "proj.weight", a + "proj.bias"});
  const MemberSharding qkv =
      MemberSharding::partitioned_segments(0, {{0, 1280}, {1280, 2560}, {2560, 3840}});
  CHECK(attn.members()[0].global_shape() == Shape{3840, 1280});
  CHECK(attn.members()[0].sharding() == qkv);
  CHECK(attn.members()[1].sharding() == qkv);
  CHECK(attn.members()[2].sharding() == MemberSharding::partitioned(1));
  CHECK(attn.members()[3].sharding() == MemberSharding::replicated());

  CHECK(test::targets(test::group_named(*model, "visual.blocks.0.norms")) ==
        std::vector<std::string>{"visual.blocks.0.norm1.weight", "visual.blocks.0.norm1.bias",
                                 "visual.blocks.0.norm2.weight", "visual.blocks.0.norm2.bias"});

  const ParameterGroupSpec& mlp = test::group_named(*model, "visual.blocks.0.mlp");
  CHECK(mlp.role() == ParameterRole::FeedForwardIntermediate);
  CHECK(mlp.partition_units() == std::optional<std::uint64_t>{5120});
  CHECK(mlp.members()[0].global_shape() == Shape{5120, 1280});
  CHECK(mlp.members()[1].sharding() == MemberSharding::partitioned(0));
  CHECK(mlp.members()[2].global_shape() == Shape{1280, 5120});
  CHECK(mlp.members()[2].sharding() == MemberSharding::partitioned(1));
  CHECK(mlp.members()[3].sharding() == MemberSharding::replicated());

  const ParameterGroupSpec& merger = test::group_named(*model, "visual.merger.mlp");
  CHECK(merger.partition_units() == std::optional<std::uint64_t>{5120});
  CHECK(test::targets(merger) ==
        std::vector<std::string>{"visual.merger.mlp.0.weight", "visual.merger.mlp.0.bias",
                                 "visual.merger.mlp.2.weight", "visual.merger.mlp.2.bias"});
  CHECK(merger.members()[0].global_shape() == Shape{5120, 5120});
  CHECK(merger.members()[2].global_shape() == Shape{3584, 5120});

  // The language model: the llama family's table with KV-head replication.
  const ParameterGroupSpec& lm = test::group_named(*model, "model.layers.27.self_attn");
  CHECK(lm.scope() == GroupScope::indexed(27, std::nullopt));
  CHECK(lm.partition_units() == std::optional<std::uint64_t>{4});
  CHECK(lm.query_units() == std::optional<std::uint64_t>{28});
  CHECK(lm.members().size() == 7);  // q, k, v, o, then the q, k, v biases
  CHECK(test::targets(groups.back()) ==
        std::vector<std::string>{"model.norm.weight", "lm_head.weight"});
}

TEST_CASE("qwen2_vl: a vision_config of defaults (transformers 4.45's save) describes the same") {
  // olmocr-7b-qwen2-vl-tf445 is the same checkpoint with its config.json as
  // first saved: vision_config is {"in_chans": 3, "model_type": "qwen2_vl",
  // "spatial_patch_size": 14}, as upstream Qwen2-VL-7B-Instruct's.
  auto described = describe_model_dir(test::test_model("olmocr-7b-qwen2-vl-tf445"));
  REQUIRE_MESSAGE(described.has_value(), described.error().message);
  const auto& saved = described.value();
  const auto full = test::describe(kOlmocr);
  CHECK(saved->global_bytes() == kBytes);
  CHECK(saved->tensor_count() == 730);
  REQUIRE(saved->groups().size() == full->groups().size());
  for (std::size_t i = 0; i < full->groups().size(); ++i) {
    CAPTURE(full->groups()[i].logical_name());
    CHECK(saved->groups()[i] == full->groups()[i]);
  }
  const ParameterGroupSpec& patch = saved->groups()[1];
  CHECK(patch.members()[0].global_shape() == Shape{1280, 3, 2, 14, 14});
}

TEST_CASE("qwen2_vl at TP 4: rank 1 holds vision heads [4, 8) of each of q, k and v") {
  const auto model = test::describe(kOlmocr);
  auto layout = plan_rank(model, topology(4), 1, ShardingPolicy::Require);
  REQUIRE_MESSAGE(layout.has_value(), layout.error().message);
  // 4 heads of 80 rows in each 1280-row segment.
  const std::vector<IndexRange> runs{{320, 640}, {1600, 1920}, {2880, 3200}};
  const LocalTensorLayout* qkv = layout.value().tensor("visual.blocks.0.attn.qkv.weight");
  REQUIRE(qkv != nullptr);
  CHECK(qkv->placement == TensorPlacement::indices(0, runs));
  CHECK(qkv->logical_range == IndexRange{4, 8});
  CHECK(qkv->local_shape == Shape{960, 1280});
  CHECK(qkv->local_bytes == std::optional<std::uint64_t>{2457600});
  const LocalTensorLayout* bias = layout.value().tensor("visual.blocks.0.attn.qkv.bias");
  REQUIRE(bias != nullptr);
  CHECK(bias->placement == TensorPlacement::indices(0, runs));
  const LocalTensorLayout* proj = layout.value().tensor("visual.blocks.0.attn.proj.weight");
  REQUIRE(proj != nullptr);
  CHECK(proj->placement == TensorPlacement::range(1, 320, 640));
  const LocalTensorLayout* patch = layout.value().tensor("visual.patch_embed.proj.weight");
  REQUIRE(patch != nullptr);
  CHECK(patch->placement == TensorPlacement::replicated());
  const LocalTensorLayout* merger = layout.value().tensor("visual.merger.mlp.0.weight");
  REQUIRE(merger != nullptr);
  CHECK(merger->placement == TensorPlacement::range(0, 1280, 2560));
  CHECK(layout.value().totals.local_bytes == 4148630016u);
}

TEST_CASE("qwen2_vl: coverage at TP 1/2/4 and PP 2, the tower on stage 0; TP 8 is refused") {
  const auto model = test::describe(kOlmocr);
  const std::array<std::pair<std::uint64_t, std::uint64_t>, 3> rank_bytes{
      {{1, kBytes}, {2, 8293337088u}, {4, 4148630016u}}};
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
  CHECK(staged.value().ranks[0].totals.local_bytes == 4485423104u);
  CHECK(staged.value().ranks[2].totals.local_bytes == 3807913984u);
  // Stage 1 (rank 2) omits the 391 vision tensors and the embedding.
  auto last = plan_rank(model, topology(2, 2), 2, ShardingPolicy::Require);
  REQUIRE(last.has_value());
  const LocalTensorLayout* qkv = last.value().tensor("visual.blocks.0.attn.qkv.weight");
  REQUIRE(qkv != nullptr);
  CHECK(qkv->placement.kind == PlacementKind::Omit);
  CHECK(staged.value().ranks[0].totals.materialized_tensors == 1 + 391 + 14 * 12);
  CHECK(staged.value().ranks[2].totals.materialized_tensors == 14 * 12 + 2);

  // 28 query heads over 4 KV heads: above 4 ranks only 28 works (vLLM too
  // needs the 28 heads to divide).
  auto refused = plan_world(model, topology(8), ShardingPolicy::Require);
  REQUIRE_FALSE(refused.has_value());
  CHECK(refused.error().code == Status::InvalidTensor);
  CHECK(refused.error().message ==
        "logical parameter \"model.layers.0.self_attn\": 4 KV heads and 28 query heads cannot be "
        "split 8 ways: KV heads are replicated only at a multiple of 4 that divides 28; tensor "
        "sizes up to 64 that work for this group: 1, 2, 3, 4, 28");
}

TEST_CASE("qwen2_vl: vision_config refusals") {
  EditedFolder folder(kOlmocr);
  SUBCASE("no vision_config: Qwen2VLVisionConfig's defaults, the 7B tower") {
    folder.config.erase("vision_config");
    const auto model = folder.describe();
    REQUIRE_MESSAGE(model.has_value(), model.error().message);
    CHECK(model.value()->global_bytes() == kBytes);
  }
  SUBCASE("a null vision field takes its default; a given one is checked") {
    folder.config["vision_config"]["depth"] = nullptr;
    folder.config["vision_config"]["mlp_ratio"] = 0;
    Error error = folder.error();
    CHECK(error.code == Status::Parse);
    CHECK(error.message.starts_with(folder.file() +
                                    " vision_config: mlp_ratio must be a positive integer"));
  }
  SUBCASE("embed_dim not divisible by num_heads") {
    folder.config["vision_config"]["num_heads"] = 12;
    Error error = folder.error();
    CHECK(error.code == Status::Parse);
    CHECK(error.message ==
          folder.file() + " vision_config: embed_dim 1280 is not divisible by num_heads 12");
  }
  SUBCASE("a fractional mlp_ratio") {
    folder.config["vision_config"]["mlp_ratio"] = 2.5;
    Error error = folder.error();
    CHECK(error.code == Status::Parse);
    CHECK(error.message.starts_with(folder.file() +
                                    " vision_config: mlp_ratio must be a positive integer"));
  }
  SUBCASE("in_channels, the newer name, is read too") {
    folder.config["vision_config"].erase("in_chans");
    folder.config["vision_config"]["in_channels"] = 4;
    Error error = folder.error();
    CHECK(error.code == Status::CheckpointMismatch);
    // One more input channel: 1280 × 2 × 14 × 14 more BF16 elements.
    CHECK(error.message.find(std::to_string(kBytes + 1280 * 2 * 14 * 14 * 2)) != std::string::npos);
  }
  SUBCASE("more vision blocks than index tensors") {
    folder.config["vision_config"]["depth"] = 1000000000000;
    Error error = folder.error();
    CHECK(error.code == Status::CheckpointMismatch);
    CHECK(error.message ==
          "config.json vision_config declares 1000000000000 blocks but "
          "model.safetensors.index.json lists only 730 tensors");
  }
  SUBCASE("an MLX quantization") {
    folder.config["quantization"] = {{"group_size", 64}, {"bits", 4}};
    Error error = folder.error();
    CHECK(error.code == Status::UnsupportedModel);
    CHECK(error.message.ends_with("is not supported for model_type \"qwen2_vl\""));
  }
}

}  // namespace
}  // namespace eredu
