// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// `eredu fit` over every topology of up to 64 ranks of the bundled
// reflection-llama-3.1-70b (723 tensors, 80 layers) under an 80 GiB budget,
// and of up to 128 ranks of deepseek-r1 described from its config.json alone
// (91,992 tensors, 256 routed experts), the targets: ≤ 0.5 s and ≤ 5 s.
// Run from the source root, or give it as the first argument.
#include <benchmark/benchmark.h>

#include <string>

#include "admission/fit.hpp"
#include "describe/describe.hpp"

namespace {

std::string g_root = ".";

// Fits `model` (an example folder) under an 80 GiB device budget up to
// `max_world` devices on `threads` threads, each iteration; the smallest
// fitting world must be `smallest`.
void fit_model(benchmark::State& state, const char* model, bool config_only,
               std::uint64_t max_world, unsigned threads, std::uint64_t smallest) {
  using namespace eredu;
  DescribeOptions options;
  options.config_only = config_only;
  auto described = describe_model_dir(g_root + "/examples/models/" + model, options);
  if (!described) {
    state.SkipWithError("cannot describe the model; run from the source root");
    return;
  }
  const AdmissionPolicy admission =
      AdmissionPolicy::from_residency_document(std::nullopt, std::uint64_t{80} << 30).value();
  for (auto _ : state) {
    auto report =
        fit_topologies(described.value(), ShardingPolicy::Require, admission, max_world, threads);
    benchmark::DoNotOptimize(report);
    if (!report || report.value().smallest_fitting_world() != smallest) {
      state.SkipWithError("fit did not find the expected smallest world");
      return;
    }
  }
}

void BM_Fit70B(benchmark::State& state) {
  fit_model(state, "reflection-llama-3.1-70b", false, 64, static_cast<unsigned>(state.range(0)), 4);
}
BENCHMARK(BM_Fit70B)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_FitDeepSeekR1(benchmark::State& state) {
  fit_model(state, "deepseek-r1", true, static_cast<std::uint64_t>(state.range(0)), 2, 10);
}
BENCHMARK(BM_FitDeepSeekR1)->Arg(16)->Arg(128)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (argc > 1) g_root = argv[1];
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
