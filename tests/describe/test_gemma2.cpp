// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The gemma2 recipe (docs/describe.md, "gemma2") on gemma2-9b-it: llama
// attention with head_dim 256 (q rows 4096 over a hidden size of 3584), four
// norms per layer, the head tied to the embedding.
#include <doctest/doctest.h>

#include <array>

#include "described_models.hpp"
#include "model_folders.hpp"
#include "world/world.hpp"

namespace eredu {
namespace {

using Shape = std::vector<std::uint64_t>;

constexpr const char* kGemma2 = "gemma2-9b-it";
constexpr std::uint64_t kBytes = 18483411968u;

TEST_CASE("gemma2: every index tensor described once, bytes equal total_size") {
  const auto model = test::describe(kGemma2);
  CHECK(model->tensor_count() == 464);
  CHECK(model->global_bytes() == kBytes);
  CHECK(model->info() == ModelInfo{kGemma2, 42, std::nullopt});
  REQUIRE(model->groups().size() == 1 + 3 * 42 + 1);
  // config.json gives no tie_word_embeddings: Gemma2Config's default, true.
  CHECK(model->groups().front().scope() == GroupScope::tied_embedding());
  CHECK(test::targets(model->groups().back()) == std::vector<std::string>{"model.norm.weight"});

  const ParameterGroupSpec& attention = test::group_named(*model, "model.layers.41.self_attn");
  CHECK(attention.role() == ParameterRole::AttentionHeads);
  CHECK(attention.members()[0].global_shape() == Shape{4096, 3584});
  CHECK(attention.members()[1].global_shape() == Shape{2048, 3584});
  CHECK(attention.members()[1].sharding() == MemberSharding::partitioned(0).kv_head());
  CHECK(attention.members()[3].global_shape() == Shape{3584, 4096});
  CHECK(attention.members()[3].sharding() == MemberSharding::partitioned(1));
  CHECK(test::targets(test::group_named(*model, "model.layers.0.norms")) ==
        std::vector<std::string>{"model.layers.0.input_layernorm.weight",
                                 "model.layers.0.post_attention_layernorm.weight",
                                 "model.layers.0.pre_feedforward_layernorm.weight",
                                 "model.layers.0.post_feedforward_layernorm.weight"});
}

TEST_CASE("gemma2: coverage at TP 1/2/4/8, KV heads replicated at TP 16") {
  const auto model = test::describe(kGemma2);
  // A rank holds 1/TP of the embedding, attention and MLP, and every norm
  // (4 × 3584 BF16 per layer, and the final one).
  const std::array<std::pair<std::uint64_t, std::uint64_t>, 4> rank_bytes{
      {{1, kBytes}, {2, 9242311680u}, {4, 4621761536u}, {8, 2311486464u}}};
  for (const auto& entry : rank_bytes) {
    const auto& tp = std::get<0>(entry);
    const auto& bytes = std::get<1>(entry);
    CAPTURE(tp);
    auto world = plan_world(model, test::topology(tp), ShardingPolicy::Require);
    REQUIRE_MESSAGE(world.has_value(), world.error().message);
    CHECK(world.value().coverage_ok());
    CHECK(world.value().ranks.front().totals.local_bytes == bytes);
    CHECK(world.value().ranks.back().totals.local_bytes == bytes);
  }
  auto replicated = plan_world(model, test::topology(16), ShardingPolicy::Require);
  REQUIRE_MESSAGE(replicated.has_value(), replicated.error().message);
  CHECK(replicated.value().coverage_ok());
}

}  // namespace
}  // namespace eredu
