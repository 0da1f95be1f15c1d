// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Reading a whole rank (read_rank): the buffers equal read_tensor's and the
// file's bytes for contiguous and strided extents, whatever the threads,
// request size and gap threshold; the bytes read and kept are exact; and
// the errors: buffers that do not fit, a cancelling progress callback, a
// file truncated after planning.
#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "checkpoint/open.hpp"
#include "checkpoint_writer.hpp"
#include "describe/describe.hpp"
#include "example_files.hpp"
#include "interchange/groups_json.hpp"
#include "model_folders.hpp"
#include "plan/planner.hpp"
#include "readplan/read_plan.hpp"
#include "readplan/read_rank.hpp"
#include "readplan/read_tensor.hpp"

namespace eredu {
namespace {

ReadPlan stories_plan(std::uint64_t tp, std::uint64_t rank) {
  const std::string path = test::example_file(test::kStories);
  auto model = describe_model(path);
  REQUIRE(model);
  auto checkpoint = open_checkpoint(path);
  REQUIRE(checkpoint);
  auto layout = plan_rank(model.value(), ParallelTopology::create(tp, 1, 1, 1).value(), rank,
                          ShardingPolicy::Require);
  REQUIRE(layout);
  auto plan = build_read_plan(layout.value(), checkpoint.value());
  REQUIRE(plan);
  return plan.value();
}

// Every tensor read with read_tensor, one at a time.
std::vector<std::string> read_one_by_one(const ReadPlan& plan) {
  std::vector<std::string> tensors;
  for (std::size_t i = 0; i < plan.tensors.size(); ++i) {
    std::string bytes(plan.tensors[i].local_bytes, '\0');
    REQUIRE(read_tensor(plan, i, bytes));
    tensors.push_back(std::move(bytes));
  }
  return tensors;
}

struct RankRead {
  std::vector<std::string> tensors;
  ReadRankStats stats;
};

RankRead read_all(const ReadPlan& plan, const ReadRankOptions& options) {
  RankRead out;
  for (const TensorReadPlan& tensor : plan.tensors)
    out.tensors.emplace_back(tensor.local_bytes, '\0');
  std::vector<std::span<char>> spans(out.tensors.begin(), out.tensors.end());
  auto stats = read_rank(plan, spans, options);
  REQUIRE(stats);
  out.stats = stats.value();
  return out;
}

// The bytes read_rank reads with coalescing: a strided extent's whole span
// (one request: every span of stories260K is below 1 MiB), else its rows.
std::uint64_t coalesced_bytes(const ReadPlan& plan, std::uint64_t max_gap) {
  std::uint64_t bytes = 0;
  for (const TensorReadPlan& tensor : plan.tensors) {
    for (const ReadExtent& extent : tensor.extents) {
      const bool rows = extent.count > 1 && extent.stride != extent.length;
      bytes += rows && extent.stride - extent.length <= max_gap
                   ? (extent.count - 1) * extent.stride + extent.length
                   : extent.count * extent.length;
    }
  }
  return bytes;
}

TEST_CASE("stories260K.gguf rank 1 of TP 2: every tensor, as read_tensor reads it") {
  const ReadPlan plan = stories_plan(2, 1);
  REQUIRE(plan.tensors.size() == 48);
  REQUIRE(plan.read_bytes == 587008);
  const std::vector<std::string> expected = read_one_by_one(plan);

  SUBCASE("defaults: strided rows copied from a mapping, nothing but kept bytes read") {
    const RankRead read = read_all(plan, {});
    CHECK(read.tensors == expected);
    CHECK(read.stats.tensors == 48);
    CHECK(read.stats.bytes_kept == 587008);
    CHECK(read.stats.bytes_read == 587008);
    CHECK(read.stats.bytes_read == coalesced_bytes(plan, 0));
    // One request per extent: a pread or, for the 10 strided ones, a mapping.
    CHECK(read.stats.requests == 48);
    CHECK_FALSE(read.stats.direct);
  }
  SUBCASE("gaps up to 64 KiB coalesced: the gaps read and dropped") {
    ReadRankOptions options;
    options.max_gap_bytes = 65536;
    const RankRead read = read_all(plan, options);
    CHECK(read.tensors == expected);
    CHECK(read.stats.bytes_kept == 587008);
    CHECK(read.stats.bytes_read == coalesced_bytes(plan, 65536));
    // The row-parallel matrices of 5 layers read with the gaps between
    // their 64 rows: attn_output 63 x 128 bytes, ffn_down 63 x 344.
    CHECK(read.stats.bytes_read == 587008 + 5 * 63 * (128 + 344));
  }
  SUBCASE("small requests on three threads, one thread") {
    for (unsigned threads : {1u, 3u}) {
      ReadRankOptions options;
      options.threads = threads;
      options.request_bytes = 4096;
      const RankRead read = read_all(plan, options);
      CHECK(read.tensors == expected);
      CHECK(read.stats.bytes_kept == 587008);
      CHECK(read.stats.threads == threads);
      CHECK(read.stats.requests > 48);
    }
  }
  SUBCASE("O_DIRECT, or buffered where the file system refuses it: the same bytes") {
    ReadRankOptions options;
    options.direct = true;
    options.request_bytes = 8192;
    const RankRead read = read_all(plan, options);
    CHECK(read.tensors == expected);
    CHECK(read.stats.bytes_kept == 587008);
    CHECK(read.stats.bytes_read >= 587008);
  }
  SUBCASE("progress reaches the total; a callback returning false cancels") {
    std::uint64_t last = 0;
    std::uint64_t calls = 0;
    ReadRankOptions options;
    options.threads = 2;
    options.request_bytes = 4096;
    options.progress = [&](std::uint64_t done, std::uint64_t total) {
      CHECK(total == 587008);
      CHECK(done >= last);
      last = done;
      ++calls;
      return true;
    };
    read_all(plan, options);
    CHECK(last == 587008);
    CHECK(calls >= 1);

    options.progress = [](std::uint64_t, std::uint64_t) { return false; };
    std::vector<std::string> tensors;
    for (const TensorReadPlan& tensor : plan.tensors)
      tensors.emplace_back(tensor.local_bytes, '\0');
    std::vector<std::span<char>> spans(tensors.begin(), tensors.end());
    auto cancelled = read_rank(plan, spans, options);
    REQUIRE_FALSE(cancelled);
    CHECK(cancelled.error().code == Status::Cancelled);
  }
}

TEST_CASE("buffers that do not fit the plan: InvalidArgument") {
  const ReadPlan plan = stories_plan(2, 0);
  std::vector<std::string> tensors;
  for (const TensorReadPlan& tensor : plan.tensors) tensors.emplace_back(tensor.local_bytes, '\0');
  std::vector<std::span<char>> spans(tensors.begin(), tensors.end());
  auto fewer = read_rank(plan, std::span(spans).first(47), {});
  REQUIRE_FALSE(fewer);
  CHECK(fewer.error().code == Status::InvalidArgument);
  CHECK(fewer.error().message == "got 47 buffers for the plan's 48 tensors");
  spans[3] = spans[3].first(spans[3].size() - 1);
  auto short_buffer = read_rank(plan, spans, {});
  REQUIRE_FALSE(short_buffer);
  CHECK(short_buffer.error().code == Status::InvalidArgument);
  CHECK(short_buffer.error().message == "tensor " + plan.tensors[3].target + " needs a buffer of " +
                                            std::to_string(plan.tensors[3].local_bytes) +
                                            " bytes, got " +
                                            std::to_string(plan.tensors[3].local_bytes - 1));
  spans[3] = std::span<char>(tensors[3]);
  ReadRankOptions tiny;
  tiny.request_bytes = 512;
  auto refused = read_rank(plan, spans, tiny);
  REQUIRE_FALSE(refused);
  CHECK(refused.error().code == Status::InvalidArgument);
}

TEST_CASE("a generated safetensors file: strided experts, and truncated after planning") {
  // 4 experts of [6, 8] U8 rows, split by expert and by rows: one strided
  // extent per rank, plus a replicated F32 vector.
  const std::string groups =
      R"({"schema":"eredu.groups.v1","model":{"name":"moe","layers":1,"experts":4},
    "groups":[{"name":"experts","role":"expert_intermediate","partition_units":6,"scope":{"layer":0},
    "members":[{"target":"w","shape":[4,6,8],"dtype":"U8",
                "sharding":{"kind":"partitioned","axis":1,"expert_axis":0}}]},
    {"name":"n","role":"replicated","members":[
      {"target":"norm","shape":[16],"dtype":"F32","sharding":{"kind":"replicated"}}]}]})";
  test::TempFolder folder;
  const std::string file = folder.str() + "/model.safetensors";
  test::write_safetensors(file, {{"norm", "F32", {16}, 64}, {"w", "U8", {4, 6, 8}, 192}});
  auto model = load_groups_json(groups);
  REQUIRE(model);
  auto checkpoint = open_checkpoint(folder.str());
  REQUIRE(checkpoint);
  auto layout = plan_rank(model.value(), ParallelTopology::create(2, 1, 2, 1).value(), 3,
                          ShardingPolicy::Require);
  REQUIRE(layout);
  auto planned = build_read_plan(layout.value(), checkpoint.value());
  REQUIRE(planned);
  const ReadPlan& plan = planned.value();
  const std::uint64_t base = checkpoint.value().find("w")->offset;
  const std::string weights = test::tensor_bytes("w", 192);
  const std::vector<std::string> expected = read_one_by_one(plan);
  // Rank 3: experts [2, 4), rows [3, 6): two rows of 24 bytes, 48 apart.
  std::string w;
  for (std::uint64_t expert = 2; expert < 4; ++expert) w += weights.substr(expert * 48 + 24, 24);
  REQUIRE(plan.tensors.size() == 2);
  CHECK(plan.tensors[1].target == "w");
  CHECK(expected[1] == w);
  CHECK(expected[0] == test::tensor_bytes("norm", 64));

  const RankRead read = read_all(plan, {});
  CHECK(read.tensors == expected);
  CHECK(read.stats.bytes_kept == 64 + 48);
  CHECK(read.stats.bytes_read == 64 + 48);
  CHECK(read.stats.requests == 2);  // the norm's pread, one mapping of both rows
  ReadRankOptions span;
  span.max_gap_bytes = 24;
  const RankRead spanned = read_all(plan, span);
  CHECK(spanned.tensors == expected);
  CHECK(spanned.stats.bytes_read == 64 + 48 + 24);  // the 24-byte gap between the two rows
  CHECK(spanned.stats.requests == 2);

  // The file loses its last bytes after the plan was made.
  REQUIRE(::truncate(file.c_str(), static_cast<off_t>(base + 100)) == 0);
  std::vector<std::string> tensors = {std::string(64, '\0'), std::string(48, '\0')};
  std::vector<std::span<char>> spans(tensors.begin(), tensors.end());
  auto truncated = read_rank(plan, spans, {});
  REQUIRE_FALSE(truncated);
  CHECK(truncated.error().code == Status::Io);
  CHECK(truncated.error().message ==
        file + " holds " + std::to_string(base + 100) + " bytes, the plan reads up to byte " +
            std::to_string(base + 3 * 48 + 24 + 24) + ": it changed since the plan was made");
  std::filesystem::remove(file);
  auto missing = read_rank(plan, spans, {});
  REQUIRE_FALSE(missing);
  CHECK(missing.error().code == Status::Io);
  CHECK(missing.error().message == "cannot read " + file + ": No such file or directory");
}

TEST_CASE("RankBuffers: one aligned, zeroed buffer per tensor") {
  const ReadPlan plan = stories_plan(4, 2);
  auto buffers = RankBuffers::allocate(plan);
  REQUIRE(buffers);
  REQUIRE(buffers.value().spans().size() == plan.tensors.size());
  for (std::size_t i = 0; i < plan.tensors.size(); ++i) {
    const std::span<char> span = buffers.value().spans()[i];
    CHECK(span.size() == plan.tensors[i].local_bytes);
    CHECK(reinterpret_cast<std::uintptr_t>(span.data()) % 4096 == 0);
    CHECK(std::all_of(span.begin(), span.end(), [](char c) { return c == 0; }));
  }
  auto read = read_rank(plan, buffers.value().spans(), {});
  REQUIRE(read);
  const std::vector<std::string> expected = read_one_by_one(plan);
  for (std::size_t i = 0; i < plan.tensors.size(); ++i) {
    const std::span<char> span = buffers.value().spans()[i];
    CHECK(std::string(span.data(), span.size()) == expected[i]);
  }
}

}  // namespace
}  // namespace eredu
