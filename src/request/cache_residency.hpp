// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Core `CacheResidencyPolicy` as the load-request seed uses it
// (docs/residency.md, "Load requests"): the normalized request only stores and
// forwards it.
#pragma once

#include <cstdint>
#include <optional>

namespace eredu {

/// Which CacheResidencyPolicy. Values match EREDU_CACHE_RESIDENCY_*.
enum class CacheResidencyKind : std::uint32_t {
  /// Mutable state stays on the execution device (the default).
  Device = 0,
  /// Mutable state is paged; the paging options belong to the runtime.
  Paged = 1,
};

inline std::optional<CacheResidencyKind> cache_residency_kind_from_value(std::uint32_t value) {
  if (value > static_cast<std::uint32_t>(CacheResidencyKind::Paged)) return std::nullopt;
  return static_cast<CacheResidencyKind>(value);
}

/// Mutable-state residency, opaque to the planner: only its kind is kept
/// (the seed's paged options are runtime configuration the planner never
/// reads). Default Device. Immutable value.
class CacheResidencyPolicy {
 public:
  CacheResidencyPolicy() = default;
  explicit CacheResidencyPolicy(CacheResidencyKind kind) : kind_(kind) {}

  CacheResidencyKind kind() const { return kind_; }

  friend bool operator==(const CacheResidencyPolicy&, const CacheResidencyPolicy&) = default;

 private:
  CacheResidencyKind kind_ = CacheResidencyKind::Device;
};

}  // namespace eredu
