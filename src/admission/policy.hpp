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

/// Routed experts held apart from the ordinary units, in an independent
/// parameter-bank cache (docs/residency.md, "Routed experts").
struct ExpertCache {
  std::optional<std::uint64_t> device_budget_bytes;  // nullopt: unbounded
  friend bool operator==(const ExpertCache&, const ExpertCache&) = default;
};

/// A seed `LayerWeightResidency` and the budgets its ranks are admitted
/// against, with an optional expert cache. Immutable value.
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
  /// a parameter-bank cache in it becomes the expert cache, its device
  /// budget the cache's), with
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
  /// The expert cache, when routed experts are held apart; nullopt when
  /// they are ordinary layer units.
  const std::optional<ExpertCache>& expert_cache() const { return expert_cache_; }
  /// This policy with `cache` as its expert cache. Infallible.
  AdmissionPolicy with_expert_cache(std::optional<ExpertCache> cache) const;

  friend bool operator==(const AdmissionPolicy&, const AdmissionPolicy&) = default;

 private:
  AdmissionPolicy(LayerWeightResidency layers, OffloadConfig config)
      : layers_(layers), config_(config) {}

  LayerWeightResidency layers_;
  OffloadConfig config_;
  std::optional<ExpertCache> expert_cache_;
};

}  // namespace eredu
