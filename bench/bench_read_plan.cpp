// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Read plans (docs/checkpoints.md, "Read plans"):
// - generating them for every rank of the ~90,000-tensor DeepSeek-V3-scale
//   description at 128 ranks (TP 8 x PP 2 x EP 8), against planning those
//   ranks (target: at most twice the planning time);
// - reading a 1 GiB safetensors checkpoint at TP 4 through the plans, from
//   the page cache, against a plain sequential read of the same file
//   (target: at least 80 % of its throughput), with the bytes each rank
//   reads against a loader that reads every tensor whole.
// usage: bench_read_plan [--benchmark_*] (writes a 1 GiB file in $TMPDIR)
#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "checkpoint/open.hpp"
#include "deepseek_description.hpp"
#include "interchange/groups_json.hpp"
#include "plan/planner.hpp"
#include "readplan/read_plan.hpp"
#include "readplan/read_tensor.hpp"

namespace {

using namespace eredu;

const std::shared_ptr<const ModelDescription>& description() {
  static const auto model = bench::deepseek_v3_description();
  return model;
}

ParallelTopology world_topology() { return ParallelTopology::create(8, 2, 8, 1).value(); }

// The description's tensors as stored, 64 GiB per file, in document order.
const Checkpoint& stored_description() {
  static const Checkpoint checkpoint = [] {
    Checkpoint out;
    constexpr std::uint64_t kFileBytes = 64ull << 30;
    std::uint64_t offset = kFileBytes;
    for (const ParameterGroupSpec& group : description()->groups()) {
      for (const ParameterMemberSpec& member : group.members()) {
        std::uint64_t bytes = dtype_size(member.dtype().value_or(Dtype::U8));
        for (std::uint64_t dimension : member.global_shape()) bytes *= dimension;
        if (offset + bytes > kFileBytes) {
          out.files.push_back("model-" + std::to_string(out.files.size()) + ".safetensors");
          offset = 8;
        }
        const Dtype dtype = member.dtype().value_or(Dtype::U8);
        out.tensors.push_back({member.target(), static_cast<std::uint32_t>(out.files.size() - 1),
                               std::string(dtype_name(dtype)), dtype, std::nullopt,
                               member.global_shape(), offset, bytes});
        offset += bytes;
      }
    }
    if (!sort_checkpoint_tensors(out)) std::abort();
    return out;
  }();
  return checkpoint;
}

std::vector<LocalModelLayout> plan_every_rank() {
  std::vector<LocalModelLayout> layouts;
  const ParallelTopology topology = world_topology();
  for (std::uint64_t rank = 0; rank < topology.world_size(); ++rank) {
    auto layout = plan_rank(description(), topology, rank, ShardingPolicy::Require, 1);
    if (!layout) std::abort();
    layouts.push_back(std::move(layout).value());
  }
  return layouts;
}

void BM_PlanEveryRank(benchmark::State& state) {
  for (auto _ : state) {
    auto layouts = plan_every_rank();
    benchmark::DoNotOptimize(layouts.data());
  }
  state.counters["ranks"] = static_cast<double>(world_topology().world_size());
  state.counters["tensors"] = static_cast<double>(description()->tensor_count());
}
BENCHMARK(BM_PlanEveryRank)->Unit(benchmark::kMillisecond)->Iterations(2);

void BM_ReadPlanEveryRank(benchmark::State& state) {
  const std::vector<LocalModelLayout> layouts = plan_every_rank();
  const Checkpoint& checkpoint = stored_description();
  std::uint64_t extents = 0;
  for (auto _ : state) {
    extents = 0;
    for (const LocalModelLayout& layout : layouts) {
      auto plan = build_read_plan(layout, checkpoint);
      if (!plan) state.SkipWithError(plan.error().message.c_str());
      for (const TensorReadPlan& tensor : plan.value().tensors) extents += tensor.extents.size();
      benchmark::DoNotOptimize(plan);
    }
  }
  state.counters["extents"] = static_cast<double>(extents);
}
BENCHMARK(BM_ReadPlanEveryRank)->Unit(benchmark::kMillisecond)->Iterations(2);

// A 1 GiB checkpoint: 32 BF16 matrices of [4096, 4096], column-parallel
// (rows split: one contiguous 8 MiB extent per rank at TP 4) or, with
// `strided`, the odd ones row-parallel (columns split: a strided extent of
// 4096 rows of 2 KiB).
constexpr std::uint64_t kSide = 4096;
constexpr int kMatrices = 32;

std::string gib_groups(bool strided) {
  std::string groups = R"({"schema":"eredu.groups.v1","model":{"name":"gib"},"groups":[)";
  for (int i = 0; i < kMatrices; ++i) {
    if (i > 0) groups += ',';
    groups += "{\"name\":\"g" + std::to_string(i) +
              R"(","role":"feed_forward_intermediate","partition_units":4096,"members":[)" +
              "{\"target\":\"w" + std::to_string(i) + R"(","shape":[4096,4096],"dtype":"BF16",)" +
              R"("sharding":{"kind":"partitioned","axis":)" + std::to_string(strided ? i % 2 : 0) +
              "}}]}";
  }
  return groups + "]}";
}

const std::string& gib_file() {
  static const std::string path = [] {
    const char* tmp = std::getenv("TMPDIR");
    const std::string file = std::string(tmp ? tmp : "/tmp") + "/eredu-bench-1gib.safetensors";
    std::string header = "{";
    std::uint64_t offset = 0;
    const std::uint64_t bytes = kSide * kSide * 2;
    for (int i = 0; i < kMatrices; ++i) {
      if (i > 0) header += ',';
      header += "\"w" + std::to_string(i) + R"(":{"dtype":"BF16","shape":[4096,4096],)" +
                "\"data_offsets\":[" + std::to_string(offset) + "," +
                std::to_string(offset + bytes) + "]}";
      offset += bytes;
    }
    header += "}";
    std::ofstream out(file, std::ios::binary);
    const std::uint64_t length = header.size();
    for (int i = 0; i < 8; ++i) out.put(static_cast<char>(length >> (8 * i) & 0xff));
    out << header;
    std::vector<char> block(bytes);
    for (std::uint64_t i = 0; i < bytes; ++i) block[i] = static_cast<char>(i * 131 >> 7);
    for (int i = 0; i < kMatrices; ++i) out.write(block.data(), static_cast<long>(block.size()));
    if (!out) std::abort();
    return file;
  }();
  return path;
}

// The whole file into one buffer, 1 MiB per pread.
void BM_SequentialRead(benchmark::State& state) {
  const int fd = ::open(gib_file().c_str(), O_RDONLY);
  std::vector<char> buffer(std::filesystem::file_size(gib_file()), 1);
  std::uint64_t total = 0;
  for (auto _ : state) {
    std::uint64_t offset = 0;
    ssize_t got = 0;
    while ((got = ::pread(fd, buffer.data() + offset,
                          std::min<std::uint64_t>(1 << 20, buffer.size() - offset),
                          static_cast<off_t>(offset))) > 0) {
      offset += static_cast<std::uint64_t>(got);
    }
    total += offset;
    benchmark::DoNotOptimize(buffer.data());
  }
  ::close(fd);
  state.SetBytesProcessed(static_cast<std::int64_t>(total));
}
BENCHMARK(BM_SequentialRead)->Unit(benchmark::kMillisecond)->UseRealTime();

// The four ranks of TP 4, one after the other, each reading its tensors
// into local buffers through read_tensor; argument 1: half the matrices
// row-parallel.
void BM_ReadThroughPlans(benchmark::State& state) {
  auto model = load_groups_json(gib_groups(state.range(0) == 1));
  auto checkpoint = open_checkpoint(gib_file());
  if (!model || !checkpoint) std::abort();
  const ParallelTopology topology = ParallelTopology::create(4, 1, 1, 1).value();
  std::vector<ReadPlan> plans;
  for (std::uint64_t rank = 0; rank < 4; ++rank) {
    auto layout = plan_rank(model.value(), topology, rank, ShardingPolicy::Require);
    auto plan = build_read_plan(layout.value(), checkpoint.value());
    if (!plan) std::abort();
    plans.push_back(std::move(plan).value());
  }
  // Every rank's buffers, allocated and touched once, as a loader's are.
  std::vector<std::vector<std::vector<char>>> buffers;
  for (const ReadPlan& plan : plans) {
    auto& rank = buffers.emplace_back();
    for (const TensorReadPlan& tensor : plan.tensors) rank.emplace_back(tensor.local_bytes, 1);
  }
  std::uint64_t total = 0;
  for (auto _ : state) {
    for (std::size_t rank = 0; rank < plans.size(); ++rank) {
      for (std::size_t i = 0; i < plans[rank].tensors.size(); ++i) {
        if (!read_tensor(plans[rank], i, buffers[rank][i])) std::abort();
        total += plans[rank].tensors[i].read_bytes;
      }
    }
    benchmark::DoNotOptimize(buffers.data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(total));
  for (const ReadPlan& plan : plans) {
    state.counters["rank" + std::to_string(plan.rank) + "_read_bytes"] =
        static_cast<double>(plan.read_bytes);
  }
  // A loader without a plan reads every tensor whole on every rank.
  state.counters["whole_tensor_loader_bytes_per_rank"] =
      static_cast<double>(checkpoint.value().tensor_bytes());
}
BENCHMARK(BM_ReadThroughPlans)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
