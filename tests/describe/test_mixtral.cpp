// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The mixtral family on mixtral-8x7b-dolphin-2.5 (docs/describe.md,
// "mixtral"): one group per routed expert, planned with expert parallelism.
#include <doctest/doctest.h>

#include <fmt/format.h>

#include "described_models.hpp"
#include "model_folders.hpp"
#include "plan/planner.hpp"
#include "world/world.hpp"

namespace eredu {
namespace {

using Shape = std::vector<std::uint64_t>;

constexpr const char* kMixtral = "mixtral-8x7b-dolphin-2.5";

using test::topology;

TEST_CASE("mixtral: every index tensor described once, bytes equal total_size") {
  const auto model = test::describe(kMixtral);
  const auto index = test::read_json(test::example_model(kMixtral), "pytorch_model.bin.index.json");
  CHECK(model->tensor_count() == 995);
  CHECK(model->tensor_count() == index["weight_map"].size());
  CHECK(model->global_bytes() == 93405618176u);
  CHECK(model->global_bytes() == index["metadata"]["total_size"].get<std::uint64_t>());
  CHECK(model->info() == ModelInfo{kMixtral, 32, 8});
  // embed, 32 layers of attention, norms, router and 8 experts, head.
  CHECK(model->groups().size() == 1 + 32 * (3 + 8) + 1);

  const ParameterGroupSpec& router =
      test::group_named(*model, "model.layers.5.block_sparse_moe.gate");
  CHECK(router.role() == ParameterRole::Replicated);
  CHECK(router.scope() == GroupScope::indexed(5, std::nullopt));
  CHECK(router.members()[0].global_shape() == Shape{8, 4096});

  const ParameterGroupSpec& expert =
      test::group_named(*model, "model.layers.5.block_sparse_moe.experts.3");
  CHECK(expert.role() == ParameterRole::ExpertIntermediate);
  CHECK(expert.partition_units() == std::optional<std::uint64_t>{14336});
  CHECK(expert.scope() == GroupScope::indexed(5, 3));
  CHECK(test::targets(expert) ==
        std::vector<std::string>{"model.layers.5.block_sparse_moe.experts.3.w1.weight",
                                 "model.layers.5.block_sparse_moe.experts.3.w2.weight",
                                 "model.layers.5.block_sparse_moe.experts.3.w3.weight"});
  CHECK(expert.members()[0].global_shape() == Shape{14336, 4096});
  CHECK(expert.members()[0].sharding() == MemberSharding::partitioned(0));
  CHECK(expert.members()[1].global_shape() == Shape{4096, 14336});
  CHECK(expert.members()[1].sharding() == MemberSharding::partitioned(1));
  CHECK(expert.members()[0].dtype() == Dtype::BF16);
  CHECK(test::group_named(*model, "model.layers.5.self_attn").query_units() ==
        std::optional<std::uint64_t>{32});
}

TEST_CASE("mixtral at TP 2 x EP 4: expert rank e holds experts [2e, 2e + 2) of every layer") {
  const auto model = test::describe(kMixtral);
  auto world = plan_world(model, topology(2, 1, 4), ShardingPolicy::Require);
  REQUIRE_MESSAGE(world.has_value(), world.error().message);
  CHECK(world.value().coverage_ok());
  REQUIRE(world.value().ranks.size() == 8);
  for (std::uint64_t rank = 0; rank < 8; ++rank) {
    CAPTURE(rank);
    auto layout = plan_rank(model, topology(2, 1, 4), rank, ShardingPolicy::Require);
    REQUIRE(layout.has_value());
    const std::uint64_t e = layout.value().coordinates.expert;
    const std::uint64_t t = layout.value().coordinates.tensor;
    for (std::uint64_t layer : {0u, 31u}) {
      for (std::uint64_t expert = 0; expert < 8; ++expert) {
        const LocalTensorLayout* w1 = layout.value().tensor(
            fmt::format("model.layers.{}.block_sparse_moe.experts.{}.w1.weight", layer, expert));
        REQUIRE(w1 != nullptr);
        if (expert / 2 == e) {
          CHECK(w1->placement == TensorPlacement::range(0, 7168 * t, 7168 * (t + 1)));
          CHECK(w1->local_shape == Shape{7168, 4096});
        } else {
          CHECK(w1->placement.kind == PlacementKind::Omit);
        }
      }
      const LocalTensorLayout* router =
          layout.value().tensor(fmt::format("model.layers.{}.block_sparse_moe.gate.weight", layer));
      REQUIRE(router != nullptr);
      CHECK(router->placement == TensorPlacement::replicated());
    }
  }
  CHECK(world.value().ranks[0].totals.global_bytes == 93405618176u);
}

TEST_CASE("mixtral: coverage at TP 1/2/4/8, PP 2, EP 2/4/8 with TP 2; EP 16 is refused") {
  const auto model = test::describe(kMixtral);
  const std::vector<std::array<std::uint64_t, 3>> sizes{{1, 1, 1}, {2, 1, 1}, {4, 1, 1}, {8, 1, 1},
                                                        {2, 2, 1}, {2, 1, 2}, {2, 1, 4}, {2, 1, 8}};
  test::check_coverage(model, sizes);
  auto refused = plan_world(model, topology(1, 1, 16), ShardingPolicy::Require);
  REQUIRE_FALSE(refused);
  CHECK(refused.error().code == Status::EmptyPartition);
  CHECK(refused.error().message ==
        "8 routed experts cannot be split over 16 expert ranks; expert sizes from 1 to 8 work");
}

}  // namespace
}  // namespace eredu
