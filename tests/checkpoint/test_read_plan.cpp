// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Read-plan extents for the layouts the real files do not reach: padded
// vocabulary rows, stacked experts split by expert and tensor parallelism,
// index runs, and a checkpoint that disagrees with the layout.
#include <doctest/doctest.h>

#include "checkpoint/open.hpp"
#include "checkpoint_writer.hpp"
#include "interchange/groups_json.hpp"
#include "model/vocab_padding.hpp"
#include "model_folders.hpp"
#include "plan/planner.hpp"
#include "readplan/read_plan.hpp"
#include "readplan/read_plan_json.hpp"
#include "reassembly.hpp"

namespace eredu {
namespace {

struct Fixture {
  test::TempFolder folder;
  std::shared_ptr<const ModelDescription> model;
  Checkpoint checkpoint;

  Fixture(const std::string& groups, const std::vector<test::WrittenTensor>& tensors) {
    auto loaded = load_groups_json(groups);
    REQUIRE(loaded);
    model = loaded.value();
    test::write_safetensors(folder.str() + "/model.safetensors", tensors);
    auto opened = open_checkpoint(folder.str());
    REQUIRE(opened);
    checkpoint = std::move(opened).value();
  }

  ReadPlan plan(std::uint64_t tp, std::uint64_t ep, std::uint64_t rank) const {
    auto layout = plan_rank(model, ParallelTopology::create(tp, 1, ep, 1).value(), rank,
                            ShardingPolicy::Require);
    REQUIRE(layout);
    auto planned = build_read_plan(layout.value(), checkpoint);
    REQUIRE(planned);
    return planned.value();
  }
};

const TensorReadPlan& tensor(const ReadPlan& plan, const std::string& target) {
  for (const TensorReadPlan& read : plan.tensors) {
    if (read.target == target) return read;
  }
  FAIL("no tensor " << target);
  throw std::logic_error("unreachable");
}

TEST_CASE("padded vocabulary rows are allocated, reported and not read") {
  const std::string groups = R"({"schema":"eredu.groups.v1","model":{"name":"vocab"},"groups":[
    {"name":"embed","role":"vocabulary","scope":"embedding","members":[
      {"target":"embed","shape":[10,4],"dtype":"F32","sharding":{"kind":"balanced","axis":0}}]}]})";
  Fixture fixture(groups, {{"embed", "F32", {10, 4}, 160}});
  auto padded = pad_vocabulary(*fixture.model, 4);  // 10 rows -> 16 at TP 2
  REQUIRE(padded);
  fixture.model = padded.value();
  const std::uint64_t base = fixture.checkpoint.find("embed")->offset;
  const TensorReadPlan first = tensor(fixture.plan(2, 1, 0), "embed");
  CHECK(first.padding_rows == 0);
  CHECK(first.extents == std::vector<ReadExtent>{{0, base, 128, 1, 128, 0, 128}});
  const TensorReadPlan second = tensor(fixture.plan(2, 1, 1), "embed");
  CHECK(second.local_shape == std::vector<std::uint64_t>{8, 4});
  CHECK(second.local_bytes == 128);
  CHECK(second.read_bytes == 32);
  CHECK(second.padding_rows == 6);
  CHECK(second.extents == std::vector<ReadExtent>{{0, base + 128, 32, 1, 32, 0, 32}});
  // A multiple of 16 per rank: rank 1 holds rows [16, 32), padding only.
  auto wide = pad_vocabulary(*fixture.model, 16);
  REQUIRE(wide);
  fixture.model = wide.value();
  const TensorReadPlan only_padding = tensor(fixture.plan(2, 1, 1), "embed");
  CHECK(only_padding.local_shape == std::vector<std::uint64_t>{16, 4});
  CHECK(only_padding.padding_rows == 16);
  CHECK(only_padding.read_bytes == 0);
  CHECK(only_padding.extents.empty());
}

TEST_CASE("stacked experts at EP 2 x TP 2: one strided extent per rank") {
  // 4 experts of [6, 8] U8 rows, split by expert (axis 0) and by rows (axis 1).
  const std::string groups =
      R"({"schema":"eredu.groups.v1","model":{"name":"moe","layers":1,"experts":4},
    "groups":[{"name":"experts","role":"expert_intermediate","partition_units":6,"scope":{"layer":0},
    "members":[{"target":"w","shape":[4,6,8],"dtype":"U8",
                "sharding":{"kind":"partitioned","axis":1,"expert_axis":0}}]}]})";
  Fixture fixture(groups, {{"w", "U8", {4, 6, 8}, 192}});
  const std::uint64_t base = fixture.checkpoint.find("w")->offset;
  // Rank 3: tensor rank 1, expert rank 1: experts [2, 4), rows [3, 6).
  const TensorReadPlan read = tensor(fixture.plan(2, 2, 3), "w");
  CHECK(read.local_shape == std::vector<std::uint64_t>{2, 3, 8});
  CHECK(read.extents == std::vector<ReadExtent>{{0, base + 2 * 48 + 3 * 8, 24, 2, 48, 0, 24}});
  test::check_reassembly(fixture.model, fixture.checkpoint,
                         ParallelTopology::create(2, 1, 1, 1).value());
}

TEST_CASE("index runs: one extent per run; the whole tensor is one extent") {
  const std::string groups = R"({"schema":"eredu.groups.v1","model":{"name":"qkv"},"groups":[
    {"name":"attn","role":"attention_heads","partition_units":2,"members":[
      {"target":"qkv","shape":[12,4],"dtype":"F16",
       "sharding":{"kind":"partitioned_segments","axis":0,"segments":[[0,4],[4,8],[8,12]]}},
      {"target":"norm","shape":[4],"dtype":"F16","sharding":{"kind":"replicated"}}]}]})";
  Fixture fixture(groups, {{"norm", "F16", {4}, 8}, {"qkv", "F16", {12, 4}, 96}});
  const std::uint64_t base = fixture.checkpoint.find("qkv")->offset;
  const ReadPlan plan = fixture.plan(2, 1, 1);
  CHECK(tensor(plan, "qkv").extents == std::vector<ReadExtent>{{0, base + 16, 16, 1, 16, 0, 16},
                                                               {0, base + 48, 16, 1, 16, 16, 16},
                                                               {0, base + 80, 16, 1, 16, 32, 16}});
  CHECK(tensor(plan, "norm").extents ==
        std::vector<ReadExtent>{{0, fixture.checkpoint.find("norm")->offset, 8, 1, 8, 0, 8}});
  CHECK(plan.read_bytes == 56);
  CHECK(plan.files == std::vector<std::string>{"model.safetensors"});
  CHECK(
      read_plan_to_json(plan) ==
      R"({"format":"eredu.readplan.v1","model":"qkv","rank":1,"files":["model.safetensors"],)"
      R"("tensors":[{"target":"norm","dtype":"F16","local_shape":[4],"local_bytes":8,)"
      R"("read_bytes":8,"padding_rows":0,"extents":[{"file":0,"offset":)" +
          std::to_string(base - 8) +
          R"(,"length":8,"count":1,"stride":8,"dest":0,"dest_stride":8}]},)"
          R"({"target":"qkv","dtype":"F16","local_shape":[6,4],"local_bytes":48,"read_bytes":48,)"
          R"("padding_rows":0,"extents":[{"file":0,"offset":)" +
          std::to_string(base + 16) +
          R"(,"length":16,"count":1,"stride":16,"dest":0,"dest_stride":16},{"file":0,"offset":)" +
          std::to_string(base + 48) +
          R"(,"length":16,"count":1,"stride":16,"dest":16,"dest_stride":16},{"file":0,"offset":)" +
          std::to_string(base + 80) +
          R"(,"length":16,"count":1,"stride":16,"dest":32,"dest_stride":16}]}],)"
          R"("totals":{"tensors":2,"extents":4,"read_bytes":56,"local_bytes":56}})"
          "\n");
}

TEST_CASE("a checkpoint that disagrees with the layout: CheckpointMismatch") {
  const std::string groups = R"({"schema":"eredu.groups.v1","model":{"name":"m"},"groups":[
    {"name":"g","role":"replicated","members":[
      {"target":"a","shape":[2,2],"dtype":"F32","sharding":{"kind":"replicated"}}]}]})";
  auto mismatch = [&](const std::vector<test::WrittenTensor>& tensors) {
    Fixture fixture(groups, tensors);
    auto layout = plan_rank(fixture.model, ParallelTopology::create(1, 1, 1, 1).value(), 0,
                            ShardingPolicy::Require);
    REQUIRE(layout);
    auto plan = build_read_plan(layout.value(), fixture.checkpoint);
    REQUIRE_FALSE(plan);
    CHECK(plan.error().code == Status::CheckpointMismatch);
    return plan.error().message;
  };
  CHECK(mismatch({{"b", "F32", {2, 2}, 16}}) ==
        "rank 0 materializes tensor \"a\", which the checkpoint does not hold");
  CHECK(mismatch({{"a", "F32", {4}, 16}}) ==
        "tensor \"a\": the description has shape [2, 2], the checkpoint stores F32 of [4]");
  CHECK(mismatch({{"a", "I32", {2, 2}, 16}}) ==
        "tensor \"a\": the description has dtype F32, the checkpoint stores I32");
}

}  // namespace
}  // namespace eredu
