#include "admission/policy.hpp"

namespace eredu {

std::string_view execution_residency_name(ExecutionResidency residency) {
  switch (residency) {
    case ExecutionResidency::FullyResident:
      return "fully_resident";
    case ExecutionResidency::LayerwiseHost:
      return "layerwise_host";
    case ExecutionResidency::DenseDiskStream:
      return "dense_disk_stream";
  }
  return "unknown";
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

std::uint64_t AdmissionPolicy::host_lookahead() const {
  const auto dense = layers_.dense();
  return dense ? dense->host_lookahead() : 0;
}

}  // namespace eredu
