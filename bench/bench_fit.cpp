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

void BM_Fit70B(benchmark::State& state) {
  using namespace eredu;
  const std::string dir = g_root + "/examples/models/reflection-llama-3.1-70b";
  auto model = describe_model_dir(dir);
  if (!model) {
    state.SkipWithError("cannot describe the model; run from the source root");
    return;
  }
  const AdmissionPolicy admission =
      AdmissionPolicy::from_residency_document(std::nullopt, std::uint64_t{80} << 30).value();
  for (auto _ : state) {
    auto report = fit_topologies(model.value(), ShardingPolicy::Require, admission, 64,
                                 static_cast<unsigned>(state.range(0)));
    benchmark::DoNotOptimize(report);
    if (!report || report.value().smallest_fitting_world() != 4u) {
      state.SkipWithError("fit did not find world 4");
      return;
    }
  }
}
BENCHMARK(BM_Fit70B)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_FitDeepSeekR1(benchmark::State& state) {
  using namespace eredu;
  DescribeOptions options;
  options.config_only = true;
  auto model = describe_model_dir(g_root + "/examples/models/deepseek-r1", options);
  if (!model) {
    state.SkipWithError("cannot describe the model; run from the source root");
    return;
  }
  const AdmissionPolicy admission =
      AdmissionPolicy::from_residency_document(std::nullopt, std::uint64_t{80} << 30).value();
  for (auto _ : state) {
    auto report =
        fit_topologies(model.value(), ShardingPolicy::Require, admission, state.range(0), 2);
    benchmark::DoNotOptimize(report);
    if (!report || report.value().smallest_fitting_world() != 10u) {
      state.SkipWithError("fit did not find world 10");
      return;
    }
  }
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
