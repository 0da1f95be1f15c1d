// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Speed of the planner on a DeepSeek-V3-scale description (issue targets:
// load >= 100 MB/s of JSON, one rank <= 10 ms, all 128 ranks of
// TP 8 × PP 2 × EP 8 <= 1.5 s on two cores). Reported, never asserted.
#include <benchmark/benchmark.h>
#include <simdjson.h>

#include <chrono>

#include "deepseek_description.hpp"
#include "interchange/groups_json.hpp"
#include "interchange/groups_write.hpp"
#include "interchange/layout_json.hpp"
#include "plan/planner.hpp"
#include "world/world.hpp"

namespace {

using namespace eredu;

const std::shared_ptr<const ModelDescription>& description() {
  static const auto model = bench::deepseek_v3_description();
  return model;
}

const std::string& description_json() {
  static const std::string text = groups_to_json(*description());
  return text;
}

ParallelTopology world_topology() { return ParallelTopology::create(8, 2, 8, 1).value(); }

// Loading alone: each iteration's model is freed with the timer stopped
// (BM_FreeDescription times that), as simdjson's floor below frees nothing
// between parses.
void BM_LoadGroupsJson(benchmark::State& state) {
  const std::string& text = description_json();
  for (auto _ : state) {
    auto model = load_groups_json(text);
    if (!model) state.SkipWithError(model.error().message.c_str());
    benchmark::DoNotOptimize(model);
    state.PauseTiming();
    if (model) model.value().reset();
    state.ResumeTiming();
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
  state.counters["tensors"] = static_cast<double>(description()->tensor_count());
  state.counters["json_bytes"] = static_cast<double>(text.size());
}
BENCHMARK(BM_LoadGroupsJson)->Unit(benchmark::kMillisecond);

// Freeing a loaded description: its 90,000 targets and shapes.
void BM_FreeDescription(benchmark::State& state) {
  const std::string& text = description_json();
  for (auto _ : state) {
    state.PauseTiming();
    auto model = load_groups_json(text);
    if (!model) state.SkipWithError(model.error().message.c_str());
    state.ResumeTiming();
    if (model) model.value().reset();
    benchmark::DoNotOptimize(model);
  }
}
BENCHMARK(BM_FreeDescription)->Unit(benchmark::kMillisecond);

// The floor of loading: simdjson's DOM parse of the same text, validating
// nothing of the schema (issue target: load within 5 × of it).
void BM_SimdjsonParseFloor(benchmark::State& state) {
  const simdjson::padded_string text(description_json());
  simdjson::dom::parser parser;
  for (auto _ : state) {
    auto document = parser.parse(text);
    if (document.error()) state.SkipWithError(simdjson::error_message(document.error()));
    benchmark::DoNotOptimize(document);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
}
BENCHMARK(BM_SimdjsonParseFloor)->Unit(benchmark::kMillisecond);

// Loading against its floor, in alternation: each iteration parses the text
// with simdjson's DOM parser, then loads it, so that both meet the machine
// in the same state. The time is the load's; `ratio` is the loads' total
// over the parses' (issue target: at most 5).
void BM_LoadOverFloor(benchmark::State& state) {
  using Clock = std::chrono::steady_clock;
  const std::string& text = description_json();
  const simdjson::padded_string padded(text);
  simdjson::dom::parser parser;
  Clock::duration parsing{};
  Clock::duration loading{};
  for (auto _ : state) {
    const auto start = Clock::now();
    auto document = parser.parse(padded);
    const auto parsed = Clock::now();
    auto model = load_groups_json(text);
    const auto loaded = Clock::now();
    if (document.error() || !model) {
      state.SkipWithError("the description does not parse or load");
      break;
    }
    benchmark::DoNotOptimize(document);
    parsing += parsed - start;
    loading += loaded - parsed;
    state.SetIterationTime(std::chrono::duration<double>(loaded - parsed).count());
    model.value().reset();
  }
  const auto iterations = static_cast<double>(state.iterations());
  if (iterations == 0 || parsing.count() == 0) return;
  state.counters["floor_ms"] =
      std::chrono::duration<double, std::milli>(parsing).count() / iterations;
  state.counters["ratio"] = std::chrono::duration<double>(loading).count() /
                            std::chrono::duration<double>(parsing).count();
}
BENCHMARK(BM_LoadOverFloor)->UseManualTime()->Unit(benchmark::kMillisecond);

// The canonical writers on the same description and on one rank's layout.
void BM_WriteGroupsJson(benchmark::State& state) {
  std::size_t bytes = 0;
  for (auto _ : state) {
    const std::string text = groups_to_json(*description());
    bytes = text.size();
    benchmark::DoNotOptimize(text.data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes));
}
BENCHMARK(BM_WriteGroupsJson)->Unit(benchmark::kMillisecond);

void BM_WriteLayoutJson(benchmark::State& state) {
  const auto layout = plan_rank(description(), world_topology(), 0, ShardingPolicy::Require);
  if (!layout) {
    state.SkipWithError(layout.error().message.c_str());
    return;
  }
  std::size_t bytes = 0;
  for (auto _ : state) {
    const std::string text = layout_to_json(layout.value());
    bytes = text.size();
    benchmark::DoNotOptimize(text.data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes));
}
BENCHMARK(BM_WriteLayoutJson)->Unit(benchmark::kMillisecond);

void BM_PlanOneRank(benchmark::State& state) {
  const auto topology = world_topology();
  for (auto _ : state) {
    auto layout = plan_rank(description(), topology, 0, ShardingPolicy::Require);
    if (!layout) state.SkipWithError(layout.error().message.c_str());
    benchmark::DoNotOptimize(layout);
  }
}
BENCHMARK(BM_PlanOneRank)->Unit(benchmark::kMillisecond);

void BM_PlanAllRanks(benchmark::State& state) {
  const auto topology = world_topology();
  for (auto _ : state) {
    auto world = plan_world(description(), topology, ShardingPolicy::Require,
                            WorldOptions::on_threads(static_cast<unsigned>(state.range(0))));
    if (!world) state.SkipWithError(world.error().message.c_str());
    if (world && !world.value().coverage_ok()) state.SkipWithError("coverage problems");
    benchmark::DoNotOptimize(world);
  }
}
BENCHMARK(BM_PlanAllRanks)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
