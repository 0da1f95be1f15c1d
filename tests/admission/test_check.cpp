// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// `eredu check` on the bundled reflection-llama-3.1-70b (FP32, 282215219200
// bytes): exact figures per policy and the whole eredu.check.v1 document.
#include <doctest/doctest.h>

#include <cstdlib>
#include <string>

#include "admission/check.hpp"
#include "admission/check_json.hpp"
#include "describe/describe.hpp"
#include "interchange/groups_json.hpp"
#include "test_data.hpp"
#include "tiny_model.hpp"

namespace eredu {
namespace {

constexpr std::uint64_t k80GiB = std::uint64_t{80} << 30;

std::shared_ptr<const ModelDescription> reflection() {
  static const auto model = [] {
    const char* root = std::getenv("EREDU_SOURCE_ROOT");
    auto described = describe_model_dir(std::string(root ? root : ".") +
                                        "/examples/models/reflection-llama-3.1-70b");
    REQUIRE_MESSAGE(described.has_value(), described.error().message);
    return described.value();
  }();
  return model;
}

CheckReport check(const std::shared_ptr<const ModelDescription>& model, std::uint64_t tp,
                  std::uint64_t pp, std::uint64_t dp, const AdmissionPolicy& policy) {
  auto topology = ParallelTopology::create(tp, pp, 1, dp);
  REQUIRE(topology.has_value());
  auto report = check_world(model, topology.value(), ShardingPolicy::Require, policy);
  REQUIRE_MESSAGE(report.has_value(), report.error().message);
  return std::move(report).value();
}

AdmissionPolicy layerwise(std::optional<std::uint64_t> host, std::uint64_t depth) {
  return AdmissionPolicy::create(LayerWeightResidency::layerwise_host(LayerwiseLoadOptions(
                                     OffloadConfig::create(std::nullopt, host, depth).value())))
      .value();
}

AdmissionPolicy dense_80gib() {
  const DenseDiskStreamLoadOptions defaults;
  return AdmissionPolicy::create(
             LayerWeightResidency::dense_disk_stream(
                 DenseDiskStreamLoadOptions::create(k80GiB, defaults.host_budget_bytes(), 2, 2)
                     .value()))
      .value();
}

TEST_CASE("fully resident on one 80 GiB device does not fit") {
  const CheckReport report = check(reflection(), 1, 1, 1, AdmissionPolicy::fully_resident(k80GiB));
  REQUIRE(report.ranks.size() == 1);
  const AdmissionFigures& figures = report.ranks[0].figures;
  CHECK(figures.local_bytes == 282215219200u);
  CHECK(figures.static_bytes == 8405811200u);
  CHECK(figures.layer_bytes == 273809408000u);
  CHECK(figures.layer_units == 80);
  CHECK(figures.device_window_units == 80);
  CHECK(figures.largest_layer_bytes == 3422617600u);
  CHECK(figures.device_bytes == 282215219200u);
  CHECK(figures.host_bytes == 0);
  CHECK(figures.disk_bytes == 0);
  CHECK(figures.excess == BudgetExcess{MemoryTier::Device, 282215219200u, 85899345920u});
  CHECK_FALSE(report.fits());
  CHECK(report.world.coverage_ok());
}

TEST_CASE("fully resident at TP 4 fits 80 GiB devices") {
  const CheckReport report = check(reflection(), 4, 1, 1, AdmissionPolicy::fully_resident(k80GiB));
  REQUIRE(report.ranks.size() == 4);
  const AdmissionFigures& rank0 = report.ranks[0].figures;
  CHECK(rank0.local_bytes == 70557794304u);
  CHECK(rank0.static_bytes == 2101510144u);
  CHECK(rank0.layer_units == 80);
  CHECK(rank0.device_window_units == 80);
  CHECK(rank0.device_bytes == 70557794304u);
  CHECK(rank0.fits());
  // The vocabulary's 128262 rows split 32066, 32066, 32065, 32065.
  CHECK(report.ranks[3].figures.static_bytes == 2101444608u);
  CHECK(report.ranks[3].figures.device_bytes == 70557728768u);
  CHECK(report.fits());
}

TEST_CASE("the TP 4 eredu.check.v1 document is exact") {
  const CheckReport report = check(reflection(), 4, 1, 1, AdmissionPolicy::fully_resident(k80GiB));
  CHECK(check_to_json(report) == test_data::read("reflection.tp4.check.json"));
}

TEST_CASE("dense disk stream fits one 80 GiB device with a two-layer window") {
  const CheckReport report = check(reflection(), 1, 1, 1, dense_80gib());
  const AdmissionFigures& figures = report.ranks[0].figures;
  CHECK(figures.device_window_units == 2);
  CHECK(figures.device_bytes == 15251046400u);  // 8405811200 + 2 × 3422617600
  CHECK(figures.host_bytes == 6845235200u);
  CHECK(figures.disk_bytes == 273809408000u);
  CHECK(report.fits());
}

TEST_CASE("layerwise host: the device holds one layer, the host all of them") {
  const CheckReport report = check(reflection(), 1, 1, 1, layerwise(std::nullopt, 1));
  const AdmissionFigures& figures = report.ranks[0].figures;
  CHECK(figures.device_window_units == 1);
  CHECK(figures.device_bytes == 11828428800u);  // 8405811200 + 3422617600
  CHECK(figures.host_bytes == 273809408000u);
  CHECK(figures.disk_bytes == 0);
  CHECK(report.fits());
  CHECK(check(reflection(), 1, 1, 1, layerwise(std::uint64_t{256} << 30, 1)).fits());
  const CheckReport tight = check(reflection(), 1, 1, 1, layerwise(std::uint64_t{255} << 30, 3));
  CHECK(tight.ranks[0].figures.device_bytes == 18673664000u);  // 3 layers
  CHECK(tight.ranks[0].figures.excess ==
        BudgetExcess{MemoryTier::Host, 273809408000u, 273804165120u});
}

TEST_CASE("pipeline stages split the layers; data replicas copy their figures") {
  const CheckReport report = check(reflection(), 2, 2, 2, AdmissionPolicy::fully_resident(k80GiB));
  REQUIRE(report.ranks.size() == 8);
  for (const RankCheck& rank : report.ranks) {
    CAPTURE(rank.rank);
    CHECK(rank.figures.layer_units == 40);
    CHECK(rank.figures.fits());
    ParallelCoordinates first = rank.coordinates;
    first.data = 0;
    CHECK(rank.figures == report.ranks[report.world.topology.rank_for(first).value()].figures);
  }
  // Stage 0 holds the embedding, stage 1 the norm and head.
  const RankCheck& stage0 = report.ranks[0];
  const RankCheck& stage1 = report.ranks[2];
  CHECK(stage0.coordinates.pipeline == 0);
  CHECK(stage1.coordinates.pipeline == 1);
  CHECK(stage0.figures.static_bytes == 2101444608u);  // 64131 rows × 8192 × 4
  CHECK(stage1.figures.static_bytes == 2101444608u + 32768u);
}

TEST_CASE("documents for an unnamed empty model and for a rank that does not fit") {
  auto empty = load_groups_json(R"({"schema": "eredu.groups.v1", "groups": []})");
  REQUIRE(empty.has_value());
  CHECK(
      check_to_json(check(empty.value(), 1, 1, 1, AdmissionPolicy::fully_resident(std::nullopt))) ==
      R"({"schema":"eredu.check.v1","model":{"name":null,"tensors":0,"global_bytes":0},)"
      R"("topology":{"tensor":1,"pipeline":1,"expert":1,"data":1},"policy":"require",)"
      R"("residency":{"kind":"fully_resident","device_budget_bytes":null,)"
      R"("host_budget_bytes":null,"prefetch_depth":1,"host_lookahead":0},)"
      R"("coverage":{"ok":true,"tensors":0,"problems":[]},)"
      R"("ranks":[{"rank":0,"coordinates":{"tensor":0,"pipeline":0,"expert":0,"data":0},)"
      R"("totals":{"local_bytes":0,"global_bytes":0,"materialized_tensors":0,)"
      R"("omitted_tensors":0},"fell_back_groups":[],)"
      R"("local_bytes":0,"static_bytes":0,"layer_units":0,"device_window_units":0,)"
      R"("device_bytes":0,"host_bytes":0,"disk_bytes":0,"fits":true,"error":null}],)"
      R"("fits":true})"
      "\n");
  const CheckReport tiny = check(test::tiny_model(), 1, 1, 1, AdmissionPolicy::fully_resident(415));
  CHECK(check_to_json(tiny) ==
        R"({"schema":"eredu.check.v1","model":{"name":"tiny","tensors":8,"global_bytes":416},)"
        R"("topology":{"tensor":1,"pipeline":1,"expert":1,"data":1},"policy":"require",)"
        R"("residency":{"kind":"fully_resident","device_budget_bytes":415,)"
        R"("host_budget_bytes":null,"prefetch_depth":1,"host_lookahead":0},)"
        R"("coverage":{"ok":true,"tensors":8,"problems":[]},)"
        R"("ranks":[{"rank":0,"coordinates":{"tensor":0,"pipeline":0,"expert":0,"data":0},)"
        R"("totals":{"local_bytes":416,"global_bytes":416,"materialized_tensors":8,)"
        R"("omitted_tensors":0,"unknown_bytes_tensors":1},"fell_back_groups":[],)"
        R"("local_bytes":416,"static_bytes":192,"layer_units":3,"device_window_units":3,)"
        R"("device_bytes":416,"host_bytes":0,"disk_bytes":0,"fits":false,)"
        R"("error":{"code":"EREDU_E_BUDGET_EXCEEDED","status":305,)"
        R"("message":"planned 416 bytes for the Device tier exceed its 415-byte budget"},)"
        R"("experts":{"start":0,"end":2,"routed_bytes":48,"other_bytes":368,"units":2,)"
        R"("largest_unit_bytes":32}}],)"
        R"("fits":false})"
        "\n");
}

}  // namespace
}  // namespace eredu
