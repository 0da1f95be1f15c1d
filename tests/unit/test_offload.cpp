// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The offload core (docs/residency.md, "Offload plans") and its residency
// tests.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "residency/offload.hpp"

using namespace eredu;

namespace {

OffloadUnitSpec unit(std::string id, std::uint64_t bytes, ResidencyPolicy policy, MemoryTier tier) {
  return OffloadUnitSpec::create(OffloadUnitId::create(std::move(id)).value(), bytes, policy, tier)
      .value();
}

OffloadConfig config(std::optional<std::uint64_t> device, std::optional<std::uint64_t> host,
                     std::uint64_t depth) {
  return OffloadConfig::create(device, host, depth).value();
}

std::vector<std::string> ids(const OffloadPlan& plan) {
  std::vector<std::string> out;
  for (const OffloadUnitSpec& spec : plan.units()) out.push_back(spec.id().as_str());
  return out;
}

}  // namespace

TEST_CASE("explicit_plan_is_validated_sorted_and_inspectable") {
  auto plan = OffloadPlan::create(
      config(80, 40, 2), {unit("layer.2", 20, ResidencyPolicy::Windowed, MemoryTier::Disk),
                          unit("layer.0", 40, ResidencyPolicy::Pinned, MemoryTier::Device),
                          unit("layer.1", 30, ResidencyPolicy::Cacheable, MemoryTier::Host)});
  REQUIRE(plan);
  CHECK(ids(plan.value()) == std::vector<std::string>{"layer.0", "layer.1", "layer.2"});
  CHECK(plan.value().planned_bytes() == TierByteTotals{40, 30, 20});
  CHECK(plan.value().planned_bytes().get(MemoryTier::Device) == 40);
  CHECK(plan.value().planned_bytes().get(MemoryTier::Host) == 30);
  CHECK(plan.value().planned_bytes().get(MemoryTier::Disk) == 20);
  REQUIRE(plan.value().unit("layer.1") != nullptr);
  CHECK(plan.value().unit("layer.1")->bytes() == 30);
  CHECK(plan.value().unit("layer.1")->policy() == ResidencyPolicy::Cacheable);
  CHECK(plan.value().unit("layer.1")->tier() == MemoryTier::Host);
  CHECK(plan.value().unit("layer.3") == nullptr);
  CHECK(plan.value().unit("") == nullptr);
  CHECK(plan.value().config() == config(80, 40, 2));
  CHECK(plan.value().validate());
}

TEST_CASE("duplicate_identifiers_are_rejected_deterministically") {
  auto plan = OffloadPlan::create(OffloadConfig{},
                                  {unit("b", 1, ResidencyPolicy::Pinned, MemoryTier::Device),
                                   unit("a", 1, ResidencyPolicy::Pinned, MemoryTier::Device),
                                   unit("a", 2, ResidencyPolicy::Windowed, MemoryTier::Host)});
  CHECK(plan.error().code == Status::DuplicateUnitId);
  CHECK(plan.error().message == "duplicate offload unit identifier: a");
  // The smallest duplicated id wins, not the first duplicate in input order.
  auto smallest = OffloadPlan::create(OffloadConfig{},
                                      {unit("z", 1, ResidencyPolicy::Pinned, MemoryTier::Device),
                                       unit("z", 1, ResidencyPolicy::Pinned, MemoryTier::Device),
                                       unit("m", 1, ResidencyPolicy::Pinned, MemoryTier::Device),
                                       unit("m", 1, ResidencyPolicy::Pinned, MemoryTier::Device)});
  CHECK(smallest.error().message == "duplicate offload unit identifier: m");
}

TEST_CASE("finite_tier_budgets_are_enforced") {
  auto device = OffloadPlan::create(config(9, std::nullopt, 1),
                                    {unit("u", 10, ResidencyPolicy::Pinned, MemoryTier::Device)});
  CHECK(device.error().code == Status::BudgetExceeded);
  CHECK(device.error().message == "planned 10 bytes for the Device tier exceed its 9-byte budget");
  // Device is checked before host.
  auto both = OffloadPlan::create(config(0, 0, 1),
                                  {unit("h", 5, ResidencyPolicy::Cacheable, MemoryTier::Host),
                                   unit("d", 3, ResidencyPolicy::Pinned, MemoryTier::Device)});
  CHECK(both.error().message == "planned 3 bytes for the Device tier exceed its 0-byte budget");
  auto host = OffloadPlan::create(config(std::nullopt, 4, 1),
                                  {unit("h", 5, ResidencyPolicy::Cacheable, MemoryTier::Host)});
  CHECK(host.error().code == Status::BudgetExceeded);
  CHECK(host.error().message == "planned 5 bytes for the Host tier exceed its 4-byte budget");
  // Exactly at the budget fits; a zero budget admits an empty tier; disk is unbudgeted.
  auto exact = OffloadPlan::create(
      config(10, 0, 1), {unit("d", 10, ResidencyPolicy::Pinned, MemoryTier::Device),
                         unit("k", UINT64_MAX, ResidencyPolicy::Windowed, MemoryTier::Disk)});
  REQUIRE(exact);
  CHECK(exact.value().planned_bytes() == TierByteTotals{10, 0, UINT64_MAX});
}

TEST_CASE("byte_total_overflow_is_reported") {
  auto host = OffloadPlan::create(
      OffloadConfig{}, {unit("a", UINT64_MAX, ResidencyPolicy::Cacheable, MemoryTier::Host),
                        unit("b", 1, ResidencyPolicy::Cacheable, MemoryTier::Host)});
  CHECK(host.error().code == Status::ByteTotalOverflow);
  CHECK(host.error().message == "planned byte total overflowed for the Host tier");
  auto disk = OffloadPlan::create(
      OffloadConfig{}, {unit("a", UINT64_MAX, ResidencyPolicy::Cacheable, MemoryTier::Disk),
                        unit("b", 1, ResidencyPolicy::Windowed, MemoryTier::Disk)});
  CHECK(disk.error().message == "planned byte total overflowed for the Disk tier");
  // Overflow is found in sorted order and before any budget check.
  auto first = OffloadPlan::create(
      config(0, 0, 1), {unit("d2", 1, ResidencyPolicy::Pinned, MemoryTier::Device),
                        unit("h1", 1, ResidencyPolicy::Pinned, MemoryTier::Host),
                        unit("d1", UINT64_MAX, ResidencyPolicy::Pinned, MemoryTier::Device),
                        unit("h0", UINT64_MAX, ResidencyPolicy::Pinned, MemoryTier::Host)});
  CHECK(first.error().message == "planned byte total overflowed for the Device tier");
}

TEST_CASE("meaningless_and_contradictory_inputs_are_rejected") {
  auto depth = OffloadConfig::create(std::nullopt, std::nullopt, 0);
  CHECK(depth.error().code == Status::ZeroPrefetchDepth);
  CHECK(depth.error().message == "offload prefetch depth must be nonzero");
  auto id = OffloadUnitId::create("layer.0").value();
  auto zero = OffloadUnitSpec::create(id, 0, ResidencyPolicy::Pinned, MemoryTier::Disk);
  CHECK(zero.error().code == Status::ZeroSizedUnit);
  CHECK(zero.error().message == "offload unit layer.0 must contain at least one byte");
  auto pinned = OffloadUnitSpec::create(id, 1, ResidencyPolicy::Pinned, MemoryTier::Disk);
  CHECK(pinned.error().code == Status::ContradictoryAssignment);
  CHECK(pinned.error().message ==
        "offload unit layer.0 has contradictory Pinned/Disk assignment: pinned units must be "
        "assigned to a resident memory tier");
  CHECK(OffloadUnitSpec::create(id, 1, ResidencyPolicy::Windowed, MemoryTier::Disk));
  CHECK(OffloadUnitSpec::create(id, 1, ResidencyPolicy::Cacheable, MemoryTier::Host));
  CHECK(OffloadUnitSpec::create(id, 1, ResidencyPolicy::Pinned, MemoryTier::Host));
}

TEST_CASE("unit identifiers reject Rust-trim blanks and keep the text untrimmed") {
  for (const char* blank : {"", " ", "\t\n", "\u00a0", "\u3000 "}) {
    auto id = OffloadUnitId::create(blank);
    CHECK(id.error().code == Status::EmptyUnitId);
    CHECK(id.error().message == "offload unit identifiers must not be empty");
  }
  CHECK(OffloadUnitId::create(" a ").value().as_str() == " a ");
  // Byte-wise order: uppercase before lowercase, high bytes last.
  CHECK(OffloadUnitId::create("B").value() < OffloadUnitId::create("a").value());
  CHECK(OffloadUnitId::create("z").value() < OffloadUnitId::create("\u00e9").value());
}

TEST_CASE("offload config defaults, getters and eviction policy") {
  const OffloadConfig defaults;
  CHECK(defaults.device_budget_bytes() == std::nullopt);
  CHECK(defaults.host_budget_bytes() == std::nullopt);
  CHECK(defaults.prefetch_depth() == 1);
  CHECK(defaults.eviction_policy() == CacheEvictionPolicy::LeastRecentlyUsed);
  auto created = config(7, 0, 3);
  CHECK(created.device_budget_bytes() == 7);
  CHECK(created.host_budget_bytes() == 0);
  CHECK(created.prefetch_depth() == 3);
  CHECK(created.eviction_policy() == CacheEvictionPolicy::LeastRecentlyUsed);
  auto lfu = created.with_eviction_policy(CacheEvictionPolicy::LeastFrequentlyUsed);
  CHECK(lfu.eviction_policy() == CacheEvictionPolicy::LeastFrequentlyUsed);
  CHECK(lfu.device_budget_bytes() == 7);
  CHECK(created.eviction_policy() == CacheEvictionPolicy::LeastRecentlyUsed);
}

TEST_CASE("an empty plan is valid") {
  auto empty = OffloadPlan::create(config(0, 0, 1), {});
  REQUIRE(empty);
  CHECK(empty.value().units().empty());
  CHECK(empty.value().planned_bytes() == TierByteTotals{});
  CHECK(empty.value().unit("a") == nullptr);
}

TEST_CASE("schema versions other than 1 are unsupported") {
  CHECK(check_offload_plan_schema_version(kOffloadPlanSchemaVersion));
  auto two = check_offload_plan_schema_version(2);
  CHECK(two.error().code == Status::UnsupportedSchemaVersion);
  CHECK(two.error().message == "unsupported offload plan schema version 2");
}

TEST_CASE("tier, policy and eviction names") {
  CHECK(memory_tier_debug_name(MemoryTier::Host) == "Host");
  CHECK(memory_tier_name(MemoryTier::Disk) == "disk");
  CHECK(memory_tier_from_value(2) == MemoryTier::Disk);
  CHECK(memory_tier_from_value(3) == std::nullopt);
  CHECK(residency_policy_debug_name(ResidencyPolicy::Windowed) == "Windowed");
  CHECK(residency_policy_name(ResidencyPolicy::Cacheable) == "cacheable");
  CHECK(residency_policy_from_value(3) == std::nullopt);
  CHECK(cache_eviction_policy_name(CacheEvictionPolicy::LeastFrequentlyUsed) ==
        "least_frequently_used");
  CHECK(parse_cache_eviction_policy("least_recently_used") ==
        CacheEvictionPolicy::LeastRecentlyUsed);
  CHECK(parse_cache_eviction_policy("lru") == std::nullopt);
  CHECK(cache_eviction_policy_from_value(2) == std::nullopt);
  CHECK(MemoryTier::Device < MemoryTier::Host);
  CHECK(MemoryTier::Host < MemoryTier::Disk);
}
