// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Plan files (docs/plan-files.md) of the ~90,000-tensor DeepSeek-V3-scale
// description at 128 ranks (tp 8 x pp 2 x ep 8): the file's size against the
// ranks' layout text, the time to write it, and what one rank pays to read
// its layout from the file against planning it.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <cstdio>
#include <string>

#include "deepseek_description.hpp"
#include "interchange/layout_json.hpp"
#include "plan/planner.hpp"
#include "planfile/plan_file.hpp"
#include "planfile/write.hpp"

namespace eredu {
namespace {

const std::shared_ptr<const ModelDescription>& description() {
  static const auto model = bench::deepseek_v3_description();
  return model;
}

ParallelTopology world_topology() { return ParallelTopology::create(8, 2, 8, 1).value(); }

// The rank read and planned: one of the 128, its layout as large as most.
constexpr std::uint64_t kRank = 37;

const std::string& file_path() {
  static const std::string path = "/tmp/eredu-bench-" + std::to_string(::getpid()) + ".eredu";
  return path;
}

void BM_WritePlanFile(benchmark::State& state) {
  for (auto _ : state) {
    auto written = write_plan_file(description(), world_topology(), ShardingPolicy::Require,
                                   WorldOptions::on_threads(static_cast<unsigned>(state.range(0))),
                                   file_path());
    if (!written) state.SkipWithError(written.error().message.c_str());
  }
  auto file = PlanFile::open(file_path());
  if (!file) {
    state.SkipWithError(file.error().message.c_str());
    return;
  }
  std::uint64_t layouts = 0;
  for (const FrameEntry& frame : file.value().frames()) layouts += frame.uncompressed;
  state.counters["file_bytes"] = static_cast<double>(file.value().file_bytes());
  state.counters["layout_bytes"] = static_cast<double>(layouts);
  state.counters["ratio"] =
      static_cast<double>(layouts) / static_cast<double>(file.value().file_bytes());
}
BENCHMARK(BM_WritePlanFile)
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(2)
    ->UseRealTime();

void BM_OpenAndReadRank(benchmark::State& state) {
  std::size_t bytes = 0;
  for (auto _ : state) {
    auto file = PlanFile::open(file_path());
    if (!file) {
      state.SkipWithError(file.error().message.c_str());
      break;
    }
    auto text = file.value().rank_json(kRank);
    if (!text) {
      state.SkipWithError(text.error().message.c_str());
      break;
    }
    bytes = text.value().size();
  }
  state.counters["layout_bytes"] = static_cast<double>(bytes);
}
BENCHMARK(BM_OpenAndReadRank)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_PlanRank(benchmark::State& state) {
  std::size_t bytes = 0;
  for (auto _ : state) {
    auto layout = plan_rank(description(), world_topology(), kRank, ShardingPolicy::Require,
                            static_cast<unsigned>(state.range(0)));
    if (!layout) {
      state.SkipWithError(layout.error().message.c_str());
      break;
    }
    bytes = layout_to_json(layout.value()).size();
  }
  state.counters["layout_bytes"] = static_cast<double>(bytes);
}
BENCHMARK(BM_PlanRank)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace eredu

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  std::remove(eredu::file_path().c_str());
  return 0;
}
