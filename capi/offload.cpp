// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// eredu_offload_*: the offload core (docs/residency.md, "Offload plans")
// built from C descriptors.
#include <string>
#include <string_view>
#include <vector>

#include "core/text.hpp"
#include "firewall.hpp"
#include "offload_arguments.hpp"
#include "residency/offload.hpp"

struct eredu_offload_plan {
  eredu::OffloadPlan plan;
};

namespace eredu::capi {
namespace {

// The C constants are the core's enum values.
static_assert(EREDU_MEMORY_TIER_DEVICE == static_cast<int>(MemoryTier::Device));
static_assert(EREDU_MEMORY_TIER_HOST == static_cast<int>(MemoryTier::Host));
static_assert(EREDU_MEMORY_TIER_DISK == static_cast<int>(MemoryTier::Disk));
static_assert(kMemoryTierCount == 3);
static_assert(EREDU_RESIDENCY_POLICY_PINNED == static_cast<int>(ResidencyPolicy::Pinned));
static_assert(EREDU_RESIDENCY_POLICY_WINDOWED == static_cast<int>(ResidencyPolicy::Windowed));
static_assert(EREDU_RESIDENCY_POLICY_CACHEABLE == static_cast<int>(ResidencyPolicy::Cacheable));
static_assert(kResidencyPolicyCount == 3);
static_assert(EREDU_EVICTION_LEAST_RECENTLY_USED ==
              static_cast<int>(CacheEvictionPolicy::LeastRecentlyUsed));
static_assert(EREDU_EVICTION_LEAST_FREQUENTLY_USED ==
              static_cast<int>(CacheEvictionPolicy::LeastFrequentlyUsed));
static_assert(kCacheEvictionPolicyCount == 2);

struct UnitArgument {
  std::string_view id;
  std::uint64_t bytes;
  ResidencyPolicy policy;
  MemoryTier tier;
};

Result<UnitArgument> unit_argument(const eredu_offload_unit_desc* const* units, std::size_t index) {
  const auto field = [index](const char* name) { return ArgumentName("units", index, name); };
  EREDU_TRY(read,
            read_sized(units[index], SizedDefaults<eredu_offload_unit_desc>::value(), field("")));
  const eredu_offload_unit_desc* desc = &read;
  EREDU_TRY(id, text_argument(desc->id, field("->id")));
  EREDU_TRY(policy, enum_argument(residency_policy_from_value(desc->policy), desc->policy,
                                  field("->policy")));
  EREDU_TRY(tier, enum_argument(memory_tier_from_value(desc->tier), desc->tier, field("->tier")));
  return UnitArgument{id, desc->bytes, policy, tier};
}

Result<std::vector<UnitArgument>> units_argument(const eredu_offload_unit_desc* const* units,
                                                 std::size_t count) {
  EREDU_TRY(require_array(units, count, "units"));
  EREDU_TRY(count_argument(count, sizeof(const eredu_offload_unit_desc*), sizeof(OffloadUnitSpec),
                           "unit_count"));
  std::vector<UnitArgument> arguments;
  arguments.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    EREDU_TRY(argument, unit_argument(units, i));
    arguments.push_back(argument);
  }
  return arguments;
}

// The config, then each unit in input order, then the plan (docs/residency.md).
Result<OffloadPlan> build_plan(const OffloadArgument& config_argument,
                               const std::vector<UnitArgument>& unit_arguments) {
  EREDU_TRY(config, config_argument.build());
  std::vector<OffloadUnitSpec> specs;
  specs.reserve(unit_arguments.size());
  for (const UnitArgument& unit : unit_arguments) {
    EREDU_TRY(id, OffloadUnitId::create(std::string(unit.id)));
    EREDU_TRY(spec, OffloadUnitSpec::create(std::move(id), unit.bytes, unit.policy, unit.tier));
    specs.push_back(std::move(spec));
  }
  return OffloadPlan::create(config, std::move(specs));
}

/// Every field of a plan's eredu_offload_plan_info.
eredu_offload_plan_info plan_info(const OffloadPlan& plan) {
  const OffloadConfig& config = plan.config();
  eredu_offload_plan_info info{};
  info.eviction_policy = static_cast<eredu_eviction_policy>(config.eviction_policy());
  info.has_device_budget = config.device_budget_bytes().has_value() ? 1 : 0;
  info.has_host_budget = config.host_budget_bytes().has_value() ? 1 : 0;
  info.device_budget_bytes = config.device_budget_bytes().value_or(0);
  info.host_budget_bytes = config.host_budget_bytes().value_or(0);
  info.prefetch_depth = config.prefetch_depth();
  info.unit_count = plan.units().size();
  info.planned_device_bytes = plan.planned_bytes().get(MemoryTier::Device);
  info.planned_host_bytes = plan.planned_bytes().get(MemoryTier::Host);
  info.planned_disk_bytes = plan.planned_bytes().get(MemoryTier::Disk);
  return info;
}

/// Checks the plan, then hands it to `body`.
template <class Body, class... Outs>
eredu_status plan_getter(const eredu_offload_plan* plan, eredu_error** error, Body&& body,
                         Outs*... outs) {
  return handle_call(
      plan, "plan", error, [&](const eredu_offload_plan& handle) { return body(handle.plan); },
      outs...);
}

}  // namespace
}  // namespace eredu::capi

// Defined at global scope: GCC gives extern "C" definitions inside a
// namespace that namespace's (hidden) visibility.
using namespace eredu;
using namespace eredu::capi;

extern "C" {

eredu_status eredu_offload_config_init(eredu_offload_config* config, size_t size,
                                       eredu_error** error) {
  return init_sized(config, size, "config", error);
}

eredu_status eredu_offload_unit_desc_init(eredu_offload_unit_desc* desc, size_t size,
                                          eredu_error** error) {
  return init_sized(desc, size, "desc", error);
}

eredu_status eredu_offload_plan_info_init(eredu_offload_plan_info* info, size_t size,
                                          eredu_error** error) {
  return init_sized(info, size, "info", error);
}

eredu_status eredu_offload_plan_new(const eredu_offload_config* config,
                                    const eredu_offload_unit_desc* const* units, size_t unit_count,
                                    eredu_offload_plan** out, eredu_error** error) {
  return firewall(
      error,
      [&]() -> Result<void> {
        EREDU_TRY(config_arguments, offload_argument(config, "config"));
        EREDU_TRY(unit_arguments, units_argument(units, unit_count));
        EREDU_TRY(require(out, "out"));
        EREDU_TRY(plan, build_plan(config_arguments, unit_arguments));
        *out = new eredu_offload_plan{std::move(plan)};
        return outcome::success();
      },
      out);
}

void eredu_offload_plan_free(eredu_offload_plan* plan) { delete plan; }

eredu_status eredu_offload_plan_validate(const eredu_offload_plan* plan, eredu_error** error) {
  return plan_getter(plan, error, [](const OffloadPlan& built) { return built.validate(); });
}

eredu_status eredu_offload_plan_get_info(const eredu_offload_plan* plan,
                                         eredu_offload_plan_info* out, eredu_error** error) {
  return plan_getter(
      plan, error,
      [&](const OffloadPlan& built) -> Result<void> {
        EREDU_TRY(sized_out(out, "out"));
        write_sized(out, plan_info(built));
        return outcome::success();
      },
      out);
}

size_t eredu_offload_plan_unit_count(const eredu_offload_plan* plan) {
  return plan == nullptr ? 0 : plan->plan.units().size();
}

eredu_status eredu_offload_plan_unit(const eredu_offload_plan* plan, size_t index,
                                     eredu_offload_unit_desc* unit, eredu_error** error) {
  return plan_getter(
      plan, error,
      [&](const OffloadPlan& built) -> Result<void> {
        EREDU_TRY(sized_out(unit, "unit"));
        EREDU_TRY(index_argument(index, built.units().size(), "index"));
        const OffloadUnitSpec& spec = built.units()[index];
        eredu_offload_unit_desc desc{};
        desc.id = spec.id().as_str().c_str();
        desc.bytes = spec.bytes();
        desc.policy = static_cast<eredu_residency_policy>(spec.policy());
        desc.tier = static_cast<eredu_memory_tier>(spec.tier());
        write_sized(unit, desc);
        return outcome::success();
      },
      unit);
}

eredu_status eredu_offload_plan_find_unit(const eredu_offload_plan* plan, const char* id,
                                          size_t* out, eredu_error** error) {
  return plan_getter(
      plan, error,
      [&](const OffloadPlan& built) -> Result<void> {
        EREDU_TRY(key, text_argument(id, "id"));
        EREDU_TRY(require(out, "out"));
        const OffloadUnitSpec* found = built.unit(key);
        if (found == nullptr) {
          return failf(Status::NotFound, "the offload plan has no unit {}", debug_quoted(key));
        }
        *out = static_cast<std::size_t>(found - built.units().data());
        return outcome::success();
      },
      out);
}

}  // extern "C"
