// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "admission/admission.hpp"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

namespace eredu {
namespace {

// How a policy keeps its layer units (docs/residency.md, "Figures").
std::pair<ResidencyPolicy, MemoryTier> layer_assignment(ExecutionResidency residency) {
  switch (residency) {
    case ExecutionResidency::LayerwiseHost:
      return {ResidencyPolicy::Windowed, MemoryTier::Host};
    case ExecutionResidency::DenseDiskStream:
      return {ResidencyPolicy::Cacheable, MemoryTier::Disk};
    case ExecutionResidency::FullyResident:
      break;
  }
  return {ResidencyPolicy::Pinned, MemoryTier::Device};
}

Result<void> add_unit(std::vector<OffloadUnitSpec>& specs, std::string id, std::uint64_t bytes,
                      ResidencyPolicy policy, MemoryTier tier) {
  if (bytes == 0) return outcome::success();  // zero-byte units are left out
  EREDU_TRY(unit_id, OffloadUnitId::create(std::move(id)));
  EREDU_TRY(spec, OffloadUnitSpec::create(std::move(unit_id), bytes, policy, tier));
  specs.push_back(std::move(spec));
  return outcome::success();
}

Result<OffloadPlan> rank_plan(const RankUnits& units, const AdmissionPolicy& policy) {
  std::vector<OffloadUnitSpec> specs;
  specs.reserve(units.static_units.size() + units.layer_units.size());
  for (const StaticUnit& unit : units.static_units) {
    EREDU_TRY(add_unit(specs, static_unit_id(unit), unit.bytes, ResidencyPolicy::Pinned,
                       MemoryTier::Device));
  }
  const auto [layer_policy, layer_tier] = layer_assignment(policy.layers().execution_residency());
  for (const LayerUnit& unit : units.layer_units) {
    EREDU_TRY(add_unit(specs, layer_unit_id(unit), unit.bytes, layer_policy, layer_tier));
  }
  return OffloadPlan::create(policy.config(), std::move(specs));
}

std::optional<BudgetExcess> first_excess(const AdmissionFigures& figures,
                                         const OffloadConfig& config) {
  const auto device = config.device_budget_bytes();
  if (device && figures.device_bytes > *device) {
    return BudgetExcess{MemoryTier::Device, figures.device_bytes, *device};
  }
  const auto host = config.host_budget_bytes();
  if (host && figures.host_bytes > *host) {
    return BudgetExcess{MemoryTier::Host, figures.host_bytes, *host};
  }
  return std::nullopt;
}

std::vector<std::string> materialized_targets(const LocalModelLayout& layout) {
  std::vector<std::string> targets;
  targets.reserve(layout.totals.materialized_tensors);
  for (const LocalTensorLayout& tensor : layout.tensors) {
    if (tensor.placement.kind != PlacementKind::Omit) targets.push_back(tensor.target());
  }
  return targets;
}

}  // namespace

Error BudgetExcess::error() const {
  return Error{Status::BudgetExceeded,
               fmt::format("planned {} bytes for the {} tier exceed its {}-byte budget",
                           planned_bytes, memory_tier_debug_name(tier), budget_bytes)};
}

Result<AdmissionFigures> admission_figures(const RankUnits& units, const AdmissionPolicy& policy) {
  const LayerWeightResidency& layers = policy.layers();
  const std::uint64_t k = units.layer_units.size();
  AdmissionFigures figures;
  EREDU_TRY(local, add_rank_bytes(units.static_bytes, units.layer_bytes));
  figures.local_bytes = local;
  figures.static_bytes = units.static_bytes;
  figures.layer_bytes = units.layer_bytes;
  figures.layer_units = k;
  figures.device_window_units = layers.device_depth(k);
  const std::vector<std::uint64_t> descending = layer_bytes_descending(units);
  EREDU_TRY(largest, largest_layer_bytes(descending, 1));
  figures.largest_layer_bytes = largest;
  EREDU_TRY(window, largest_layer_bytes(descending, std::min(figures.device_window_units, k)));
  figures.device_window_bytes = window;
  EREDU_TRY(device, add_rank_bytes(units.static_bytes, window));
  figures.device_bytes = device;
  switch (layers.execution_residency()) {
    case ExecutionResidency::FullyResident:
      break;
    case ExecutionResidency::LayerwiseHost:
      figures.host_bytes = units.layer_bytes;
      break;
    case ExecutionResidency::DenseDiskStream: {
      EREDU_TRY(host, largest_layer_bytes(descending, std::min(k, policy.host_lookahead())));
      figures.host_bytes = host;
      figures.disk_bytes = units.layer_bytes;
      break;
    }
  }
  figures.excess = first_excess(figures, policy.config());
  return figures;
}

Result<RankAdmission> admit_rank(const LocalModelLayout& layout, const AdmissionPolicy& policy) {
  EREDU_TRY(units, split_units(layout, policy.expert_cache().has_value()));
  EREDU_TRY(figures, admission_figures(units, policy));
  std::optional<OffloadPlan> plan;
  if (figures.fits()) {
    EREDU_TRY(built, rank_plan(units, policy));
    plan = std::move(built);
  }
  LayerwiseModelMetadata metadata(std::string(kGenericModelType), std::nullopt, figures.layer_units,
                                  figures.static_bytes, policy.layers().execution_residency(),
                                  figures.layer_bytes, figures.device_window_bytes,
                                  figures.largest_layer_bytes, figures.device_window_units);
  ParallelModelInfo model_info(
      layout.topology, std::string(kGenericModelType), materialized_targets(layout),
      figures.local_bytes, layout.totals.global_bytes, figures.static_bytes, figures.device_bytes);
  return RankAdmission{figures, std::move(units), std::move(plan), std::move(metadata),
                       std::move(model_info)};
}

}  // namespace eredu
