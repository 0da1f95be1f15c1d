// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// fit's memoized rows (admission/fit_figures.hpp) against every rank planned
// and admitted in full (fit_topology), on the bundled models' families and
// each residency policy: the same plans, fits, device peaks and errors.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "admission/fit.hpp"
#include "admission/fit_figures.hpp"
#include "described_models.hpp"
#include "model_folders.hpp"

namespace eredu {
namespace {

AdmissionPolicy residency(const char* name, std::optional<std::uint64_t> budget = {}) {
  std::ifstream in(
      test::source_path(std::string("tests/vectors/inputs/residency/") + name + ".residency.json"));
  REQUIRE(in.good());
  std::stringstream text;
  text << in.rdbuf();
  auto policy = AdmissionPolicy::from_residency_document(text.str(), budget);
  REQUIRE_MESSAGE(policy.has_value(), policy.error().message);
  return policy.value();
}

// Every T × P × E × 1 of world at most `max_world`: the memoized row equals
// the full one. Returns how many did not plan and how many fit.
struct Counts {
  std::uint64_t failing = 0;
  std::uint64_t fitting = 0;
  friend bool operator==(const Counts&, const Counts&) = default;
};
Counts check_rows(const std::shared_ptr<const ModelDescription>& model, ShardingPolicy policy,
                  const AdmissionPolicy& admission, std::uint64_t max_world) {
  FitFigures figures(model, policy, admission);
  Counts counts;
  for (std::uint64_t world = 1; world <= max_world; ++world) {
    for (std::uint64_t tp = 1; tp <= world; ++tp) {
      for (std::uint64_t pp = 1; world % tp == 0 && pp <= world / tp; ++pp) {
        if (world / tp % pp != 0) continue;
        const ParallelTopology topology = test::topology(tp, pp, world / tp / pp);
        CAPTURE(tp);
        CAPTURE(pp);
        CAPTURE(world / tp / pp);
        const FitTopology full = fit_topology(model, topology, policy, admission, 1);
        const std::optional<FitTopology> fast = figures.row(topology);
        REQUIRE(fast.has_value());
        CHECK(fast->plans == full.plans);
        CHECK(fast->fits == full.fits);
        CHECK(fast->device_peak_bytes == full.device_peak_bytes);
        REQUIRE(fast->error.has_value() == full.error.has_value());
        counts.fitting += full.fits ? 1 : 0;
        if (full.error) {
          ++counts.failing;
          CHECK(fast->error->code == full.error->code);
          CHECK(fast->error->message == full.error->message);
        }
      }
    }
  }
  return counts;
}

TEST_CASE("fit rows: dense llama, KV heads replicated, each residency") {
  const auto model = test::describe("reflection-llama-3.1-70b");
  CHECK(check_rows(model, ShardingPolicy::Require, AdmissionPolicy::fully_resident(40ull << 30),
                   16) == Counts{67, 27});
  CHECK(check_rows(model, ShardingPolicy::RequireEven, residency("layerwise_host_tight"), 12) ==
        Counts{56, 17});
  CHECK(check_rows(model, ShardingPolicy::Require, residency("dense_disk_stream"), 8) ==
        Counts{18, 7});
}

TEST_CASE("fit rows: routed experts one group each, block-FP8, an expert cache") {
  DescribeOptions options;
  options.config_only = true;
  auto model = describe_model_dir(test::example_model("kimi-k2-mini-deepseekv3-fp8"), options);
  REQUIRE_MESSAGE(model.has_value(), model.error().message);
  CHECK(check_rows(model.value(), ShardingPolicy::Require,
                   AdmissionPolicy::fully_resident(6ull << 30), 8) == Counts{0, 21});
  CHECK(check_rows(model.value(), ShardingPolicy::ReplicateUnsupported,
                   residency("parameter_banks_fully_resident"), 6) == Counts{0, 25});
}

TEST_CASE("fit rows: stacked experts (MXFP4, MLX affine, fused), fused qkv, hybrid layers") {
  CHECK(check_rows(test::describe("gpt-oss-20b"), ShardingPolicy::Require,
                   AdmissionPolicy::fully_resident(8ull << 30), 8) == Counts{0, 36});
  CHECK(check_rows(test::describe("granite-3.1-1b-a400m-granitemoe"), ShardingPolicy::RequireEven,
                   residency("parameter_banks_fully_resident"), 8) == Counts{23, 15});
  CHECK(check_rows(test::describe("mistral-small-4-119b-mlx-4bit-mla-moe"), ShardingPolicy::Require,
                   residency("layerwise_host"), 8) == Counts{0, 38});
  CHECK(check_rows(test::describe("phi-3-mini-3b-slerp"), ShardingPolicy::ReplicateUnsupported,
                   AdmissionPolicy::fully_resident(2ull << 30), 8) == Counts{18, 15});
  CHECK(check_rows(test::describe("qwen3.5-25b-reap-a3b-moe"), ShardingPolicy::Require,
                   AdmissionPolicy::fully_resident(16ull << 30), 4) == Counts{1, 6});
}

}  // namespace
}  // namespace eredu
