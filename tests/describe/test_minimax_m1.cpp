// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The minimax_m1 recipe (docs/describe.md, "minimax_m1") on MiniMax-M1's
// own metadata: 80 layers, every 8th softmax attention and the rest
// lightning attention, 32 routed experts per layer.
#include <doctest/doctest.h>

#include "described_models.hpp"
#include "model_folders.hpp"
#include "world/world.hpp"

namespace eredu {
namespace {

using Shape = std::vector<std::uint64_t>;

constexpr std::uint64_t kBytes = 912210767872u;

std::shared_ptr<const ModelDescription> minimax() {
  auto described = describe_model_dir(test::test_model("minimax-m1"));
  REQUIRE_MESSAGE(described.has_value(), described.error().message);
  return described.value();
}

TEST_CASE("minimax_m1: every index tensor described once, bytes equal total_size") {
  const auto model = minimax();
  CHECK(model->tensor_count() == 8243);
  CHECK(model->global_bytes() == kBytes);
  CHECK(model->info() == ModelInfo{"minimax-m1", 80, 32});
  // embed; per layer attention, norms, router and 32 experts; head.
  CHECK(model->groups().size() == 1 + 80 * (3 + 32) + 1);

  // attn_type_list[0] = 0: lightning attention, split by its 64 heads.
  const ParameterGroupSpec& lightning = test::group_named(*model, "model.layers.0.self_attn");
  CHECK(lightning.role() == ParameterRole::AttentionHeads);
  CHECK(lightning.partition_units() == std::optional<std::uint64_t>{64});
  CHECK(test::targets(lightning) ==
        std::vector<std::string>{"model.layers.0.self_attn.qkv_proj.weight",
                                 "model.layers.0.self_attn.output_gate.weight",
                                 "model.layers.0.self_attn.norm.weight",
                                 "model.layers.0.self_attn.out_proj.weight"});
  CHECK(lightning.members()[0].global_shape() == Shape{24576, 6144});
  CHECK(lightning.members()[2].global_shape() == Shape{8192});
  CHECK(lightning.members()[2].sharding() == MemberSharding::partitioned(0));
  CHECK(lightning.members()[3].sharding() == MemberSharding::partitioned(1));

  // attn_type_list[7] = 1: softmax attention over 8 KV heads.
  const ParameterGroupSpec& softmax = test::group_named(*model, "model.layers.7.self_attn");
  CHECK(softmax.partition_units() == std::optional<std::uint64_t>{8});
  CHECK(softmax.members()[1].global_shape() == Shape{1024, 6144});

  const ParameterGroupSpec& expert =
      test::group_named(*model, "model.layers.79.block_sparse_moe.experts.31");
  CHECK(expert.role() == ParameterRole::ExpertIntermediate);
  CHECK(expert.scope() == GroupScope::indexed(79, 31));
  CHECK(expert.members()[1].global_shape() == Shape{6144, 9216});
}

TEST_CASE("minimax_m1: coverage at TP 1/2/4/8 and TP 2 × EP 2, TP 4 × EP 8") {
  test::check_coverage(minimax(),
                       {{1, 1, 1}, {2, 1, 1}, {4, 1, 1}, {8, 1, 1}, {2, 1, 2}, {4, 1, 8}});
}

TEST_CASE("minimax_m1: attn_type_list must give a known type for every layer") {
  test::EditedFolder folder(test::EditedFolder::Path{test::test_model("minimax-m1")});
  SUBCASE("too short") {
    folder.config["attn_type_list"].erase(0);
    const Error error = folder.error();
    CHECK(error.code == Status::Parse);
    CHECK(error.message == folder.file() +
                               ": attn_type_list must list the type of each of the 80 layers "
                               "(num_hidden_layers)");
  }
  SUBCASE("an unknown type") {
    folder.config["attn_type_list"][3] = 2;
    const Error error = folder.error();
    CHECK(error.code == Status::Parse);
    CHECK(error.message == folder.file() + ": attn_type_list[3] must be one of 0, 1, got 2");
  }
}

}  // namespace
}  // namespace eredu
