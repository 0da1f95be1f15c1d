// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The granitemoe family on granite-3.1-1b-a400m-granitemoe (docs/describe.md,
// "granitemoe"): stacked experts split by expert rank on axis 0 and by
// tensor rank on the intermediate channels.
#include <doctest/doctest.h>

#include <fmt/format.h>

#include <array>

#include "described_models.hpp"
#include "model_folders.hpp"
#include "plan/planner.hpp"
#include "plan/rank_experts.hpp"
#include "world/world.hpp"

namespace eredu {
namespace {

using Shape = std::vector<std::uint64_t>;

constexpr const char* kGranite = "granite-3.1-1b-a400m-granitemoe";

using test::topology;

TEST_CASE("granitemoe: every index tensor described once, bytes equal total_size") {
  const auto model = test::describe(kGranite);
  const auto index = test::read_json(test::example_model(kGranite), "model.safetensors.index.json");
  CHECK(model->tensor_count() == 218);
  CHECK(model->tensor_count() == index["weight_map"].size());
  CHECK(model->global_bytes() == 5338513408u);
  CHECK(model->global_bytes() == index["metadata"]["total_size"].get<std::uint64_t>());
  CHECK(model->info() == ModelInfo{kGranite, 24, 32});
  // embed, 24 layers of attention, norms, router and experts, head.
  CHECK(model->groups().size() == 1 + 24 * 4 + 1);

  const ParameterGroupSpec& router =
      test::group_named(*model, "model.layers.5.block_sparse_moe.router");
  CHECK(router.role() == ParameterRole::Replicated);
  CHECK(router.scope() == GroupScope::indexed(5, std::nullopt));
  CHECK(test::targets(router) ==
        std::vector<std::string>{"model.layers.5.block_sparse_moe.router.layer.weight"});
  CHECK(router.members()[0].global_shape() == Shape{32, 1024});

  const ParameterGroupSpec& experts =
      test::group_named(*model, "model.layers.5.block_sparse_moe.experts");
  CHECK(experts.role() == ParameterRole::ExpertIntermediate);
  CHECK(experts.partition_units() == std::optional<std::uint64_t>{512});
  CHECK(experts.scope() == GroupScope::indexed(5, std::nullopt));
  CHECK(test::targets(experts) ==
        std::vector<std::string>{"model.layers.5.block_sparse_moe.input_linear.weight",
                                 "model.layers.5.block_sparse_moe.output_linear.weight"});
  CHECK(experts.members()[0].global_shape() == Shape{32, 1024, 1024});
  CHECK(experts.members()[0].sharding() ==
        MemberSharding::partitioned_segments(1, {{0, 512}, {512, 1024}}).stacked_experts(0));
  CHECK(experts.members()[1].global_shape() == Shape{32, 1024, 512});
  CHECK(experts.members()[1].sharding() == MemberSharding::partitioned(2).stacked_experts(0));
  CHECK(experts.members()[0].dtype() == Dtype::F32);
  // Tied: the head is the final norm alone.
  CHECK(test::targets(model->groups().back()) == std::vector<std::string>{"model.norm.weight"});
}

TEST_CASE("granitemoe at TP 2 x EP 4: expert rank e holds experts [8e, 8e + 8) of every layer") {
  const auto model = test::describe(kGranite);
  for (std::uint64_t rank = 0; rank < 8; ++rank) {
    CAPTURE(rank);
    auto layout = plan_rank(model, topology(2, 1, 4), rank, ShardingPolicy::Require);
    REQUIRE_MESSAGE(layout.has_value(), layout.error().message);
    const std::uint64_t e = layout.value().coordinates.expert;
    const std::uint64_t t = layout.value().coordinates.tensor;
    // 24 layers x 8 experts of 3 MiB; tensor rank 0 holds one more of the
    // 49155 embedding rows.
    CHECK(layout.value().experts ==
          std::optional<RankExperts>{RankExperts{
              {8 * e, 8 * e + 8}, 603979776, t == 0 ? 255012864u : 255008768u, 192, 3145728}});
    for (std::uint64_t layer : {0u, 23u}) {
      const std::string moe = fmt::format("model.layers.{}.block_sparse_moe.", layer);
      const LocalTensorLayout* input = layout.value().tensor(moe + "input_linear.weight");
      REQUIRE(input != nullptr);
      // The gate rows and the up rows of this tensor rank's 256 channels.
      const std::array<IndexRange, 2> runs{IndexRange{256 * t, 256 * t + 256},
                                           IndexRange{512 + 256 * t, 768 + 256 * t}};
      CHECK(input->placement == TensorPlacement::indices(1, runs));
      CHECK(input->expert_range == std::optional<IndexRange>{IndexRange{8 * e, 8 * e + 8}});
      CHECK(input->local_shape == Shape{8, 512, 1024});
      CHECK(input->local_bytes == std::optional<std::uint64_t>{8u * 512 * 1024 * 4});
      const LocalTensorLayout* output = layout.value().tensor(moe + "output_linear.weight");
      REQUIRE(output != nullptr);
      CHECK(output->placement == TensorPlacement::range(2, 256 * t, 256 * t + 256));
      CHECK(output->expert_range == std::optional<IndexRange>{IndexRange{8 * e, 8 * e + 8}});
      CHECK(output->local_shape == Shape{8, 1024, 256});
      const LocalTensorLayout* router = layout.value().tensor(moe + "router.layer.weight");
      REQUIRE(router != nullptr);
      CHECK(router->placement == TensorPlacement::replicated());
      CHECK_FALSE(router->expert_range.has_value());
    }
  }
}

TEST_CASE("granitemoe: coverage at TP 1/2/4/8/16, PP 2, EP 2/4/8 with TP 2; refusals") {
  const auto model = test::describe(kGranite);
  const std::vector<std::array<std::uint64_t, 3>> sizes{{1, 1, 1}, {2, 1, 1},  {4, 1, 1},
                                                        {8, 1, 1}, {16, 1, 1}, {2, 2, 1},
                                                        {2, 1, 2}, {2, 1, 4},  {2, 1, 8}};
  test::check_coverage(model, sizes);
  auto experts = plan_world(model, topology(1, 1, 64), ShardingPolicy::Require);
  REQUIRE_FALSE(experts);
  CHECK(experts.error().code == Status::EmptyPartition);
  CHECK(experts.error().message ==
        "32 routed experts cannot be split over 64 expert ranks; expert sizes from 1 to 32 work");
  auto heads = plan_rank(model, topology(32, 1, 1), 0, ShardingPolicy::Require);
  REQUIRE_FALSE(heads);
  CHECK(heads.error().code == Status::InvalidTensor);
  CHECK(heads.error().message ==
        "logical parameter \"model.layers.0.self_attn\": 8 KV heads and 16 query heads cannot be "
        "split 32 ways: KV heads are replicated only at a multiple of 8 that divides 16; tensor "
        "sizes up to 64 that work for this group: 1, 2, 3, 4, 5, 6, 7, 8, 16");
}

}  // namespace
}  // namespace eredu
