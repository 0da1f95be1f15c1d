// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// `eredu fit` (docs/interchange.md, eredu.fit.v1): every topology up to a
// world size, each as `eredu check` would report it.
#include <doctest/doctest.h>

#include <algorithm>
#include <tuple>

#include "admission/check.hpp"
#include "admission/fit.hpp"
#include "admission/fit_json.hpp"
#include "tiny_model.hpp"

using namespace eredu;

namespace {

AdmissionPolicy budget(std::uint64_t bytes) {
  return AdmissionPolicy::from_residency_document(std::nullopt, bytes).value();
}

}  // namespace

TEST_CASE("every T x P x E up to the world, each as check reports it") {
  const auto model = test::tiny_model();
  const AdmissionPolicy admission = budget(300);
  const FitReport report = fit_topologies(model, ShardingPolicy::Require, admission, 6).value();
  // Ordered by world, then T, then P; E = world / (T·P).
  std::vector<std::tuple<std::uint64_t, std::uint64_t, std::uint64_t>> order;
  for (const FitTopology& row : report.topologies) {
    const ParallelTopology& t = row.topology;
    CHECK(t.data() == 1);
    order.emplace_back(t.world_size(), t.tensor(), t.pipeline());
  }
  CHECK(std::is_sorted(order.begin(), order.end()));
  CHECK(order.size() == 1 + 3 + 3 + 6 + 3 + 9);  // d3(w) for w = 1..6
  const FitTopology& single = report.topologies.front();
  CHECK(single.plans);
  CHECK(single.device_peak_bytes == std::optional<std::uint64_t>{416});
  CHECK_FALSE(single.fits);
  for (const FitTopology& row : report.topologies) {
    CAPTURE(row.topology.tensor());
    CAPTURE(row.topology.pipeline());
    CAPTURE(row.topology.expert());
    auto checked = check_world(model, row.topology, ShardingPolicy::Require, admission);
    CHECK(row.plans == checked.has_value());
    if (!checked) {
      REQUIRE(row.error.has_value());
      CHECK(row.error->code == checked.error().code);
      CHECK(row.error->message == checked.error().message);
      CHECK_FALSE(row.device_peak_bytes.has_value());
      continue;
    }
    std::uint64_t peak = 0;
    for (const RankCheck& rank : checked.value().ranks) {
      peak = std::max(peak, rank.figures.device_bytes);
    }
    CHECK(row.device_peak_bytes == std::optional<std::uint64_t>{peak});
    CHECK(row.fits == checked.value().fits());
  }
  // 3 layers: pipeline 4 and more cannot split them; 2 experts likewise.
  const auto pp4 =
      std::find_if(report.topologies.begin(), report.topologies.end(),
                   [](const FitTopology& row) { return row.topology.pipeline() == 4; });
  REQUIRE(pp4 != report.topologies.end());
  CHECK(pp4->error->code == Status::EmptyPartition);
  REQUIRE(report.smallest_fitting_world().has_value());
  const std::uint64_t smallest = *report.smallest_fitting_world();
  for (const FitTopology& row : report.topologies) {
    if (row.topology.world_size() < smallest) CHECK_FALSE(row.fits);
  }
}

TEST_CASE("nothing fits: no smallest world, and the JSON leaves it out") {
  const FitReport report =
      fit_topologies(test::tiny_model(), ShardingPolicy::Require, budget(10), 2).value();
  CHECK_FALSE(report.smallest_fitting_world().has_value());
  const std::string json = fit_to_json(report);
  CHECK(json.find("smallest_fitting_world") == std::string::npos);
  CHECK(json.starts_with(R"({"schema":"eredu.fit.v1","model":{"name":"tiny","tensors":8,)"));
  CHECK(json.find(R"({"tp":1,"pp":1,"ep":1,"world":1,"plans":true,"fits":false,)"
                  R"("device_peak_bytes":416})") != std::string::npos);
  CHECK(json.ends_with("]}\n"));
}

TEST_CASE("the largest world is from 1 to 1024") {
  for (std::uint64_t world : {std::uint64_t{0}, kMaxFitWorld + 1}) {
    auto report = fit_topologies(test::tiny_model(), ShardingPolicy::Require, budget(1000), world);
    REQUIRE_FALSE(report);
    CHECK(report.error().code == Status::InvalidArgument);
  }
}
