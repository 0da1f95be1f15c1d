// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The DeepSeek family (docs/describe.md, "deepseek_v2, deepseek_v3") on
// kimi-k2-mini-deepseekv3-fp8: multi-head latent attention split by heads,
// routed experts per layer and expert, block-FP8 scales as companions. The
// bundled index's total_size is refused (its router kept 384 rows and its
// total counts the shard headers), so the planning tests describe a copy
// whose total_size is the described bytes.
#include <doctest/doctest.h>

#include <fmt/format.h>

#include <array>

#include "described_models.hpp"
#include "model_folders.hpp"
#include "plan/planner.hpp"
#include "world/world.hpp"

namespace eredu {
namespace {

using Shape = std::vector<std::uint64_t>;

constexpr const char* kKimi = "kimi-k2-mini-deepseekv3-fp8";
constexpr std::uint64_t kDescribedBytes = 23738431680;

using test::member_named;
using test::topology;

// kimi with metadata.total_size set to the bytes its tensors have.
std::shared_ptr<const ModelDescription> kimi() {
  static const auto model = [] {
    test::EditedFolder folder(kKimi);
    folder.index["metadata"]["total_size"] = kDescribedBytes;
    auto described = folder.describe();
    REQUIRE_MESSAGE(described.has_value(), described.error().message);
    return described.value();
  }();
  return model;
}

TEST_CASE("kimi's own index is refused: its total_size is not its tensors' bytes") {
  auto refused = describe_model_dir(test::example_model(kKimi));
  REQUIRE_FALSE(refused.has_value());
  CHECK(refused.error().code == Status::CheckpointMismatch);
  // 23 routers of 384 BF16 rows where the config says 16 (121339904 bytes),
  // their 384-entry float32 biases (33856) and the shards' headers (323040).
  CHECK(refused.error().message ==
        "described bytes 23738431680 differ from model.safetensors.index.json "
        "metadata.total_size 23860128480 (fewer by 121696800)");
}

TEST_CASE("kimi: every index tensor described once, MLA and experts as vLLM splits them") {
  const auto model = kimi();
  CHECK(model->tensor_count() == 2623);
  CHECK(model->global_bytes() == kDescribedBytes);
  CHECK(model->info().layers == std::optional<std::uint64_t>{24});
  CHECK(model->info().experts == std::optional<std::uint64_t>{16});
  // embed, layer 0 (attention, norms, dense mlp), 23 MoE layers (attention,
  // norms, router, 16 experts), head.
  CHECK(model->groups().size() == 1 + 3 + 23 * 19 + 1);

  const ParameterGroupSpec& attn = test::group_named(*model, "model.layers.5.self_attn");
  CHECK(attn.role() == ParameterRole::AttentionHeads);
  // 64 heads reduced so that a unit is whole 128-row blocks of q_b_proj
  // (192 rows a head).
  CHECK(attn.partition_units() == std::optional<std::uint64_t>{32});
  const std::string a = "model.layers.5.self_attn.";
  const auto check = [&](const std::string& name, Shape shape, MemberSharding sharding,
                         Dtype dtype) {
    CAPTURE(name);
    const ParameterMemberSpec& member = member_named(attn, a + name);
    CHECK(member.global_shape() == shape);
    CHECK(member.sharding() == sharding);
    CHECK(member.dtype() == dtype);
  };
  check("q_a_proj.weight", {1536, 7168}, MemberSharding::replicated(), Dtype::F8E4M3);
  check("q_a_proj.weight_scale_inv", {12, 56}, MemberSharding::replicated(), Dtype::F32);
  check("q_a_layernorm.weight", {1536}, MemberSharding::replicated(), Dtype::BF16);
  check("q_b_proj.weight", {12288, 1536}, MemberSharding::partitioned(0), Dtype::F8E4M3);
  check("q_b_proj.weight_scale_inv", {96, 12}, MemberSharding::partitioned(0), Dtype::F32);
  check("kv_a_proj_with_mqa.weight", {576, 7168}, MemberSharding::replicated(), Dtype::F8E4M3);
  check("kv_a_proj_with_mqa.weight_scale_inv", {5, 56}, MemberSharding::replicated(), Dtype::F32);
  check("kv_a_layernorm.weight", {512}, MemberSharding::replicated(), Dtype::BF16);
  check("kv_b_proj.weight", {16384, 512}, MemberSharding::partitioned(0), Dtype::F8E4M3);
  check("o_proj.weight", {7168, 8192}, MemberSharding::partitioned(1), Dtype::F8E4M3);
  check("o_proj.weight_scale_inv", {56, 64}, MemberSharding::partitioned(1), Dtype::F32);
  check("rotary_emb.inv_freq", {32}, MemberSharding::replicated(), Dtype::F32);

  const ParameterGroupSpec& dense = test::group_named(*model, "model.layers.0.mlp");
  CHECK(dense.role() == ParameterRole::FeedForwardIntermediate);
  CHECK(member_named(dense, "model.layers.0.mlp.gate_proj.weight").global_shape() ==
        Shape{18432, 7168});

  const ParameterGroupSpec& router = test::group_named(*model, "model.layers.5.mlp.gate");
  CHECK(router.role() == ParameterRole::Replicated);
  CHECK(test::targets(router) ==
        std::vector<std::string>{"model.layers.5.mlp.gate.weight",
                                 "model.layers.5.mlp.gate.e_score_correction_bias"});
  CHECK(router.members()[0].global_shape() == Shape{16, 7168});
  CHECK(router.members()[1].dtype() == Dtype::F32);

  const ParameterGroupSpec& expert = test::group_named(*model, "model.layers.5.mlp.experts.3");
  CHECK(expert.role() == ParameterRole::ExpertIntermediate);
  CHECK(expert.scope() == GroupScope::indexed(5, 3));
  CHECK(expert.partition_units() == std::optional<std::uint64_t>{16});
  CHECK(member_named(expert, "model.layers.5.mlp.experts.3.down_proj.weight_scale_inv")
            .global_shape() == Shape{56, 16});
}

TEST_CASE("kimi at TP 4 x EP 4: heads and channels split in whole FP8 blocks, scales with them") {
  const auto model = kimi();
  for (std::uint64_t rank = 0; rank < 16; ++rank) {
    CAPTURE(rank);
    auto layout = plan_rank(model, topology(4, 1, 4), rank, ShardingPolicy::Require);
    REQUIRE_MESSAGE(layout.has_value(), layout.error().message);
    const std::uint64_t t = layout.value().coordinates.tensor;
    const std::uint64_t e = layout.value().coordinates.expert;
    const auto placement = [&](const std::string& target) {
      const LocalTensorLayout* tensor = layout.value().tensor(target);
      REQUIRE(tensor != nullptr);
      return tensor->placement;
    };
    const std::string a = "model.layers.7.self_attn.";
    CHECK(placement(a + "q_b_proj.weight") == TensorPlacement::range(0, 3072 * t, 3072 * t + 3072));
    CHECK(placement(a + "q_b_proj.weight_scale_inv") ==
          TensorPlacement::range(0, 24 * t, 24 * t + 24));
    CHECK(placement(a + "kv_b_proj.weight") ==
          TensorPlacement::range(0, 4096 * t, 4096 * t + 4096));
    CHECK(placement(a + "kv_b_proj.weight_scale_inv") ==
          TensorPlacement::range(0, 32 * t, 32 * t + 32));
    CHECK(placement(a + "o_proj.weight") == TensorPlacement::range(1, 2048 * t, 2048 * t + 2048));
    CHECK(placement(a + "o_proj.weight_scale_inv") ==
          TensorPlacement::range(1, 16 * t, 16 * t + 16));
    CHECK(placement(a + "kv_a_proj_with_mqa.weight") == TensorPlacement::replicated());
    // Expert rank e holds experts [4e, 4e + 4) of every MoE layer.
    for (std::uint64_t expert = 0; expert < 16; ++expert) {
      const std::string name = fmt::format("model.layers.7.mlp.experts.{}.", expert);
      if (expert / 4 == e) {
        CHECK(placement(name + "gate_proj.weight") ==
              TensorPlacement::range(0, 512 * t, 512 * t + 512));
        CHECK(placement(name + "gate_proj.weight_scale_inv") ==
              TensorPlacement::range(0, 4 * t, 4 * t + 4));
        CHECK(placement(name + "down_proj.weight_scale_inv") ==
              TensorPlacement::range(1, 4 * t, 4 * t + 4));
      } else {
        CHECK(placement(name + "gate_proj.weight").kind == PlacementKind::Omit);
      }
    }
    REQUIRE(layout.value().experts.has_value());
    CHECK(layout.value().experts->held == IndexRange{4 * e, 4 * e + 4});
  }
}

TEST_CASE("kimi: coverage at TP 1/2/4/8/16, PP 2, EP 2/4/8 with TP 2; the sizes that fail") {
  const auto model = kimi();
  const std::vector<std::array<std::uint64_t, 3>> sizes{{1, 1, 1},  {2, 1, 1}, {4, 1, 1}, {8, 1, 1},
                                                        {16, 1, 1}, {2, 2, 1}, {2, 1, 2}, {2, 1, 4},
                                                        {2, 1, 8},  {4, 1, 4}};
  test::check_coverage(model, sizes);
  auto heads = plan_rank(model, topology(32, 1, 1), 0, ShardingPolicy::Require);
  REQUIRE_FALSE(heads);
  CHECK(heads.error().code == Status::InvalidTensor);
  CHECK(heads.error().message ==
        "logical parameter \"model.layers.1.mlp.experts.0\": 16 partition units — gcd of weight "
        "rows 2048 and weight_scale_inv rows 16 — cannot be split 32 ways; tensor sizes up to 64 "
        "that work for this group: 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16");
  auto experts = plan_world(model, topology(1, 1, 32), ShardingPolicy::Require);
  REQUIRE_FALSE(experts);
  CHECK(experts.error().code == Status::EmptyPartition);
  CHECK(experts.error().message ==
        "16 routed experts cannot be split over 32 expert ranks; expert sizes from 1 to 16 work");
}

TEST_CASE("a multi-token-prediction layer is described and owned with the last layer") {
  test::EditedFolder folder(kKimi);
  folder.config["num_nextn_predict_layers"] = 1;
  // Layer 24: a copy of MoE layer 23's tensors plus the MTP tensors.
  std::vector<std::string> added;
  for (const auto& [name, file] : folder.index["weight_map"].items()) {
    if (name.starts_with("model.layers.23.")) added.push_back("model.layers.24." + name.substr(16));
  }
  for (const char* name : {"embed_tokens.weight", "enorm.weight", "hnorm.weight", "eh_proj.weight",
                           "shared_head.norm.weight", "shared_head.head.weight"}) {
    added.push_back(std::string("model.layers.24.") + name);
  }
  for (const std::string& name : added)
    folder.index["weight_map"][name] = "model-5-of-5.safetensors";
  std::uint64_t layer_bytes = 0;
  const auto base = kimi();
  for (const MemberEntry& entry : base->members()) {
    if (base->groups()[entry.group].scope().layer == std::optional<std::uint64_t>{23}) {
      layer_bytes += *entry.global_bytes;
    }
  }
  // embed_tokens and shared_head.head [163840, 7168], three norms [7168],
  // eh_proj [7168, 14336], all BF16.
  const std::uint64_t mtp_bytes =
      std::uint64_t{2} * 163840 * 7168 * 2 + 3 * 7168 * 2 + std::uint64_t{7168} * 14336 * 2;
  folder.index["metadata"]["total_size"] = kDescribedBytes + layer_bytes + mtp_bytes;
  auto described = folder.describe();
  REQUIRE_MESSAGE(described.has_value(), described.error().message);
  const auto& model = described.value();
  CHECK(model->tensor_count() == 2623 + added.size());
  const ParameterGroupSpec& mtp = test::group_named(*model, "model.layers.24.mtp");
  CHECK(mtp.scope() == GroupScope::indexed(23, std::nullopt));
  CHECK(member_named(mtp, "model.layers.24.eh_proj.weight").global_shape() == Shape{7168, 14336});
  CHECK(test::group_named(*model, "model.layers.24.mlp.experts.2").scope() ==
        GroupScope::indexed(23, 2));
  CHECK(model->groups().back().logical_name() == "head");
  // At PP 2 the last stage holds it, the first omits it.
  for (std::uint64_t rank : {0u, 1u}) {
    auto layout = plan_rank(model, topology(1, 2, 1), rank, ShardingPolicy::Require);
    REQUIRE(layout.has_value());
    const LocalTensorLayout* eh = layout.value().tensor("model.layers.24.eh_proj.weight");
    REQUIRE(eh != nullptr);
    CHECK((eh->placement.kind == PlacementKind::Omit) == (rank == 0));
  }
}

TEST_CASE("DeepSeek errors: MLA fields, quantization, deepseek_vl_v2") {
  SUBCASE("a missing kv_lora_rank") {
    test::EditedFolder folder(kKimi);
    folder.config.erase("kv_lora_rank");
    const Error error = folder.error();
    CHECK(error.code == Status::Parse);
    CHECK(error.message == folder.file() + ": required field kv_lora_rank is missing");
  }
  SUBCASE("a quantization other than fp8") {
    test::EditedFolder folder(kKimi);
    folder.config["quantization_config"] = {{"quant_method", "awq"}, {"bits", 4}};
    const Error error = folder.error();
    CHECK(error.code == Status::UnsupportedModel);
    CHECK(error.message.starts_with(folder.file() + ": "));
    CHECK(error.message.ends_with(
        " is not supported for the DeepSeek family; supported: fp8 (e4m3) with "
        "weight_block_size"));
  }
  SUBCASE("deepseek_vl_v2 names the tensors it cannot size") {
    auto refused = describe_model_dir(test::example_model("deepseek-ocr2-deepseekv2"));
    REQUIRE_FALSE(refused.has_value());
    CHECK(refused.error().code == Status::UnsupportedModel);
    CHECK(refused.error().message ==
          test::example_model("deepseek-ocr2-deepseekv2") +
              "/config.json: model_type \"deepseek_vl_v2\" is not supported: config.json does "
              "not give the shapes of its vision and projector tensors: model.projector.* (2 "
              "tensors), model.qwen2_model.* (291 tensors), model.sam_model.* (179 tensors), "
              "model.view_seperator (1 tensor)");
  }
}

}  // namespace
}  // namespace eredu
