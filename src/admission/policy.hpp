// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The residency policy `eredu check` admits ranks under (docs/residency.md,
// "Admission").
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "core/result.hpp"
#include "residency/offload.hpp"
#include "residency/weight_residency.hpp"

namespace eredu {

/// "fully_resident", "layerwise_host", "dense_disk_stream".
std::string_view execution_residency_name(ExecutionResidency residency);

/// The residency named `name` (a word of execution_residency_name), or
/// nullopt.
std::optional<ExecutionResidency> parse_execution_residency(std::string_view name);

/// A seed `LayerWeightResidency` and the budgets its ranks are admitted
/// against. Immutable value.
class AdmissionPolicy {
 public:
  /// Fully resident with an admission device budget in bytes (nullopt:
  /// unbounded) and no host budget; prefetch depth 1. Infallible.
  static AdmissionPolicy fully_resident(std::optional<std::uint64_t> device_budget_bytes);

  /// `layers` admitted against `layers.offload()`: its configured budgets
  /// (layerwise host), or the options' finite budgets (dense disk stream);
  /// fully resident is unbounded. Errors: `offload()`'s (the dense options'
  /// validation: HostDisabledControls, ZeroHostLookahead, ZeroQueueCapacity).
  static Result<AdmissionPolicy> create(LayerWeightResidency layers);

  /// The policy a check admits ranks under: fully resident without a
  /// residency document, else the document's ordinary placement (`kind`;
  /// a parameter-bank cache in it is validated and not admitted), with
  /// `device_budget_bytes` as the admission budget of a fully resident one.
  /// Errors, in this order: load_residency_json's for the document;
  /// InvalidArgument for a device budget with another kind (those carry
  /// their budgets in the document); create's.
  static Result<AdmissionPolicy> from_residency_document(
      std::optional<std::string_view> document, std::optional<std::uint64_t> device_budget_bytes);
  const LayerWeightResidency& layers() const { return layers_; }
  /// Device and host budgets (bytes) the figures must fit, the prefetch
  /// depth (units) and eviction policy; the config of every rank's plan.
  const OffloadConfig& config() const { return config_; }
  /// Dense disk stream: its protected host lookahead (units); else 0.
  std::uint64_t host_lookahead() const;

  friend bool operator==(const AdmissionPolicy&, const AdmissionPolicy&) = default;

 private:
  AdmissionPolicy(LayerWeightResidency layers, OffloadConfig config)
      : layers_(layers), config_(config) {}

  LayerWeightResidency layers_;
  OffloadConfig config_;
};

}  // namespace eredu
