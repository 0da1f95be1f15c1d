// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The qwen (v1) family (docs/describe.md, "qwen") on qwen1-72b: the
// component-major fused c_attn as a segmented projection, w1 / w2 / c_proj,
// and the dtype read from Qwen's precision flags.
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

constexpr const char* kQwen = "qwen1-72b";
constexpr std::uint64_t kBytes = 144575840256u;

using test::topology;

TEST_CASE("qwen: every index tensor described once, bytes equal total_size") {
  const auto model = test::describe(kQwen);
  const auto index = test::read_json(test::example_model(kQwen), "model.safetensors.index.json");
  CHECK(model->tensor_count() == 643);
  CHECK(model->tensor_count() == index["weight_map"].size());
  CHECK(model->global_bytes() == kBytes);
  CHECK(model->global_bytes() == index["metadata"]["total_size"].get<std::uint64_t>());
  CHECK(model->unknown_bytes_tensors() == 0);
  CHECK(model->info() == ModelInfo{kQwen, 80, std::nullopt});
  REQUIRE(model->groups().size() == 1 + 3 * 80 + 1);
  CHECK(model->groups()[1].logical_name() == "transformer.h.0.attn");
  CHECK(model->groups()[2].logical_name() == "transformer.h.0.norms");
  CHECK(model->groups()[3].logical_name() == "transformer.h.0.mlp");

  const ParameterGroupSpec& embed = model->groups().front();
  CHECK(test::targets(embed) == std::vector<std::string>{"transformer.wte.weight"});
  CHECK(embed.scope() == GroupScope::embedding());
  CHECK(embed.members()[0].global_shape() == Shape{152064, 8192});
  // No torch_dtype and bf16 = fp16 = fp32 = false: Qwen's automatic precision.
  CHECK(embed.members()[0].dtype() == Dtype::BF16);

  const ParameterGroupSpec& attn = test::group_named(*model, "transformer.h.79.attn");
  CHECK(attn.role() == ParameterRole::AttentionHeads);
  CHECK(attn.scope() == GroupScope::indexed(79, std::nullopt));
  CHECK(attn.partition_units() == std::optional<std::uint64_t>{64});
  CHECK_FALSE(attn.query_units().has_value());
  const std::string a = "transformer.h.79.attn.";
  CHECK(test::targets(attn) ==
        std::vector<std::string>{a + "c_attn.weight", a + "c_attn.bias", a + "c_proj.weight"});
  const MemberSharding qkv =
      MemberSharding::partitioned_segments(0, {{0, 8192}, {8192, 16384}, {16384, 24576}});
  CHECK(attn.members()[0].global_shape() == Shape{24576, 8192});
  CHECK(attn.members()[0].sharding() == qkv);
  CHECK(attn.members()[1].global_shape() == Shape{24576});
  CHECK(attn.members()[1].sharding() == qkv);
  CHECK(attn.members()[2].global_shape() == Shape{8192, 8192});
  CHECK(attn.members()[2].sharding() == MemberSharding::partitioned(1));

  CHECK(test::targets(test::group_named(*model, "transformer.h.0.norms")) ==
        std::vector<std::string>{"transformer.h.0.ln_1.weight", "transformer.h.0.ln_2.weight"});

  const ParameterGroupSpec& mlp = test::group_named(*model, "transformer.h.0.mlp");
  CHECK(mlp.role() == ParameterRole::FeedForwardIntermediate);
  // intermediate_size 49152 is w1 and w2 together.
  CHECK(mlp.partition_units() == std::optional<std::uint64_t>{24576});
  CHECK(test::targets(mlp) == std::vector<std::string>{"transformer.h.0.mlp.w1.weight",
                                                       "transformer.h.0.mlp.w2.weight",
                                                       "transformer.h.0.mlp.c_proj.weight"});
  CHECK(mlp.members()[0].global_shape() == Shape{24576, 8192});
  CHECK(mlp.members()[0].sharding() == MemberSharding::partitioned(0));
  CHECK(mlp.members()[1].sharding() == MemberSharding::partitioned(0));
  CHECK(mlp.members()[2].global_shape() == Shape{8192, 24576});
  CHECK(mlp.members()[2].sharding() == MemberSharding::partitioned(1));

  CHECK(test::targets(model->groups().back()) ==
        std::vector<std::string>{"transformer.ln_f.weight", "lm_head.weight"});
}

TEST_CASE("qwen at TP 8: rank 3 holds heads [24, 32) of each of c_attn's q, k and v") {
  const auto model = test::describe(kQwen);
  auto layout = plan_rank(model, topology(8), 3, ShardingPolicy::Require);
  REQUIRE_MESSAGE(layout.has_value(), layout.error().message);
  // 8 heads of 128 rows in each 8192-row segment.
  const std::vector<IndexRange> runs{{3072, 4096}, {11264, 12288}, {19456, 20480}};
  const LocalTensorLayout* c_attn = layout.value().tensor("transformer.h.0.attn.c_attn.weight");
  REQUIRE(c_attn != nullptr);
  CHECK(c_attn->placement == TensorPlacement::indices(0, runs));
  CHECK(c_attn->logical_range == IndexRange{24, 32});
  CHECK(c_attn->local_shape == Shape{3072, 8192});
  CHECK(c_attn->local_bytes == std::optional<std::uint64_t>{50331648});
  const LocalTensorLayout* bias = layout.value().tensor("transformer.h.0.attn.c_attn.bias");
  REQUIRE(bias != nullptr);
  CHECK(bias->placement == TensorPlacement::indices(0, runs));
  const LocalTensorLayout* c_proj = layout.value().tensor("transformer.h.0.attn.c_proj.weight");
  REQUIRE(c_proj != nullptr);
  CHECK(c_proj->placement == TensorPlacement::range(1, 3072, 4096));
  const LocalTensorLayout* w2 = layout.value().tensor("transformer.h.0.mlp.w2.weight");
  REQUIRE(w2 != nullptr);
  CHECK(w2->placement == TensorPlacement::range(0, 9216, 12288));
  CHECK(layout.value().totals.local_bytes == 18074288128u);
}

TEST_CASE("qwen: coverage at TP 1/2/4/8 and PP 2; TP 128 is refused") {
  const auto model = test::describe(kQwen);
  const std::array<std::pair<std::uint64_t, std::uint64_t>, 4> rank_bytes{
      {{1, kBytes}, {2, 72289239040u}, {4, 36145938432u}, {8, 18074288128u}}};
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
  CHECK(staged.value().ranks[0].totals.local_bytes == 36144611328u);
  CHECK(staged.value().ranks[2].totals.local_bytes == 36144627712u);

  auto refused = plan_world(model, topology(128), ShardingPolicy::Require);
  REQUIRE_FALSE(refused.has_value());
  CHECK(refused.error().code == Status::InvalidTensor);
  CHECK(refused.error().message.starts_with(
      "logical parameter \"transformer.h.0.attn\": 64 partition units — declared by the group — "
      "cannot be split 128 ways; tensor sizes up to 64 that work for this group: 1, 2, 3, "));
  CHECK(refused.error().message.ends_with(", 62, 63, 64"));
}

TEST_CASE("qwen: the dtype from torch_dtype or one precision flag") {
  EditedFolder folder(kQwen);
  SUBCASE("fp16") {
    folder.config["fp16"] = true;
    auto model = folder.describe();
    REQUIRE_MESSAGE(model.has_value(), model.error().message);
    CHECK(model.value()->groups().front().members()[0].dtype() == Dtype::F16);
    CHECK(model.value()->global_bytes() == kBytes);
  }
  SUBCASE("torch_dtype wins over the flags") {
    folder.config["fp16"] = true;
    folder.config["torch_dtype"] = "bfloat16";
    auto model = folder.describe();
    REQUIRE_MESSAGE(model.has_value(), model.error().message);
    CHECK(model.value()->groups().front().members()[0].dtype() == Dtype::BF16);
  }
  SUBCASE("fp32 doubles the bytes, which the index refutes") {
    folder.config["fp32"] = true;
    Error error = folder.error();
    CHECK(error.code == Status::CheckpointMismatch);
    CHECK(error.message.find("289151680512") != std::string::npos);
  }
  SUBCASE("two flags") {
    folder.config["bf16"] = true;
    folder.config["fp32"] = true;
    Error error = folder.error();
    CHECK(error.code == Status::Parse);
    CHECK(error.message ==
          folder.file() + ": at most one of bf16, fp16, fp32 may be true, got bf16, fp32");
  }
  SUBCASE("a flag that is not a boolean") {
    folder.config["bf16"] = "yes";
    Error error = folder.error();
    CHECK(error.code == Status::Parse);
    CHECK(error.message == folder.file() + ": bf16 must be a boolean, got \"yes\"");
  }
}

TEST_CASE("qwen: refusals") {
  EditedFolder folder(kQwen);
  SUBCASE("an odd intermediate_size") {
    folder.config["intermediate_size"] = 49153;
    Error error = folder.error();
    CHECK(error.code == Status::Parse);
    CHECK(error.message ==
          folder.file() + ": intermediate_size 49153 is odd; w1 and w2 each hold half of it");
  }
  SUBCASE("hidden_size not divisible by the heads, no kv_channels") {
    folder.config.erase("kv_channels");
    folder.config["num_attention_heads"] = 60;
    Error error = folder.error();
    CHECK(error.code == Status::Parse);
    CHECK(error.message == folder.file() +
                               ": hidden_size 8192 is not divisible by num_attention_heads 60 and "
                               "kv_channels is not given");
  }
  SUBCASE("a quantization_config (Qwen's GPTQ Int4 releases)") {
    folder.config["quantization_config"] = {{"quant_method", "gptq"}, {"bits", 4}};
    Error error = folder.error();
    CHECK(error.code == Status::UnsupportedModel);
    CHECK(error.message == folder.file() +
                               ": \"gptq\" quantization (quantization_config.quant_method) is "
                               "not supported");
  }
}

}  // namespace
}  // namespace eredu
