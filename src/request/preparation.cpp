// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "request/preparation.hpp"

namespace eredu {

QuantizationRequest QuantizationRequest::from_kind(std::uint32_t kind, std::uint32_t group_size,
                                                   std::uint8_t bits) {
  const auto tagged = static_cast<QuantizationKind>(kind);
  if (tagged == QuantizationKind::Affine) return affine(group_size, bits);
  return {tagged, 0, 0};
}

std::optional<SessionCapabilities> SessionCapabilities::from_bits(std::uint32_t bits) {
  if ((bits & ~kMask) != 0) return std::nullopt;
  SessionCapabilities capabilities;
  capabilities.bits_ = bits;
  return capabilities;
}

PreparationPolicy PreparationPolicy::with_topology(const ParallelTopology& topology) const {
  PreparationPolicy policy = *this;
  policy.topology_ = topology;
  return policy;
}

PreparationPolicy PreparationPolicy::with_required_session_capabilities(
    SessionCapabilities capabilities) const {
  PreparationPolicy policy = *this;
  policy.capabilities_ = capabilities;
  return policy;
}

}  // namespace eredu
