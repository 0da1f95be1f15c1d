// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The coverage proof holds quantized matrices to the companion rule on the
// ranks' own placements, whatever the planner decided, and tiles a packed
// member over its physical axis: the seed's faulty plans are caught.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "interchange/groups_json.hpp"
#include "plan/planner.hpp"
#include "world/coverage.hpp"
#include "world/world.hpp"
#include "world/world_json.hpp"

namespace eredu {
namespace {

std::shared_ptr<const ModelDescription> load(const std::string& text) {
  auto model = load_groups_json(text);
  REQUIRE_MESSAGE(model.has_value(), model.error().message);
  return model.value();
}

std::vector<LocalModelLayout> layouts_of(const std::shared_ptr<const ModelDescription>& model,
                                         std::uint64_t tp, ShardingPolicy policy) {
  const ParallelTopology topology = ParallelTopology::create(tp, 1, 1, 1).value();
  std::vector<LocalModelLayout> layouts;
  for (std::uint64_t t = 0; t < tp; ++t) {
    auto layout = plan_rank(model, topology, t, policy);
    REQUIRE_MESSAGE(layout.has_value(), layout.error().message);
    layouts.push_back(std::move(layout).value());
  }
  return layouts;
}

std::vector<CoverageProblem> check(const std::shared_ptr<const ModelDescription>& model,
                                   const std::vector<LocalModelLayout>& layouts) {
  std::vector<CoverageProblem> problems;
  const auto topology = ParallelTopology::create(layouts.size(), 1, 1, 1).value();
  REQUIRE(check_tensor_parallel_group(*model, topology, layouts, problems));
  return merge_problems(std::move(problems));
}

TensorPlacement& placement_of(std::vector<LocalModelLayout>& layouts, std::size_t rank,
                              std::string_view target) {
  auto& tensors = layouts[rank].tensors;
  auto entry = std::find_if(tensors.begin(), tensors.end(),
                            [&](const LocalTensorLayout& t) { return t.target() == target; });
  REQUIRE(entry != tensors.end());
  return entry->placement;
}

std::string fp8_matrix(std::uint64_t columns) {
  return R"({"schema":"eredu.groups.v1","groups":[{"name":"m","role":"row_projection",)"
         R"("partition_units":)" +
         std::to_string(columns) + R"(,"members":[{"target":"w","shape":[1280,)" +
         std::to_string(columns) +
         R"(],"dtype":"F8_E4M3","sharding":{"kind":"partitioned","axis":1},"format":)"
         R"({"kind":"block_fp8","block":[128,128],"scale_encoding":"float","scale":"w.s"}}]}]})";
}

TEST_CASE("the seed's plan of [1280, 258] at TP 2 is a companion problem on both ranks") {
  const auto model = load(fp8_matrix(258));
  // The fallback replicates; put back what the seed planned: units gcd(258,
  // 3) = 3, rank 0 columns [0, 172) with scale [0, 2), rank 1 [172, 258)
  // with scale [2, 3).
  auto layouts = layouts_of(model, 2, ShardingPolicy::ReplicateUnsupported);
  placement_of(layouts, 0, "w") = TensorPlacement::range(1, 0, 172);
  placement_of(layouts, 0, "w.s") = TensorPlacement::range(1, 0, 2);
  placement_of(layouts, 1, "w") = TensorPlacement::range(1, 172, 258);
  placement_of(layouts, 1, "w.s") = TensorPlacement::range(1, 2, 3);
  CHECK(check(model, layouts) ==
        std::vector<CoverageProblem>{
            {"w",
             CoverageKind::Companion,
             "tensor \"w\" on tensor rank 0 of 2 holds values [0, 172) of axis 1, which do not "
             "start and end on the 128-value blocks of \"w.s\"",
             {0}},
            {"w",
             CoverageKind::Companion,
             "tensor \"w\" on tensor rank 1 of 2 holds values [172, 258) of axis 1, which do not "
             "start and end on the 128-value blocks of \"w.s\"",
             {1}}});
}

TEST_CASE("a scale moved to the other rank's block: companion, overlap and gap") {
  const auto model = load(fp8_matrix(256));
  auto layouts = layouts_of(model, 2, ShardingPolicy::Require);
  CHECK(check(model, layouts).empty());
  placement_of(layouts, 1, "w.s") = TensorPlacement::range(1, 0, 1);
  CHECK(check(model, layouts) ==
        std::vector<CoverageProblem>{
            {"w",
             CoverageKind::Companion,
             "tensor \"w.s\" on tensor rank 1 of 2 selects blocks [0, 1) of axis 1, which hold "
             "values [0, 128), but \"w\" holds values [128, 256)",
             {1}},
            {"w.s", CoverageKind::Gap, "axis 1: [1, 2) held by no rank", {0, 1}},
            {"w.s", CoverageKind::Overlap, "axis 1: [0, 1) held by ranks 0 and 1", {0, 1}}});
}

TEST_CASE("an F16 GGUF member segmented by block indices leaves half of every row's bytes") {
  const auto model = load(
      R"({"schema":"eredu.groups.v1","groups":[{"name":"m","role":"segmented","members":[)"
      R"({"target":"w","shape":[64,4096],"dtype":"F16","format":{"kind":"gguf","ggml_type":"F16"},)"
      R"("sharding":{"kind":"segmented","axis":1,"segments":[[0,2048],[2048,4096]]}}]}]})");
  auto layouts = layouts_of(model, 2, ShardingPolicy::Require);
  CHECK(check(model, layouts).empty());
  // The seed's remap in values: segments [0, 2048) and [2048, 4096) of an
  // 8192-byte axis.
  placement_of(layouts, 0, "w") =
      TensorPlacement::indices(1, std::vector<IndexRange>{{0, 1024}, {2048, 3072}});
  placement_of(layouts, 1, "w") =
      TensorPlacement::indices(1, std::vector<IndexRange>{{1024, 2048}, {3072, 4096}});
  CHECK(check(model, layouts) ==
        std::vector<CoverageProblem>{
            {"w", CoverageKind::Gap, "axis 1: [4096, 8192) held by no rank", {0, 1}}});
}

TEST_CASE("eredu.world.v1 names companion problems") {
  const auto model = load(fp8_matrix(256));
  auto layouts = layouts_of(model, 2, ShardingPolicy::Require);
  placement_of(layouts, 0, "w") = TensorPlacement::range(1, 0, 100);
  const auto problems = check(model, layouts);
  REQUIRE(problems.size() == 2);
  CHECK(problems[0].problem == CoverageKind::Companion);
  CHECK(coverage_kind_name(problems[0].problem) == "companion");
  CHECK(problems[0].detail ==
        "tensor \"w\" on tensor rank 0 of 2 holds values [0, 100) of axis 1, which do not start "
        "and end on the 128-value blocks of \"w.s\"");
  CHECK(problems[1] ==
        CoverageProblem{"w", CoverageKind::Gap, "axis 1: [100, 128) held by no rank", {0, 1}});
}

TEST_CASE("plan_world refuses on every rank and reports the fallback on every rank") {
  const auto model = load(fp8_matrix(258));
  const auto topology = ParallelTopology::create(2, 1, 1, 2).value();
  auto refused = plan_world(model, topology, ShardingPolicy::Require, WorldOptions::on_threads(2));
  REQUIRE(refused.has_error());
  CHECK(refused.error().code == Status::InvalidTensor);
  auto fallback =
      plan_world(model, topology, ShardingPolicy::ReplicateUnsupported, WorldOptions::on_threads(2))
          .value();
  CHECK(fallback.coverage_ok());
  for (const RankSummary& rank : fallback.ranks) {
    CHECK(rank.fell_back_groups == std::vector<std::uint32_t>{0});
  }
}

}  // namespace
}  // namespace eredu
