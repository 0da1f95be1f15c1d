// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The core request vocabulary the load-request seed lowers into
// (docs/residency.md, "Load requests"): QuantizationRequest, ResidencyRequest,
// SessionCapabilities and PreparationPolicy.
#pragma once

#include <cstdint>
#include <optional>

#include "topology/topology.hpp"

namespace eredu {

/// Which QuantizationRequest. Values match EREDU_QUANTIZATION_*. The seed
/// enum is non-exhaustive: a request may carry a value outside these, which
/// lowering rejects (NormalizedLoadRequest::weight_quantization).
enum class QuantizationKind : std::uint32_t { Affine = 0, MxFp4 = 1 };

/// Seed `QuantizationRequest`: quantize eligible dense weights on load,
/// Affine{group_size (values per group), bits} | MxFp4. Not validated here:
/// lowering checks it. Immutable value.
struct QuantizationRequest {
  QuantizationKind kind = QuantizationKind::MxFp4;
  std::uint32_t group_size = 0;  // Affine only, else 0
  std::uint8_t bits = 0;         // Affine only, else 0

  static QuantizationRequest affine(std::uint32_t group_size, std::uint8_t bits) {
    return {QuantizationKind::Affine, group_size, bits};
  }
  static QuantizationRequest mxfp4() { return {QuantizationKind::MxFp4, 0, 0}; }
  /// A caller's tagged request: Affine keeps its group and bits; every other
  /// kind, known (MxFp4) or not, carries none.
  static QuantizationRequest from_kind(std::uint32_t kind, std::uint32_t group_size,
                                       std::uint8_t bits);

  friend bool operator==(const QuantizationRequest&, const QuantizationRequest&) = default;
};

/// Seed `ResidencyRequest`: the portable weight residency of a preparation
/// (default FullyResident). Values match EREDU_RESIDENCY_REQUEST_*.
enum class ResidencyRequest : std::uint32_t {
  FullyResident = 0,
  LayerwiseHost = 1,
  DenseDiskStream = 2,
  AddressableParameterBanks = 3,
};

/// Seed `SessionCapabilities` (docs/residency.md, "Load requests"): a set of
/// three capabilities required from a realized session, bit i = the seed's i-th
/// positional boolean. Default: none. Immutable value.
class SessionCapabilities {
 public:
  /// The bits a set may hold (0b111).
  static constexpr std::uint32_t kMask = 0x7;

  SessionCapabilities() = default;
  /// Seed `SessionCapabilities::new(first, second, third)`.
  SessionCapabilities(bool first, bool second, bool third)
      : bits_((first ? 1u : 0u) | (second ? 2u : 0u) | (third ? 4u : 0u)) {}
  /// nullopt when `bits` has a bit outside kMask.
  static std::optional<SessionCapabilities> from_bits(std::uint32_t bits);

  std::uint32_t bits() const { return bits_; }

  friend bool operator==(const SessionCapabilities&, const SessionCapabilities&) = default;

 private:
  std::uint32_t bits_ = 0;
};

/// Seed `PreparationPolicy`: the portable policy of one cold model
/// preparation. `PreparationPolicy(q, r)` has no topology and no required
/// session capabilities; the default is (none, FullyResident). Immutable
/// value.
class PreparationPolicy {
 public:
  PreparationPolicy() = default;
  PreparationPolicy(std::optional<QuantizationRequest> quantization, ResidencyRequest residency)
      : quantization_(quantization), residency_(residency) {}

  PreparationPolicy with_topology(const ParallelTopology& topology) const;
  PreparationPolicy with_required_session_capabilities(SessionCapabilities capabilities) const;

  std::optional<QuantizationRequest> quantization() const { return quantization_; }
  ResidencyRequest residency() const { return residency_; }
  const std::optional<ParallelTopology>& topology() const { return topology_; }
  SessionCapabilities required_session_capabilities() const { return capabilities_; }

  friend bool operator==(const PreparationPolicy&, const PreparationPolicy&) = default;

 private:
  std::optional<QuantizationRequest> quantization_;
  ResidencyRequest residency_ = ResidencyRequest::FullyResident;
  std::optional<ParallelTopology> topology_;
  SessionCapabilities capabilities_;
};

}  // namespace eredu
