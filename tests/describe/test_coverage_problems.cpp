// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Coverage finds overlaps, gaps and ownership faults in hand-broken layouts,
// and eredu.world.v1 reports them exactly.
#include <doctest/doctest.h>

#include "interchange/groups_json.hpp"
#include "plan/planner.hpp"
#include "world/coverage.hpp"
#include "world/world_json.hpp"

namespace eredu {
namespace {

// The eredu.groups.v1 example of docs/interchange.md: one attention group of
// layer 0, 32 layers.
constexpr const char* kAttention = R"({"schema":"eredu.groups.v1",
  "model":{"name":"example","layers":32},
  "groups":[{"name":"model.layers.0.self_attn","role":"attention_heads","partition_units":8,
    "scope":{"layer":0},"members":[
      {"target":"model.layers.0.self_attn.q_proj.weight","shape":[4096,4096],"dtype":"BF16",
       "sharding":{"kind":"partitioned","axis":0}},
      {"target":"model.layers.0.self_attn.o_proj.weight","shape":[4096,4096],"dtype":"BF16",
       "sharding":{"kind":"partitioned","axis":1}}]}]})";

// A segmented tensor whose rows outside the segments belong to nobody.
constexpr const char* kSegmented = R"({"schema":"eredu.groups.v1","groups":[
  {"name":"fused","role":"segmented","members":[
    {"target":"fused.weight","shape":[12,4],"dtype":"F32",
     "sharding":{"kind":"segmented","axis":0,"segments":[[0,4],[6,12]]}}]}]})";

// Every sharding kind in one group of 4 logical units.
constexpr const char* kEveryKind = R"({"schema":"eredu.groups.v1","groups":[
  {"name":"mixed","role":"column_projection","partition_units":4,"members":[
    {"target":"a.equal","shape":[8,4],"dtype":"F32","sharding":{"kind":"equal","axis":0}},
    {"target":"b.balanced","shape":[3,7],"dtype":"F32","sharding":{"kind":"balanced","axis":1}},
    {"target":"c.partitioned","shape":[8,2],"dtype":"F32",
     "sharding":{"kind":"partitioned","axis":0}},
    {"target":"d.partitioned_segments","shape":[16,2],"dtype":"F32",
     "sharding":{"kind":"partitioned_segments","axis":0,"segments":[[0,8],[8,16]]}},
    {"target":"e.segmented","shape":[10,2],"dtype":"F32",
     "sharding":{"kind":"segmented","axis":0,"segments":[[0,4],[6,10]]}},
    {"target":"f.replicated","shape":[3],"dtype":"F32","sharding":{"kind":"replicated"}}]}]})";

std::shared_ptr<const ModelDescription> load(const char* text) {
  auto model = load_groups_json(text);
  REQUIRE_MESSAGE(model.has_value(), model.error().message);
  return model.value();
}

// The layouts of tensor-parallel group (pipeline `stage`) of TP 2 × PP 2.
std::vector<LocalModelLayout> tp_group(const std::shared_ptr<const ModelDescription>& model,
                                       std::uint64_t tp, std::uint64_t pp, std::uint64_t stage) {
  const ParallelTopology topology = ParallelTopology::create(tp, pp, 1, 1).value();
  std::vector<LocalModelLayout> layouts;
  for (std::uint64_t t = 0; t < tp; ++t) {
    auto layout = plan_rank(model, topology, stage * tp + t, ShardingPolicy::Require);
    REQUIRE_MESSAGE(layout.has_value(), layout.error().message);
    layouts.push_back(std::move(layout).value());
  }
  return layouts;
}

std::vector<CoverageProblem> check(const std::shared_ptr<const ModelDescription>& model,
                                   std::uint64_t tp, std::uint64_t pp,
                                   const std::vector<LocalModelLayout>& layouts) {
  std::vector<CoverageProblem> problems;
  auto checked = check_tensor_parallel_group(*model, ParallelTopology::create(tp, pp, 1, 1).value(),
                                             layouts, problems);
  REQUIRE_MESSAGE(checked.has_value(), checked.error().message);
  return merge_problems(std::move(problems));
}

// layouts[r] entry for `target`, writable.
TensorPlacement& placement_of(std::vector<LocalModelLayout>& layouts, std::size_t r,
                              std::string_view target) {
  for (LocalTensorLayout& tensor : layouts[r].tensors) {
    if (tensor.target() == target) return tensor.placement;
  }
  FAIL("no tensor " << target);
  return layouts[r].tensors.front().placement;
}

const std::string kQ = "model.layers.0.self_attn.q_proj.weight";
const std::string kO = "model.layers.0.self_attn.o_proj.weight";

TEST_CASE("the planner's own layouts tile exactly") {
  auto model = load(kAttention);
  CHECK(check(model, 2, 2, tp_group(model, 2, 2, 0)).empty());
  CHECK(check(model, 2, 2, tp_group(model, 2, 2, 1)).empty());
}

TEST_CASE("every sharding kind tiles at TP 1, 2 and 4") {
  auto model = load(kEveryKind);
  for (std::uint64_t tp : {1, 2, 4}) {
    CAPTURE(tp);
    CHECK(check(model, tp, 1, tp_group(model, tp, 1, 0)).empty());
  }
}

TEST_CASE("a repeated shard index: overlap and gap") {
  auto model = load(kEveryKind);
  auto layouts = tp_group(model, 2, 1, 0);
  placement_of(layouts, 1, "a.equal") = TensorPlacement::shard(0, 0, 2);
  auto problems = check(model, 2, 1, layouts);
  REQUIRE(problems.size() == 2);
  CHECK(problems[0] ==
        CoverageProblem{"a.equal", CoverageKind::Gap, "axis 0: [4, 8) held by no rank", {0, 1}});
  CHECK(problems[1] ==
        CoverageProblem{
            "a.equal", CoverageKind::Overlap, "axis 0: [0, 4) held by ranks 0 and 1", {0, 1}});
}

TEST_CASE("two ranks selecting the same rows: overlap") {
  auto model = load(kAttention);
  auto layouts = tp_group(model, 2, 1, 0);
  placement_of(layouts, 1, kQ) = TensorPlacement::range(0, 1024, 4096);
  auto problems = check(model, 2, 1, layouts);
  REQUIRE(problems.size() == 1);
  CHECK(problems[0] ==
        CoverageProblem{
            kQ, CoverageKind::Overlap, "axis 0: [1024, 2048) held by ranks 0 and 1", {0, 1}});
}

TEST_CASE("rows no rank selects: gap; a complete copy beside slices: overlap") {
  auto model = load(kAttention);
  auto layouts = tp_group(model, 2, 1, 0);
  placement_of(layouts, 1, kQ) = TensorPlacement::range(0, 2048, 3072);
  placement_of(layouts, 0, kO) = TensorPlacement::replicated();
  auto problems = check(model, 2, 1, layouts);
  REQUIRE(problems.size() == 2);
  // Sorted by target: o_proj before q_proj.
  CHECK(problems[0] ==
        CoverageProblem{
            kO, CoverageKind::Overlap, "axis 1: [2048, 4096) held by ranks 0 and 1", {0, 1}});
  CHECK(problems[1] ==
        CoverageProblem{kQ, CoverageKind::Gap, "axis 0: [3072, 4096) held by no rank", {0, 1}});
}

TEST_CASE("an owner that omits and a non-owner that holds: ownership") {
  auto model = load(kAttention);
  // Layer 0 belongs to stage 0 of 2.
  auto owners = tp_group(model, 2, 2, 0);
  placement_of(owners, 1, kO) = TensorPlacement::omit();
  auto problems = check(model, 2, 2, owners);
  REQUIRE(problems.size() == 2);
  CHECK(problems[0] ==
        CoverageProblem{kO, CoverageKind::Gap, "axis 1: [2048, 4096) held by no rank", {0}});
  CHECK(problems[1] ==
        CoverageProblem{
            kO, CoverageKind::Ownership, "scope layer 0: omitted on an owning rank", {1}});

  auto others = tp_group(model, 2, 2, 1);
  placement_of(others, 0, kQ) = TensorPlacement::range(0, 0, 2048);
  problems = check(model, 2, 2, others);
  REQUIRE(problems.size() == 2);
  CHECK(problems[0].problem == CoverageKind::Gap);
  CHECK(problems[1] ==
        CoverageProblem{
            kQ, CoverageKind::Ownership, "scope layer 0: materialized on a non-owning rank", {2}});
}

TEST_CASE("segmented domains: rows outside the segments are not required") {
  auto model = load(kSegmented);
  auto layouts = tp_group(model, 2, 1, 0);
  CHECK(check(model, 2, 1, layouts).empty());
  // Rank 1 keeps only the second segment's half: rows [2, 4) go missing.
  placement_of(layouts, 1, "fused.weight") =
      TensorPlacement::indices(0, std::vector<IndexRange>{{9, 12}});
  auto problems = check(model, 2, 1, layouts);
  REQUIRE(problems.size() == 1);
  CHECK(
      problems[0] ==
      CoverageProblem{"fused.weight", CoverageKind::Gap, "axis 0: [2, 4) held by no rank", {0, 1}});
}

TEST_CASE("eredu.world.v1 with problems, to the byte") {
  auto model = load(kAttention);
  const ParallelTopology topology = ParallelTopology::create(2, 1, 1, 1).value();
  auto layouts = tp_group(model, 2, 1, 0);
  WorldPlan world{model, topology, ShardingPolicy::Require, {}, {}};
  for (const LocalModelLayout& layout : layouts) {
    world.ranks.push_back({layout.rank, layout.coordinates, layout.totals, {}});
  }
  placement_of(layouts, 1, kQ) = TensorPlacement::range(0, 1024, 4096);
  world.problems = check(model, 2, 1, layouts);
  CHECK(world_to_json(world) ==
        R"({"schema":"eredu.world.v1","topology":{"tensor":2,"pipeline":1,"expert":1,"data":1},)"
        R"("policy":"require","global_bytes":67108864,"ranks":[)"
        R"({"rank":0,"coordinates":{"tensor":0,"pipeline":0,"expert":0,"data":0},)"
        R"("totals":{"local_bytes":33554432,"global_bytes":67108864,"materialized_tensors":2,)"
        R"("omitted_tensors":0},"fell_back_groups":[]},)"
        R"({"rank":1,"coordinates":{"tensor":1,"pipeline":0,"expert":0,"data":0},)"
        R"("totals":{"local_bytes":33554432,"global_bytes":67108864,"materialized_tensors":2,)"
        R"("omitted_tensors":0},"fell_back_groups":[]}],)"
        R"("coverage":{"ok":false,"tensors":2,"problems":[)"
        R"({"target":"model.layers.0.self_attn.q_proj.weight","problem":"overlap",)"
        R"("detail":"axis 0: [1024, 2048) held by ranks 0 and 1","ranks":[0,1]}]}})"
        "\n");
}

TEST_CASE("problems from several tensor-parallel groups merge by target, kind and detail") {
  std::vector<CoverageProblem> problems = {
      {"b", CoverageKind::Gap, "axis 0: [0, 1) held by no rank", {2, 3}},
      {"a", CoverageKind::Ownership, "x", {5}},
      {"b", CoverageKind::Gap, "axis 0: [0, 1) held by no rank", {0, 1}},
      {"a", CoverageKind::Gap, "y", {4}},
  };
  auto merged = merge_problems(problems);
  REQUIRE(merged.size() == 3);
  CHECK(merged[0].target == "a");
  CHECK(merged[0].problem == CoverageKind::Gap);
  CHECK(merged[1].problem == CoverageKind::Ownership);
  CHECK(merged[2].ranks == std::vector<std::uint64_t>{0, 1, 2, 3});
}

}  // namespace
}  // namespace eredu
