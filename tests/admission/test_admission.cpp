// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Admission figures, plans, metadata and model info of one rank under each
// policy (docs/residency.md, "Admission"), on the tiny model: static 192 bytes,
// layer units 96, 128 and 0 bytes (K = 3).
#include <doctest/doctest.h>

#include "admission/admission.hpp"
#include "tiny_model.hpp"

namespace eredu {
namespace {

RankAdmission admit(const AdmissionPolicy& policy) {
  auto admission = admit_rank(test::tiny_layout(1, 1, 1, 0), policy);
  REQUIRE_MESSAGE(admission.has_value(), admission.error().message);
  return std::move(admission).value();
}

AdmissionPolicy layerwise(std::optional<std::uint64_t> device, std::optional<std::uint64_t> host,
                          std::uint64_t depth) {
  auto offload = OffloadConfig::create(device, host, depth);
  REQUIRE(offload.has_value());
  auto policy = AdmissionPolicy::create(
      LayerWeightResidency::layerwise_host(LayerwiseLoadOptions(offload.value())));
  REQUIRE(policy.has_value());
  return policy.value();
}

AdmissionPolicy dense(std::uint64_t device, std::uint64_t host, std::uint64_t lookahead,
                      std::uint64_t queue) {
  auto options = DenseDiskStreamLoadOptions::create(device, host, lookahead, queue);
  REQUIRE(options.has_value());
  auto policy = AdmissionPolicy::create(LayerWeightResidency::dense_disk_stream(options.value()));
  REQUIRE(policy.has_value());
  return policy.value();
}

struct Expected {
  std::uint64_t window_units;
  std::uint64_t window_bytes;
  std::uint64_t device;
  std::uint64_t host;
  std::uint64_t disk;
};

void check_figures(const AdmissionFigures& figures, const Expected& expected) {
  CHECK(figures.local_bytes == 416);
  CHECK(figures.static_bytes == 192);
  CHECK(figures.layer_bytes == 224);
  CHECK(figures.layer_units == 3);
  CHECK(figures.largest_layer_bytes == 128);
  CHECK(figures.device_window_units == expected.window_units);
  CHECK(figures.device_window_bytes == expected.window_bytes);
  CHECK(figures.device_bytes == expected.device);
  CHECK(figures.host_bytes == expected.host);
  CHECK(figures.disk_bytes == expected.disk);
}

void check_plan_units(const OffloadPlan& plan, ResidencyPolicy layer_policy,
                      MemoryTier layer_tier) {
  // Zero-byte units (static.nodtype, layer.00002) are left out; ids sort byte-wise.
  REQUIRE(plan.units().size() == 5);
  const char* ids[] = {"layer.00000", "layer.00001", "static.embed", "static.norm",
                       "static.shared.e0"};
  const std::uint64_t bytes[] = {96, 128, 160, 16, 16};
  for (std::size_t i = 0; i < 5; ++i) {
    CAPTURE(i);
    const OffloadUnitSpec& unit = plan.units()[i];
    CHECK(unit.id().as_str() == ids[i]);
    CHECK(unit.bytes() == bytes[i]);
    const bool layer = i < 2;
    CHECK(unit.policy() == (layer ? layer_policy : ResidencyPolicy::Pinned));
    CHECK(unit.tier() == (layer ? layer_tier : MemoryTier::Device));
  }
}

TEST_CASE("fully resident keeps every unit on the device") {
  const RankAdmission admission = admit(AdmissionPolicy::fully_resident(std::nullopt));
  check_figures(admission.figures, {3, 224, 416, 0, 0});
  CHECK(admission.figures.fits());
  REQUIRE(admission.plan.has_value());
  check_plan_units(*admission.plan, ResidencyPolicy::Pinned, MemoryTier::Device);
  CHECK(admission.plan->planned_bytes() == TierByteTotals{416, 0, 0});
  CHECK(admission.plan->config() == OffloadConfig{});

  const LayerwiseModelMetadata& metadata = admission.metadata;
  CHECK(metadata.effective_model_type() == "generic");
  CHECK_FALSE(metadata.quantization().has_value());
  CHECK(metadata.residency() == ExecutionResidency::FullyResident);
  CHECK(metadata.layer_count() == 3);
  CHECK(metadata.static_device_bytes() == 192);
  CHECK(metadata.layer_parameter_bytes() == 224);
  CHECK(metadata.maximum_device_layer_bytes() == 224);
  CHECK(metadata.maximum_host_layer_bytes() == 128);
  CHECK(metadata.device_layer_capacity() == 3);

  const ParallelModelInfo& info = admission.model_info;
  CHECK(info.topology() == ParallelTopology::create(1, 1, 1, 1).value());
  CHECK(info.effective_model_type() == "generic");
  CHECK(info.owned_tensors() == std::vector<std::string>{"embed", "l0.e1", "l0.w", "l1.w",
                                                         "l2.empty", "nodtype", "norm",
                                                         "shared.e0"});
  CHECK(info.local_parameter_bytes() == 416);
  CHECK(info.global_parameter_bytes() == 416);
  CHECK(info.pinned_device_parameter_bytes() == 192);
  CHECK(info.maximum_device_parameter_bytes() == 416);
}

TEST_CASE("a fully resident device budget admits exactly the local bytes") {
  CHECK(admit(AdmissionPolicy::fully_resident(416)).figures.fits());
  const RankAdmission admission = admit(AdmissionPolicy::fully_resident(415));
  CHECK_FALSE(admission.figures.fits());
  CHECK_FALSE(admission.plan.has_value());
  REQUIRE(admission.figures.excess.has_value());
  CHECK(*admission.figures.excess == BudgetExcess{MemoryTier::Device, 416, 415});
  const Error error = admission.figures.excess->error();
  CHECK(error.code == Status::BudgetExceeded);
  CHECK(error.message == "planned 416 bytes for the Device tier exceed its 415-byte budget");
}

TEST_CASE("layerwise host keeps a window of prefetch-depth layers on the device") {
  const RankAdmission admission = admit(layerwise(std::nullopt, std::nullopt, 1));
  check_figures(admission.figures, {1, 128, 320, 224, 0});
  REQUIRE(admission.plan.has_value());
  check_plan_units(*admission.plan, ResidencyPolicy::Windowed, MemoryTier::Host);
  CHECK(admission.plan->planned_bytes() == TierByteTotals{192, 224, 0});
  CHECK(admission.metadata.residency() == ExecutionResidency::LayerwiseHost);
  CHECK(admission.metadata.maximum_device_layer_bytes() == 128);
  CHECK(admission.metadata.device_layer_capacity() == 1);
  CHECK(admission.model_info.maximum_device_parameter_bytes() == 320);

  check_figures(admit(layerwise(std::nullopt, std::nullopt, 2)).figures, {2, 224, 416, 224, 0});
  // A window deeper than K is reported as the seed computes it.
  const RankAdmission deep = admit(layerwise(std::nullopt, std::nullopt, 5));
  check_figures(deep.figures, {5, 224, 416, 224, 0});
  CHECK(deep.metadata.device_layer_capacity() == 5);
}

TEST_CASE("layerwise host budgets: device before host, both inclusive") {
  CHECK(admit(layerwise(320, 224, 1)).figures.fits());
  CHECK(admit(layerwise(319, 223, 1)).figures.excess == BudgetExcess{MemoryTier::Device, 320, 319});
  const RankAdmission host = admit(layerwise(320, 223, 1));
  CHECK(host.figures.excess == BudgetExcess{MemoryTier::Host, 224, 223});
  CHECK(host.figures.excess->error().message ==
        "planned 224 bytes for the Host tier exceed its 223-byte budget");
}

TEST_CASE("dense disk stream: two layers on the device, lookahead layers on the host") {
  const RankAdmission admission = admit(dense(416, 1000, 2, 2));
  check_figures(admission.figures, {2, 224, 416, 224, 224});
  REQUIRE(admission.plan.has_value());
  check_plan_units(*admission.plan, ResidencyPolicy::Cacheable, MemoryTier::Disk);
  CHECK(admission.plan->planned_bytes() == TierByteTotals{192, 0, 224});
  CHECK(admission.plan->config().prefetch_depth() == 2);
  CHECK(admission.metadata.residency() == ExecutionResidency::DenseDiskStream);
  CHECK(admission.metadata.device_layer_capacity() == 2);

  check_figures(admit(dense(416, 1000, 1, 1)).figures, {2, 224, 416, 128, 224});
  check_figures(admit(dense(416, 1000, 5, 1)).figures, {2, 224, 416, 224, 224});
  // Direct disk-to-device: nothing on the host, and a host budget of 0 holds.
  const RankAdmission direct = admit(dense(416, 0, 0, 0));
  check_figures(direct.figures, {2, 224, 416, 0, 224});
  CHECK(direct.figures.fits());
  CHECK(admit(dense(415, 0, 0, 0)).figures.excess == BudgetExcess{MemoryTier::Device, 416, 415});
  CHECK(admit(dense(416, 127, 1, 1)).figures.excess == BudgetExcess{MemoryTier::Host, 128, 127});
}

TEST_CASE("a rank with fewer than two layers streams them all") {
  auto admission = admit_rank(test::tiny_layout(1, 2, 1, 1), dense(100, 100, 2, 2));
  REQUIRE(admission.has_value());
  const AdmissionFigures& figures = admission.value().figures;
  CHECK(figures.layer_units == 1);
  CHECK(figures.device_window_units == 1);
  CHECK(figures.device_bytes == 32);
  CHECK(figures.host_bytes == 0);
  CHECK(figures.disk_bytes == 0);
  // Only the non-empty static units are planned.
  REQUIRE(admission.value().plan.has_value());
  CHECK(admission.value().plan->units().size() == 2);
}

TEST_CASE("admission policies") {
  const AdmissionPolicy resident = AdmissionPolicy::fully_resident(85899345920);
  CHECK(resident.layers().is_fully_resident());
  CHECK(resident.config().device_budget_bytes() == 85899345920u);
  CHECK_FALSE(resident.config().host_budget_bytes().has_value());
  CHECK(resident.config().prefetch_depth() == 1);
  CHECK(resident.host_lookahead() == 0);
  CHECK(AdmissionPolicy::create(LayerWeightResidency::fully_resident()).value() ==
        AdmissionPolicy::fully_resident(std::nullopt));

  const AdmissionPolicy streamed = dense(32, 64, 3, 2);
  CHECK(streamed.config().device_budget_bytes() == 32u);
  CHECK(streamed.config().host_budget_bytes() == 64u);
  CHECK(streamed.config().prefetch_depth() == 3);
  CHECK(streamed.host_lookahead() == 3);
  CHECK(execution_residency_name(ExecutionResidency::FullyResident) == "fully_resident");
  CHECK(execution_residency_name(ExecutionResidency::LayerwiseHost) == "layerwise_host");
  CHECK(execution_residency_name(ExecutionResidency::DenseDiskStream) == "dense_disk_stream");
}

}  // namespace
}  // namespace eredu
