// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "residency/offload.hpp"

#include <algorithm>
#include <array>

#include "core/checked.hpp"
#include "core/enum_words.hpp"
#include "core/text.hpp"

namespace eredu {
namespace {

constexpr std::array<std::string_view, kMemoryTierCount> kTierDebugNames = {"Device", "Host",
                                                                            "Disk"};
constexpr std::array<std::string_view, kMemoryTierCount> kTierNames = {"device", "host", "disk"};
constexpr std::array<std::string_view, kResidencyPolicyCount> kPolicyDebugNames = {
    "Pinned", "Windowed", "Cacheable"};
constexpr std::array<std::string_view, kResidencyPolicyCount> kPolicyNames = {"pinned", "windowed",
                                                                              "cacheable"};
constexpr std::array<std::string_view, kCacheEvictionPolicyCount> kEvictionNames = {
    "least_recently_used", "least_frequently_used"};

}  // namespace

std::string_view memory_tier_debug_name(MemoryTier tier) {
  return enum_word(kTierDebugNames, tier);
}

std::string_view memory_tier_name(MemoryTier tier) { return enum_word(kTierNames, tier); }

std::optional<MemoryTier> memory_tier_from_value(std::uint32_t value) {
  return enum_from_value<MemoryTier>(value, kMemoryTierCount);
}

std::string_view residency_policy_debug_name(ResidencyPolicy policy) {
  return enum_word(kPolicyDebugNames, policy);
}

std::string_view residency_policy_name(ResidencyPolicy policy) {
  return enum_word(kPolicyNames, policy);
}

std::optional<ResidencyPolicy> residency_policy_from_value(std::uint32_t value) {
  return enum_from_value<ResidencyPolicy>(value, kResidencyPolicyCount);
}

std::string_view cache_eviction_policy_name(CacheEvictionPolicy policy) {
  return enum_word(kEvictionNames, policy);
}

std::optional<CacheEvictionPolicy> parse_cache_eviction_policy(std::string_view name) {
  return parse_enum_word<CacheEvictionPolicy>(kEvictionNames, name);
}

std::optional<CacheEvictionPolicy> cache_eviction_policy_from_value(std::uint32_t value) {
  return enum_from_value<CacheEvictionPolicy>(value, kCacheEvictionPolicyCount);
}

Result<void> check_offload_plan_schema_version(std::uint64_t version) {
  if (version != kOffloadPlanSchemaVersion) {
    return failf(Status::UnsupportedSchemaVersion, "unsupported offload plan schema version {}",
                 version);
  }
  return outcome::success();
}

Result<OffloadUnitId> OffloadUnitId::create(std::string id) {
  if (is_blank(id)) {
    return fail(Status::EmptyUnitId, "offload unit identifiers must not be empty");
  }
  return OffloadUnitId(std::move(id));
}

Result<OffloadConfig> OffloadConfig::create(std::optional<std::uint64_t> device_budget_bytes,
                                            std::optional<std::uint64_t> host_budget_bytes,
                                            std::uint64_t prefetch_depth) {
  if (prefetch_depth == 0) {
    return fail(Status::ZeroPrefetchDepth, "offload prefetch depth must be nonzero");
  }
  OffloadConfig config;
  config.device_budget_bytes_ = device_budget_bytes;
  config.host_budget_bytes_ = host_budget_bytes;
  config.prefetch_depth_ = prefetch_depth;
  return config;
}

OffloadConfig OffloadConfig::with_eviction_policy(CacheEvictionPolicy policy) const {
  OffloadConfig config = *this;
  config.eviction_policy_ = policy;
  return config;
}

Result<OffloadUnitSpec> OffloadUnitSpec::create(OffloadUnitId id, std::uint64_t bytes,
                                                ResidencyPolicy policy, MemoryTier tier) {
  if (bytes == 0) {
    return failf(Status::ZeroSizedUnit, "offload unit {} must contain at least one byte",
                 id.as_str());
  }
  if (policy == ResidencyPolicy::Pinned && tier == MemoryTier::Disk) {
    return failf(Status::ContradictoryAssignment,
                 "offload unit {} has contradictory {}/{} assignment: {}", id.as_str(),
                 residency_policy_debug_name(policy), memory_tier_debug_name(tier),
                 "pinned units must be assigned to a resident memory tier");
  }
  return OffloadUnitSpec(std::move(id), bytes, policy, tier);
}

std::uint64_t TierByteTotals::get(MemoryTier tier) const {
  switch (tier) {
    case MemoryTier::Device:
      return device;
    case MemoryTier::Host:
      return host;
    case MemoryTier::Disk:
      return disk;
  }
  return 0;
}

namespace {

std::uint64_t& tier_total(TierByteTotals& totals, MemoryTier tier) {
  switch (tier) {
    case MemoryTier::Device:
      return totals.device;
    case MemoryTier::Host:
      return totals.host;
    case MemoryTier::Disk:
      break;
  }
  return totals.disk;
}

Result<void> check_budget(MemoryTier tier, std::uint64_t planned,
                          std::optional<std::uint64_t> budget) {
  if (budget && planned > *budget) {
    return failf(Status::BudgetExceeded,
                 "planned {} bytes for the {} tier exceed its {}-byte budget", planned,
                 memory_tier_debug_name(tier), *budget);
  }
  return outcome::success();
}

}  // namespace

Result<OffloadPlan> OffloadPlan::create(OffloadConfig config, std::vector<OffloadUnitSpec> units) {
  std::stable_sort(
      units.begin(), units.end(),
      [](const OffloadUnitSpec& a, const OffloadUnitSpec& b) { return a.id() < b.id(); });
  auto duplicate = std::adjacent_find(
      units.begin(), units.end(),
      [](const OffloadUnitSpec& a, const OffloadUnitSpec& b) { return a.id() == b.id(); });
  if (duplicate != units.end()) {
    return failf(Status::DuplicateUnitId, "duplicate offload unit identifier: {}",
                 duplicate->id().as_str());
  }
  TierByteTotals planned;
  for (const OffloadUnitSpec& unit : units) {
    std::uint64_t& total = tier_total(planned, unit.tier());
    auto sum = checked_add(total, unit.bytes());
    if (!sum) {
      return failf(Status::ByteTotalOverflow, "planned byte total overflowed for the {} tier",
                   memory_tier_debug_name(unit.tier()));
    }
    total = *sum;
  }
  EREDU_TRY(check_budget(MemoryTier::Device, planned.device, config.device_budget_bytes()));
  EREDU_TRY(check_budget(MemoryTier::Host, planned.host, config.host_budget_bytes()));
  return OffloadPlan(config, std::move(units), planned);
}

const OffloadUnitSpec* OffloadPlan::unit(std::string_view id) const {
  auto found = std::lower_bound(
      units_.begin(), units_.end(), id,
      [](const OffloadUnitSpec& unit, std::string_view key) { return unit.id().as_str() < key; });
  if (found == units_.end() || found->id().as_str() != id) return nullptr;
  return &*found;
}

Result<void> OffloadPlan::validate() const {
  EREDU_TRY(create(config_, units_));
  return outcome::success();
}

}  // namespace eredu
