// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The residency core the seeds import (docs/residency.md, "Offload plans"):
// memory tiers, unit policies, offload budgets and the validated, sorted
// OffloadPlan.
#pragma once

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/result.hpp"

namespace eredu {

/// Where a unit's bytes live. Ordered Device < Host < Disk. Values match
/// EREDU_MEMORY_TIER_*.
enum class MemoryTier : std::uint32_t { Device = 0, Host = 1, Disk = 2 };
inline constexpr std::uint32_t kMemoryTierCount = 3;

/// "Device", "Host", "Disk" (Rust Debug form, used in messages).
std::string_view memory_tier_debug_name(MemoryTier tier);
/// "device", "host", "disk" (serialized snake_case form).
std::string_view memory_tier_name(MemoryTier tier);
std::optional<MemoryTier> memory_tier_from_value(std::uint32_t value);

/// How a unit may move between tiers. Values match EREDU_RESIDENCY_POLICY_*.
enum class ResidencyPolicy : std::uint32_t { Pinned = 0, Windowed = 1, Cacheable = 2 };
inline constexpr std::uint32_t kResidencyPolicyCount = 3;

/// "Pinned", "Windowed", "Cacheable" (Rust Debug form, used in messages).
std::string_view residency_policy_debug_name(ResidencyPolicy policy);
/// "pinned", "windowed", "cacheable" (serialized snake_case form).
std::string_view residency_policy_name(ResidencyPolicy policy);
std::optional<ResidencyPolicy> residency_policy_from_value(std::uint32_t value);

/// Deterministic cache eviction order. Values match EREDU_EVICTION_*.
enum class CacheEvictionPolicy : std::uint32_t {
  LeastRecentlyUsed = 0,
  LeastFrequentlyUsed = 1,
};
inline constexpr std::uint32_t kCacheEvictionPolicyCount = 2;

/// "least_recently_used", "least_frequently_used" (serialized form).
std::string_view cache_eviction_policy_name(CacheEvictionPolicy policy);
std::optional<CacheEvictionPolicy> parse_cache_eviction_policy(std::string_view name);
std::optional<CacheEvictionPolicy> cache_eviction_policy_from_value(std::uint32_t value);

/// The schema version a serialized OffloadPlan carries (docs/residency.md,
/// "Offload plans").
inline constexpr std::uint64_t kOffloadPlanSchemaVersion = 1;

/// UnsupportedSchemaVersion (300) unless `version` is kOffloadPlanSchemaVersion:
/// the first check of OffloadPlan deserialization.
Result<void> check_offload_plan_schema_version(std::uint64_t version);

/// Seed `OffloadUnitId`: a non-blank identifier, stored untrimmed; ordered
/// and compared byte-wise.
class OffloadUnitId {
 public:
  /// Errors: EmptyUnitId (301) when `id` is empty after Rust trim.
  static Result<OffloadUnitId> create(std::string id);

  const std::string& as_str() const { return id_; }

  friend bool operator==(const OffloadUnitId&, const OffloadUnitId&) = default;
  friend auto operator<=>(const OffloadUnitId&, const OffloadUnitId&) = default;

 private:
  explicit OffloadUnitId(std::string id) : id_(std::move(id)) {}
  std::string id_;
};

/// Seed `OffloadConfig`: optional per-tier budgets in bytes (nullopt =
/// unbounded; 0 = no non-empty unit on that tier), the prefetch depth in
/// units (at least 1) and the eviction policy. Default {none, none, 1, LRU}.
class OffloadConfig {
 public:
  OffloadConfig() = default;

  /// Errors: ZeroPrefetchDepth (307) when prefetch_depth is 0. Eviction LRU.
  static Result<OffloadConfig> create(std::optional<std::uint64_t> device_budget_bytes,
                                      std::optional<std::uint64_t> host_budget_bytes,
                                      std::uint64_t prefetch_depth);

  OffloadConfig with_eviction_policy(CacheEvictionPolicy policy) const;

  std::optional<std::uint64_t> device_budget_bytes() const { return device_budget_bytes_; }
  std::optional<std::uint64_t> host_budget_bytes() const { return host_budget_bytes_; }
  std::uint64_t prefetch_depth() const { return prefetch_depth_; }
  CacheEvictionPolicy eviction_policy() const { return eviction_policy_; }

  friend bool operator==(const OffloadConfig&, const OffloadConfig&) = default;

 private:
  std::optional<std::uint64_t> device_budget_bytes_;
  std::optional<std::uint64_t> host_budget_bytes_;
  std::uint64_t prefetch_depth_ = 1;
  CacheEvictionPolicy eviction_policy_ = CacheEvictionPolicy::LeastRecentlyUsed;
};

/// Seed `OffloadUnitSpec`: one atomic residency unit of `bytes` bytes.
class OffloadUnitSpec {
 public:
  /// Errors in order: ZeroSizedUnit (302) when bytes is 0;
  /// ContradictoryAssignment (306) for Pinned on Disk.
  static Result<OffloadUnitSpec> create(OffloadUnitId id, std::uint64_t bytes,
                                        ResidencyPolicy policy, MemoryTier tier);

  const OffloadUnitId& id() const { return id_; }
  std::uint64_t bytes() const { return bytes_; }
  ResidencyPolicy policy() const { return policy_; }
  MemoryTier tier() const { return tier_; }

  friend bool operator==(const OffloadUnitSpec&, const OffloadUnitSpec&) = default;

 private:
  OffloadUnitSpec(OffloadUnitId id, std::uint64_t bytes, ResidencyPolicy policy, MemoryTier tier)
      : id_(std::move(id)), bytes_(bytes), policy_(policy), tier_(tier) {}

  OffloadUnitId id_;
  std::uint64_t bytes_;
  ResidencyPolicy policy_;
  MemoryTier tier_;
};

/// Planned bytes per tier.
struct TierByteTotals {
  std::uint64_t device = 0;
  std::uint64_t host = 0;
  std::uint64_t disk = 0;

  std::uint64_t get(MemoryTier tier) const;
  friend bool operator==(const TierByteTotals&, const TierByteTotals&) = default;
};

/// Seed `OffloadPlan`: a config and its units sorted byte-wise by id, with
/// per-tier byte totals that fit the budgets. Immutable once built.
class OffloadPlan {
 public:
  /// Stable-sorts `units` by id, then errors in order: DuplicateUnitId (303,
  /// the byte-wise smallest duplicated id), ByteTotalOverflow (304; device,
  /// host, disk totals summed in sorted order), BudgetExceeded (305; device
  /// budget first, then host; disk has no budget).
  static Result<OffloadPlan> create(OffloadConfig config, std::vector<OffloadUnitSpec> units);

  const OffloadConfig& config() const { return config_; }
  /// Sorted byte-wise by id; ids are unique.
  const std::vector<OffloadUnitSpec>& units() const { return units_; }
  const TierByteTotals& planned_bytes() const { return planned_bytes_; }
  /// The unit with this id (binary search), or nullptr.
  const OffloadUnitSpec* unit(std::string_view id) const;
  /// Re-runs `create` on a copy (always succeeds for a built plan).
  Result<void> validate() const;

  friend bool operator==(const OffloadPlan&, const OffloadPlan&) = default;

 private:
  OffloadPlan(OffloadConfig config, std::vector<OffloadUnitSpec> units, TierByteTotals planned)
      : config_(config), units_(std::move(units)), planned_bytes_(planned) {}

  OffloadConfig config_;
  std::vector<OffloadUnitSpec> units_;
  TierByteTotals planned_bytes_;
};

}  // namespace eredu
