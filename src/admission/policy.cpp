// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "admission/policy.hpp"

#include <array>

#include "admission/residency_json.hpp"
#include "core/enum_words.hpp"

namespace eredu {

namespace {

constexpr std::array<std::string_view, kExecutionResidencyCount> kExecutionResidencyNames = {
    "fully_resident", "layerwise_host", "dense_disk_stream"};

}  // namespace

std::string_view execution_residency_name(ExecutionResidency residency) {
  return enum_word(kExecutionResidencyNames, residency);
}

std::optional<ExecutionResidency> parse_execution_residency(std::string_view name) {
  return parse_enum_word<ExecutionResidency>(kExecutionResidencyNames, name);
}

AdmissionPolicy AdmissionPolicy::fully_resident(std::optional<std::uint64_t> device_budget_bytes) {
  // Depth 1 is never 0, so create cannot fail.
  return {LayerWeightResidency::fully_resident(),
          OffloadConfig::create(device_budget_bytes, std::nullopt, 1).value()};
}

Result<AdmissionPolicy> AdmissionPolicy::create(LayerWeightResidency layers) {
  EREDU_TRY(config, layers.offload());
  return AdmissionPolicy{layers, config};
}

Result<AdmissionPolicy> AdmissionPolicy::from_residency_document(
    std::optional<std::string_view> document, std::optional<std::uint64_t> device_budget_bytes) {
  if (!document) return fully_resident(device_budget_bytes);
  EREDU_TRY(residency, load_residency_json(*document));
  std::optional<ExpertCache> cache;
  if (const auto banks = residency.parameter_bank_cache()) {
    cache = ExpertCache{banks->offload().device_budget_bytes()};
  }
  const LayerWeightResidency layers = residency.layers();
  if (layers.is_fully_resident())
    return fully_resident(device_budget_bytes).with_expert_cache(cache);
  if (device_budget_bytes) {
    return failf(Status::InvalidArgument,
                 "a device budget applies to a fully_resident policy only; a {} policy carries "
                 "its budgets in its residency document",
                 execution_residency_name(layers.execution_residency()));
  }
  EREDU_TRY(policy, create(layers));
  return policy.with_expert_cache(cache);
}

AdmissionPolicy AdmissionPolicy::with_expert_cache(std::optional<ExpertCache> cache) const {
  AdmissionPolicy out = *this;
  out.expert_cache_ = cache;
  return out;
}

std::uint64_t AdmissionPolicy::host_lookahead() const {
  const auto dense = layers_.dense();
  return dense ? dense->host_lookahead() : 0;
}

}  // namespace eredu
