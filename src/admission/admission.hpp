// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Admission of one rank's bytes under a residency policy (docs/residency.md,
// "Admission").
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "admission/policy.hpp"
#include "admission/units.hpp"
#include "core/result.hpp"
#include "plan/layout.hpp"
#include "plan/model_info.hpp"
#include "residency/layerwise_metadata.hpp"
#include "residency/offload.hpp"

namespace eredu {

/// The model type admission records: a groups description names none, so
/// it is the seed's generic placeholder until a caller sets it.
inline constexpr std::string_view kGenericModelType = "generic";

/// A budget a rank's figures exceed (the fields of OffloadError::BudgetExceeded).
struct BudgetExcess {
  MemoryTier tier = MemoryTier::Device;
  std::uint64_t planned_bytes = 0;
  std::uint64_t budget_bytes = 0;

  /// BudgetExceeded (305): "planned P bytes for the Tier tier exceed its
  /// B-byte budget" (Tier is Device or Host).
  Error error() const;
  friend bool operator==(const BudgetExcess&, const BudgetExcess&) = default;
};

/// One rank's admission figures (docs/residency.md, "Figures"). Bytes are
/// bytes; K, `layer_units` and `device_window_units` count layer units.
struct AdmissionFigures {
  std::uint64_t local_bytes = 0;          // static_bytes + layer_bytes
  std::uint64_t static_bytes = 0;         // static units, pinned on the device
  std::uint64_t layer_bytes = 0;          // all layer units
  std::uint64_t layer_units = 0;          // K
  std::uint64_t device_window_units = 0;  // the policy's device_depth(K); may exceed K
  std::uint64_t largest_layer_bytes = 0;  // the largest layer unit (0 when K = 0)
  std::uint64_t device_window_bytes = 0;  // the min(device_depth, K) largest layer units
  std::uint64_t device_bytes = 0;         // static_bytes + device_window_bytes: the device peak
  std::uint64_t host_bytes = 0;  // layerwise: layer_bytes; dense: min(K, lookahead) largest
  std::uint64_t disk_bytes = 0;  // dense: layer_bytes; else 0
  /// The first budget exceeded, device before host; nullopt when it fits.
  std::optional<BudgetExcess> excess;

  bool fits() const { return !excess; }
  friend bool operator==(const AdmissionFigures&, const AdmissionFigures&) = default;
};

/// Everything admission derives for one rank.
struct RankAdmission {
  AdmissionFigures figures;
  RankUnits units;
  /// The rank's validated OffloadPlan under `policy.config()`, when it fits:
  /// `static.<target>` Pinned/Device per non-empty static unit and
  /// `layer.<LLLLL>` per non-empty layer unit, Pinned/Device (fully
  /// resident), Windowed/Host (layerwise host) or Cacheable/Disk (dense
  /// disk stream).
  std::optional<OffloadPlan> plan;
  /// static_device_bytes = static_bytes, layer_count = K,
  /// layer_parameter_bytes = layer_bytes, maximum_device_layer_bytes =
  /// device_window_bytes, maximum_host_layer_bytes = largest_layer_bytes,
  /// device_layer_capacity = device_window_units; model type
  /// kGenericModelType, no quantization.
  LayerwiseModelMetadata metadata;
  /// Seed ParallelModelInfo: the layout's topology, kGenericModelType, the
  /// materialized targets (byte-wise order), local and global bytes, pinned
  /// device = static_bytes, maximum device = device_bytes.
  ParallelModelInfo model_info;
};

/// The figures of `units` (a layout's split_units) under `policy`, as
/// docs/residency.md ("Figures") defines them. Errors: Internal on a 64-bit
/// overflow (impossible for a planned layout).
Result<AdmissionFigures> admission_figures(const RankUnits& units, const AdmissionPolicy& policy);

/// Admits `layout` under `policy`: split_units, admission_figures, then (when
/// it fits) OffloadPlan::create(policy.config(), units), the metadata and
/// the model info. A rank that does not fit is a result, not an error.
/// Errors: Internal on overflow; OffloadPlan::create's (unreachable: ids are
/// distinct and non-blank, units non-empty, totals within the budgets).
/// Pure; thread-safe. O(tensors + K log K).
Result<RankAdmission> admit_rank(const LocalModelLayout& layout, const AdmissionPolicy& policy);

}  // namespace eredu
