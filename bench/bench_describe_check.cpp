// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// `eredu check examples/models/qwen3.5-25b-reap-a3b-moe --tp 2 --ep 8`
// without the output: describe the folder (22,213 tensors, 180 routed
// experts per layer), plan its 16 ranks, prove coverage and admit each.
// Reports the process's peak resident set as a counter. Run from the source
// root, or give it as the first argument.
#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <string>

#include "admission/check.hpp"
#include "describe/describe.hpp"

namespace {

std::string g_root = ".";

double peak_rss_mib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024;
}

void BM_DescribeCheckQwen35MoE(benchmark::State& state) {
  using namespace eredu;
  const std::string dir = g_root + "/examples/models/qwen3.5-25b-reap-a3b-moe";
  const auto topology = ParallelTopology::create(2, 1, 8, 1).value();
  const AdmissionPolicy admission = AdmissionPolicy::fully_resident(std::nullopt);
  for (auto _ : state) {
    auto model = describe_model_dir(dir);
    if (!model) {
      state.SkipWithError("cannot describe the model; run from the source root");
      return;
    }
    auto report = check_world(model.value(), topology, ShardingPolicy::Require, admission);
    if (!report || !report.value().world.coverage_ok() || report.value().ranks.size() != 16) {
      state.SkipWithError("the check did not cover 16 ranks");
      return;
    }
    benchmark::DoNotOptimize(report);
  }
  state.counters["peak_rss_MiB"] = peak_rss_mib();
}
BENCHMARK(BM_DescribeCheckQwen35MoE)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (argc > 1) g_root = argv[1];
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
