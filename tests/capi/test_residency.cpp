// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// eredu/runtime/residency.h: the offload core (every OffloadError reachable from C),
// weight bindings, static unit bindings, the dense transfer schedule and
// parameter-bank unit ids; eredu/runtime/layerwise_metadata.h; the sized-struct rule
// of their structs, with misuse.
#include <doctest/doctest.h>
#include <eredu/eredu.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "capi_support.hpp"
#include "sized_checks.hpp"

using namespace capi_test;

namespace {

struct PlanFree {
  void operator()(eredu_offload_plan* plan) const { eredu_offload_plan_free(plan); }
};
struct UnitFree {
  void operator()(eredu_static_unit_bindings* unit) const { eredu_static_unit_bindings_free(unit); }
};
struct ScheduleFree {
  void operator()(eredu_dense_transfer_schedule* schedule) const {
    eredu_dense_transfer_schedule_free(schedule);
  }
};
using Plan = std::unique_ptr<eredu_offload_plan, PlanFree>;
using Unit = std::unique_ptr<eredu_static_unit_bindings, UnitFree>;
using Schedule = std::unique_ptr<eredu_dense_transfer_schedule, ScheduleFree>;

struct UnitSpec {
  const char* id;
  std::uint64_t bytes;
  eredu_residency_policy policy;
  eredu_memory_tier tier;
};

eredu_offload_config config(std::optional<std::uint64_t> device, std::optional<std::uint64_t> host,
                            std::uint64_t depth) {
  eredu_offload_config result;
  REQUIRE(eredu_offload_config_init(&result, sizeof result, nullptr) == EREDU_OK);
  result.has_device_budget = device ? 1 : 0;
  result.device_budget_bytes = device.value_or(0);
  result.has_host_budget = host ? 1 : 0;
  result.host_budget_bytes = host.value_or(0);
  result.prefetch_depth = depth;
  return result;
}

Made<Plan> new_plan(const eredu_offload_config* config, const std::vector<UnitSpec>& units) {
  std::vector<eredu_offload_unit_desc> descs(units.size());
  std::vector<const eredu_offload_unit_desc*> pointers;
  for (std::size_t i = 0; i < units.size(); ++i) {
    descs[i] = EREDU_OFFLOAD_UNIT_DESC_INIT;
    descs[i].id = units[i].id;
    descs[i].bytes = units[i].bytes;
    descs[i].policy = units[i].policy;
    descs[i].tier = units[i].tier;
    pointers.push_back(&descs[i]);
  }
  Made<Plan> made;
  eredu_offload_plan* plan = nullptr;
  ErrorSlot error;
  made.status =
      eredu_offload_plan_new(config, pointers.data(), pointers.size(), &plan, error.slot());
  made.handle.reset(plan);
  made.error_code = error.code();
  made.message = error.message();
  if (made.status != EREDU_OK) CHECK(plan == nullptr);
  return made;
}

constexpr auto kPinned = EREDU_RESIDENCY_POLICY_PINNED;
constexpr auto kWindowed = EREDU_RESIDENCY_POLICY_WINDOWED;
constexpr auto kCacheable = EREDU_RESIDENCY_POLICY_CACHEABLE;
constexpr auto kDevice = EREDU_MEMORY_TIER_DEVICE;
constexpr auto kHost = EREDU_MEMORY_TIER_HOST;
constexpr auto kDisk = EREDU_MEMORY_TIER_DISK;

eredu_offload_plan_info plan_info(const eredu_offload_plan* plan) {
  eredu_offload_plan_info info = EREDU_OFFLOAD_PLAN_INFO_INIT;
  REQUIRE(eredu_offload_plan_get_info(plan, &info, nullptr) == EREDU_OK);
  CHECK(info.struct_size == sizeof(eredu_offload_plan_info));
  return info;
}

std::uint64_t planned(const eredu_offload_plan* plan, eredu_memory_tier tier) {
  const eredu_offload_plan_info info = plan_info(plan);
  switch (tier) {
    case EREDU_MEMORY_TIER_DEVICE:
      return info.planned_device_bytes;
    case EREDU_MEMORY_TIER_HOST:
      return info.planned_host_bytes;
    default:
      return info.planned_disk_bytes;
  }
}

eredu_offload_unit_desc unit_at(const eredu_offload_plan* plan, std::size_t index) {
  eredu_offload_unit_desc unit = EREDU_OFFLOAD_UNIT_DESC_INIT;
  REQUIRE(eredu_offload_plan_unit(plan, index, &unit, nullptr) == EREDU_OK);
  return unit;
}

eredu_weight_binding_desc binding(const char* name, const char* key, std::uint64_t bytes,
                                  const eredu_tensor_selection* selection = nullptr) {
  eredu_weight_binding_desc desc = EREDU_WEIGHT_BINDING_DESC_INIT;
  desc.name = name;
  desc.checkpoint_key = key;
  desc.expected_bytes = bytes;
  desc.selection = selection;
  return desc;
}

eredu_tensor_selection selection(eredu_selection_kind kind) {
  eredu_tensor_selection result;
  REQUIRE(eredu_tensor_selection_init(&result, sizeof result, nullptr) == EREDU_OK);
  result.kind = kind;
  return result;
}

/// eredu_weight_binding_validate's status, with its error code and message.
std::pair<eredu_status, std::string> validate(const eredu_weight_binding_desc* desc) {
  ErrorSlot error;
  const eredu_status status = eredu_weight_binding_validate(desc, error.slot());
  CHECK(error.code() == status);
  return {status, error.message()};
}

Made<Unit> new_unit(const char* id, const std::vector<const eredu_weight_binding_desc*>& bindings) {
  Made<Unit> made;
  eredu_static_unit_bindings* unit = nullptr;
  ErrorSlot error;
  made.status =
      eredu_static_unit_bindings_new(id, bindings.data(), bindings.size(), &unit, error.slot());
  made.handle.reset(unit);
  made.error_code = error.code();
  made.message = error.message();
  if (made.status != EREDU_OK) CHECK(unit == nullptr);
  return made;
}

Made<Schedule> new_range(std::uint64_t start, std::uint64_t end, std::size_t capacity) {
  Made<Schedule> made;
  eredu_dense_transfer_schedule* schedule = nullptr;
  ErrorSlot error;
  made.status =
      eredu_dense_transfer_schedule_new_range(start, end, capacity, &schedule, error.slot());
  made.handle.reset(schedule);
  made.error_code = error.code();
  made.message = error.message();
  return made;
}

Made<Schedule> new_schedule(const std::vector<std::uint64_t>& pending, std::size_t capacity) {
  Made<Schedule> made;
  eredu_dense_transfer_schedule* schedule = nullptr;
  ErrorSlot error;
  made.status = eredu_dense_transfer_schedule_new(pending.data(), pending.size(), capacity,
                                                  &schedule, error.slot());
  made.handle.reset(schedule);
  made.error_code = error.code();
  made.message = error.message();
  if (made.status != EREDU_OK) CHECK(schedule == nullptr);
  return made;
}

std::vector<std::uint64_t> desired(const eredu_dense_transfer_schedule* schedule,
                                   std::size_t lookahead) {
  std::vector<std::uint64_t> buffer(16, UINT64_MAX);
  std::size_t count = 0;
  REQUIRE(eredu_dense_transfer_schedule_desired_indices(
              schedule, lookahead, buffer.data(), buffer.size(), &count, nullptr) == EREDU_OK);
  buffer.resize(count);
  return buffer;
}

bool flag(bool (*query)(const eredu_dense_transfer_schedule*),
          const eredu_dense_transfer_schedule* schedule) {
  return query(schedule);
}

/// Admits (index, token); returns the status and fills the message.
eredu_status admit(eredu_dense_transfer_schedule* schedule, std::uint64_t index,
                   std::uint64_t token, std::string* message = nullptr) {
  ErrorSlot error;
  const eredu_status status =
      eredu_dense_transfer_schedule_admit(schedule, index, token, error.slot());
  CHECK(error.code() == status);
  if (message != nullptr) *message = error.message();
  return status;
}

std::optional<std::pair<std::uint64_t, std::uint64_t>> pop(
    eredu_dense_transfer_schedule* schedule) {
  std::uint64_t index = 7;
  std::uint64_t token = 7;
  bool popped = true;
  REQUIRE(eredu_dense_transfer_schedule_pop_ready(schedule, &index, &token, &popped, nullptr) ==
          EREDU_OK);
  if (!popped) {
    CHECK(index == 0);
    CHECK(token == 0);
    return std::nullopt;
  }
  return std::pair{index, token};
}

}  // namespace

// ---- Offload plans --------------------------------------------------------

TEST_CASE("explicit_plan_is_validated_sorted_and_inspectable through C") {
  const eredu_offload_config budgets = config(80, 40, 2);
  auto made = new_plan(&budgets, {{"layer.2", 20, kWindowed, kDisk},
                                  {"layer.0", 40, kPinned, kDevice},
                                  {"layer.1", 30, kCacheable, kHost}});
  REQUIRE(made.status == EREDU_OK);
  const eredu_offload_plan* plan = made.handle.get();
  CHECK(eredu_offload_plan_unit_count(plan) == 3);
  const char* expected_ids[] = {"layer.0", "layer.1", "layer.2"};
  for (std::size_t i = 0; i < 3; ++i) CHECK(std::string(unit_at(plan, i).id) == expected_ids[i]);
  const eredu_offload_unit_desc second = unit_at(plan, 1);
  CHECK(second.bytes == 30);
  CHECK(second.policy == kCacheable);
  CHECK(second.tier == kHost);
  CHECK(planned(plan, kDevice) == 40);
  CHECK(planned(plan, kHost) == 30);
  CHECK(planned(plan, kDisk) == 20);

  std::size_t index = 99;
  REQUIRE(eredu_offload_plan_find_unit(plan, "layer.1", &index, nullptr) == EREDU_OK);
  CHECK(index == 1);
  CHECK(unit_at(plan, index).bytes == 30);
  ErrorSlot error;
  index = 99;
  CHECK(eredu_offload_plan_find_unit(plan, "layer.3", &index, error.slot()) == EREDU_E_NOT_FOUND);
  CHECK(index == 0);
  CHECK(error.message() == "the offload plan has no unit \"layer.3\"");

  const eredu_offload_plan_info echoed = plan_info(plan);
  CHECK(echoed.has_device_budget == 1);
  CHECK(echoed.device_budget_bytes == 80);
  CHECK(echoed.has_host_budget == 1);
  CHECK(echoed.host_budget_bytes == 40);
  CHECK(echoed.prefetch_depth == 2);
  CHECK(echoed.eviction_policy == EREDU_EVICTION_LEAST_RECENTLY_USED);
  CHECK(echoed.unit_count == 3);
  CHECK(echoed.planned_device_bytes == 40);
  CHECK(echoed.planned_host_bytes == 30);
  CHECK(echoed.planned_disk_bytes == 20);
  CHECK(eredu_offload_plan_validate(plan, error.slot()) == EREDU_OK);
  CHECK(error.get() == nullptr);
}

TEST_CASE("offload config defaults and a NULL config") {
  eredu_offload_config defaults;
  std::memset(&defaults, 0xff, sizeof defaults);
  REQUIRE(eredu_offload_config_init(&defaults, sizeof defaults, nullptr) == EREDU_OK);
  CHECK(defaults.struct_size == sizeof(eredu_offload_config));
  CHECK(defaults.has_device_budget == 0);
  CHECK(defaults.device_budget_bytes == 0);
  CHECK(defaults.has_host_budget == 0);
  CHECK(defaults.host_budget_bytes == 0);
  CHECK(defaults.prefetch_depth == 1);
  CHECK(defaults.eviction_policy == EREDU_EVICTION_LEAST_RECENTLY_USED);
  const eredu_offload_config macro = EREDU_OFFLOAD_CONFIG_INIT;
  CHECK(macro.struct_size == defaults.struct_size);
  CHECK(macro.has_device_budget == 0);
  CHECK(macro.device_budget_bytes == 0);
  CHECK(macro.has_host_budget == 0);
  CHECK(macro.host_budget_bytes == 0);
  CHECK(macro.prefetch_depth == 1);
  CHECK(macro.eviction_policy == EREDU_EVICTION_LEAST_RECENTLY_USED);

  auto made = new_plan(nullptr, {{"a", UINT64_MAX, kPinned, kDevice}});
  REQUIRE(made.status == EREDU_OK);
  eredu_offload_plan_info echoed = plan_info(made.handle.get());
  CHECK(echoed.has_device_budget == 0);
  CHECK(echoed.has_host_budget == 0);
  CHECK(echoed.prefetch_depth == 1);
  CHECK(echoed.planned_device_bytes == UINT64_MAX);

  eredu_offload_config lfu = config(std::nullopt, 0, 3);
  lfu.eviction_policy = EREDU_EVICTION_LEAST_FREQUENTLY_USED;
  auto empty = new_plan(&lfu, {});
  REQUIRE(empty.status == EREDU_OK);
  echoed = plan_info(empty.handle.get());
  CHECK(echoed.has_device_budget == 0);
  CHECK(echoed.has_host_budget == 1);
  CHECK(echoed.host_budget_bytes == 0);
  CHECK(echoed.prefetch_depth == 3);
  CHECK(echoed.eviction_policy == EREDU_EVICTION_LEAST_FREQUENTLY_USED);
  CHECK(echoed.unit_count == 0);
  CHECK(eredu_offload_plan_unit_count(empty.handle.get()) == 0);
}

TEST_CASE("every offload error reachable from C has its own code and the seed text") {
  auto duplicate = new_plan(
      nullptr,
      {{"b", 1, kPinned, kDevice}, {"a", 1, kPinned, kDevice}, {"a", 2, kWindowed, kHost}});
  CHECK(duplicate.status == EREDU_E_DUPLICATE_UNIT_ID);
  CHECK(duplicate.error_code == EREDU_E_DUPLICATE_UNIT_ID);
  CHECK(duplicate.message == "duplicate offload unit identifier: a");

  const eredu_offload_config device_budget = config(9, std::nullopt, 1);
  auto device = new_plan(&device_budget, {{"u", 10, kPinned, kDevice}});
  CHECK(device.status == EREDU_E_BUDGET_EXCEEDED);
  CHECK(device.message == "planned 10 bytes for the Device tier exceed its 9-byte budget");

  const eredu_offload_config host_budget = config(std::nullopt, 4, 1);
  auto host = new_plan(&host_budget, {{"u", 5, kCacheable, kHost}});
  CHECK(host.status == EREDU_E_BUDGET_EXCEEDED);
  CHECK(host.message == "planned 5 bytes for the Host tier exceed its 4-byte budget");

  auto overflow =
      new_plan(nullptr, {{"a", UINT64_MAX, kCacheable, kHost}, {"b", 1, kCacheable, kHost}});
  CHECK(overflow.status == EREDU_E_BYTE_TOTAL_OVERFLOW);
  CHECK(overflow.message == "planned byte total overflowed for the Host tier");

  const eredu_offload_config zero_depth = config(std::nullopt, std::nullopt, 0);
  auto depth = new_plan(&zero_depth, {});
  CHECK(depth.status == EREDU_E_ZERO_PREFETCH_DEPTH);
  CHECK(depth.message == "offload prefetch depth must be nonzero");

  auto zero = new_plan(nullptr, {{"layer.0", 0, kPinned, kDevice}});
  CHECK(zero.status == EREDU_E_ZERO_SIZED_UNIT);
  CHECK(zero.message == "offload unit layer.0 must contain at least one byte");

  auto pinned = new_plan(nullptr, {{"layer.0", 1, kPinned, kDisk}});
  CHECK(pinned.status == EREDU_E_CONTRADICTORY_ASSIGNMENT);
  CHECK(pinned.message ==
        "offload unit layer.0 has contradictory Pinned/Disk assignment: pinned units must be "
        "assigned to a resident memory tier");

  auto blank = new_plan(nullptr, {{" \t", 1, kPinned, kDevice}});
  CHECK(blank.status == EREDU_E_EMPTY_UNIT_ID);
  CHECK(blank.message == "offload unit identifiers must not be empty");
}

TEST_CASE("offload plan checks follow docs/residency.md's order") {
  // The config before any unit.
  const eredu_offload_config zero_depth = config(std::nullopt, std::nullopt, 0);
  CHECK(new_plan(&zero_depth, {{"", 0, kPinned, kDisk}}).status == EREDU_E_ZERO_PREFETCH_DEPTH);
  // Per-unit checks in input order, before sorting and duplicates.
  CHECK(new_plan(nullptr, {{"z", 0, kPinned, kDevice}, {"a", 1, kPinned, kDisk}}).status ==
        EREDU_E_ZERO_SIZED_UNIT);
  CHECK(new_plan(nullptr, {{"z", 1, kPinned, kDisk}, {"", 1, kPinned, kDevice}}).status ==
        EREDU_E_CONTRADICTORY_ASSIGNMENT);
  CHECK(
      new_plan(nullptr,
               {{"a", 1, kPinned, kDevice}, {"a", 1, kPinned, kDevice}, {"b", 0, kPinned, kDevice}})
          .status == EREDU_E_ZERO_SIZED_UNIT);
  // The smallest duplicate, then overflow, then device, then host budgets.
  auto smallest = new_plan(nullptr, {{"z", 1, kPinned, kDevice},
                                     {"z", 1, kPinned, kDevice},
                                     {"m", 1, kPinned, kDevice},
                                     {"m", 1, kPinned, kDevice}});
  CHECK(smallest.message == "duplicate offload unit identifier: m");
  const eredu_offload_config none = config(0, 0, 1);
  CHECK(
      new_plan(&none, {{"a", UINT64_MAX, kWindowed, kDisk}, {"b", 1, kWindowed, kDisk}}).message ==
      "planned byte total overflowed for the Disk tier");
  auto budgets = new_plan(&none, {{"h", 5, kCacheable, kHost}, {"d", 3, kPinned, kDevice}});
  CHECK(budgets.message == "planned 3 bytes for the Device tier exceed its 0-byte budget");
  // Argument checks come before every seed check.
  eredu_offload_config bad = zero_depth;
  bad.eviction_policy = 2;
  CHECK(new_plan(&bad, {}).status == EREDU_E_INVALID_ARGUMENT);
  CHECK(new_plan(&zero_depth, {{"a", 1, kPinned, 3}}).status == EREDU_E_INVALID_ARGUMENT);
}

TEST_CASE("offload plan misuse") {
  const eredu_offload_unit_desc* none[] = {nullptr};
  eredu_offload_plan* plan = reinterpret_cast<eredu_offload_plan*>(std::uintptr_t{0x1234});
  ErrorSlot error;
  CHECK(eredu_offload_plan_new(nullptr, none, 1, &plan, error.slot()) == EREDU_E_NULL_ARGUMENT);
  CHECK(plan == nullptr);
  CHECK(error.message() == "argument units[0] is NULL");
  CHECK(eredu_offload_plan_new(nullptr, nullptr, 2, &plan, error.slot()) == EREDU_E_NULL_ARGUMENT);
  CHECK(eredu_offload_plan_new(nullptr, nullptr, 0, nullptr, error.slot()) ==
        EREDU_E_NULL_ARGUMENT);
  CHECK(error.message() == "argument out is NULL");
  CHECK(eredu_offload_plan_new(nullptr, none, SIZE_MAX, &plan, error.slot()) ==
        EREDU_E_INVALID_ARGUMENT);

  CHECK(new_plan(nullptr, {{nullptr, 1, kPinned, kDevice}}).message ==
        "argument units[0]->id is NULL");
  CHECK(new_plan(nullptr, {{"\xff", 1, kPinned, kDevice}}).status == EREDU_E_INVALID_ARGUMENT);
  CHECK(new_plan(nullptr, {{"a", 1, 3, kDevice}}).message == "unknown units[0]->policy value 3");
  CHECK(new_plan(nullptr, {{"a", 1, kPinned, 3}}).message == "unknown units[0]->tier value 3");

  eredu_offload_config flags = config(1, 1, 1);
  flags.has_host_budget = 2;
  CHECK(new_plan(&flags, {}).message == "flag config->has_host_budget is 2, expected 0 or 1");
  eredu_offload_config sized = config(1, 1, 1);
  sized.struct_size = 3;
  CHECK(new_plan(&sized, {}).status == EREDU_E_INVALID_ARGUMENT);
  eredu_offload_unit_desc desc;
  REQUIRE(eredu_offload_unit_desc_init(&desc, sizeof desc, nullptr) == EREDU_OK);
  desc.id = "a";
  desc.bytes = 1;
  desc.struct_size = 0;
  const eredu_offload_unit_desc* wrong[] = {&desc};
  CHECK(eredu_offload_plan_new(nullptr, wrong, 1, &plan, error.slot()) == EREDU_E_INVALID_ARGUMENT);
  CHECK(eredu_offload_config_init(nullptr, sizeof(eredu_offload_config), error.slot()) ==
        EREDU_E_NULL_ARGUMENT);
  CHECK(eredu_offload_unit_desc_init(nullptr, sizeof(eredu_offload_unit_desc), error.slot()) ==
        EREDU_E_NULL_ARGUMENT);
  CHECK(eredu_offload_plan_info_init(nullptr, sizeof(eredu_offload_plan_info), error.slot()) ==
        EREDU_E_NULL_ARGUMENT);

  auto made = new_plan(nullptr, {{"a", 1, kPinned, kDevice}});
  REQUIRE(made.status == EREDU_OK);
  const eredu_offload_plan* built = made.handle.get();
  eredu_offload_plan_info info = EREDU_OFFLOAD_PLAN_INFO_INIT;
  info.planned_device_bytes = 5;
  CHECK(eredu_offload_plan_get_info(nullptr, &info, error.slot()) == EREDU_E_NULL_ARGUMENT);
  CHECK(error.message() == "argument plan is NULL");
  CHECK(info.planned_device_bytes == 0);
  CHECK(eredu_offload_plan_get_info(built, nullptr, error.slot()) == EREDU_E_NULL_ARGUMENT);
  info.struct_size = 2;
  CHECK(eredu_offload_plan_get_info(built, &info, error.slot()) == EREDU_E_INVALID_ARGUMENT);
  CHECK(info.struct_size == 2);
  eredu_offload_unit_desc out = EREDU_OFFLOAD_UNIT_DESC_INIT;
  CHECK(eredu_offload_plan_unit(built, 1, &out, error.slot()) == EREDU_E_INVALID_ARGUMENT);
  CHECK(out.id == nullptr);
  out.struct_size = 1;
  CHECK(eredu_offload_plan_unit(built, 0, &out, error.slot()) == EREDU_E_INVALID_ARGUMENT);
  CHECK(eredu_offload_plan_unit(built, 0, nullptr, error.slot()) == EREDU_E_NULL_ARGUMENT);
  std::size_t index = 0;
  CHECK(eredu_offload_plan_find_unit(built, nullptr, &index, error.slot()) ==
        EREDU_E_NULL_ARGUMENT);
  CHECK(eredu_offload_plan_find_unit(built, "\xc3", &index, error.slot()) ==
        EREDU_E_INVALID_ARGUMENT);
  CHECK(eredu_offload_plan_find_unit(built, "a", nullptr, error.slot()) == EREDU_E_NULL_ARGUMENT);
  CHECK(eredu_offload_plan_unit_count(nullptr) == 0);
  CHECK(eredu_offload_plan_unit_count(built) == 1);
  CHECK(eredu_offload_plan_validate(nullptr, error.slot()) == EREDU_E_NULL_ARGUMENT);
  eredu_offload_plan_free(nullptr);
}

// ---- Weight bindings ------------------------------------------------------

TEST_CASE("weight bindings validate through C in the seed's order") {
  auto good = binding("embedding", "model.embedding.weight", 16);
  CHECK(validate(&good).first == EREDU_OK);
  auto name = binding(" ", "", 0);
  CHECK(validate(&name) ==
        std::pair<eredu_status, std::string>{EREDU_E_INVALID_BINDING_NAME,
                                             "weight binding names must not be empty"});
  auto key = binding("q", "\t", 0);
  CHECK(validate(&key) ==
        std::pair<eredu_status, std::string>{EREDU_E_INVALID_CHECKPOINT_KEY,
                                             "weight binding \"q\" has an empty checkpoint key"});
  auto bytes = binding("q", "model.q", 0);
  CHECK(validate(&bytes) ==
        std::pair<eredu_status, std::string>{
            EREDU_E_ZERO_SIZED_BINDING, "weight binding \"q\" must contain at least one byte"});
  auto target = binding("q", "model.q", 0);
  target.logical_target = "";
  CHECK(validate(&target).first == EREDU_E_ZERO_SIZED_BINDING);
  target.expected_bytes = 1;
  CHECK(validate(&target) ==
        std::pair<eredu_status, std::string>{EREDU_E_INVALID_BINDING_NAME,
                                             "weight binding names must not be empty"});
  target.logical_target = "attention.q";
  CHECK(validate(&target).first == EREDU_OK);

  // Selections are plain data: nothing is checked against a shape.
  auto range = selection(EREDU_SELECTION_RANGE);
  range.axis = 9;
  range.start = 4;
  range.end = 2;
  auto ranged = binding("q", "model.q", 1, &range);
  CHECK(validate(&ranged).first == EREDU_OK);
  auto empty_indices = selection(EREDU_SELECTION_INDICES);
  auto indexed = binding("q", "model.q", 1, &empty_indices);
  CHECK(validate(&indexed).first == EREDU_OK);
}

TEST_CASE("weight binding misuse") {
  CHECK(validate(nullptr) ==
        std::pair<eredu_status, std::string>{EREDU_E_NULL_ARGUMENT, "argument desc is NULL"});
  auto no_name = binding(nullptr, "k", 1);
  CHECK(validate(&no_name) ==
        std::pair<eredu_status, std::string>{EREDU_E_NULL_ARGUMENT, "argument name is NULL"});
  auto no_key = binding("n", nullptr, 1);
  CHECK(validate(&no_key).first == EREDU_E_NULL_ARGUMENT);
  auto utf8 = binding("n", "k\xff", 1);
  CHECK(validate(&utf8).first == EREDU_E_INVALID_ARGUMENT);
  auto sized = binding("n", "k", 1);
  sized.struct_size = 9;  // ends inside `name`
  CHECK(validate(&sized) ==
        std::pair<eredu_status, std::string>{EREDU_E_INVALID_ARGUMENT,
                                             "desc->struct_size 9 ends inside field name"});
  // Argument checks come before the seed's rules.
  auto target = binding(" ", "k", 0);
  target.logical_target = "\xff";
  CHECK(validate(&target).first == EREDU_E_INVALID_ARGUMENT);

  auto kind = selection(4);
  auto unknown = binding("n", "k", 1, &kind);
  CHECK(validate(&unknown) == std::pair<eredu_status, std::string>{
                                  EREDU_E_INVALID_ARGUMENT, "unknown selection->kind value 4"});
  auto full_axis = selection(EREDU_SELECTION_FULL);
  full_axis.axis = 1;
  auto axis = binding("n", "k", 1, &full_axis);
  CHECK(validate(&axis) == std::pair<eredu_status, std::string>{
                               EREDU_E_INVALID_ARGUMENT,
                               "selection->axis is set, but a full selection does not use it"});
  const std::uint64_t values[] = {1, 2};
  auto range_indices = selection(EREDU_SELECTION_RANGE);
  range_indices.indices = values;
  range_indices.index_count = 2;
  auto stray = binding("n", "k", 1, &range_indices);
  CHECK(validate(&stray).first == EREDU_E_INVALID_ARGUMENT);
  auto contiguous_start = selection(EREDU_SELECTION_CONTIGUOUS);
  contiguous_start.start = 1;
  auto start = binding("n", "k", 1, &contiguous_start);
  CHECK(validate(&start).first == EREDU_E_INVALID_ARGUMENT);
  auto indices_shape = selection(EREDU_SELECTION_INDICES);
  indices_shape.ndim = 1;
  indices_shape.shape = values;
  auto shape = binding("n", "k", 1, &indices_shape);
  CHECK(validate(&shape).first == EREDU_E_INVALID_ARGUMENT);
  auto null_indices = selection(EREDU_SELECTION_INDICES);
  null_indices.index_count = 3;
  auto missing = binding("n", "k", 1, &null_indices);
  CHECK(validate(&missing) ==
        std::pair<eredu_status, std::string>{
            EREDU_E_NULL_ARGUMENT, "argument selection->indices is NULL but its count is 3"});
  auto null_shape = selection(EREDU_SELECTION_CONTIGUOUS);
  null_shape.ndim = 1;
  auto missing_shape = binding("n", "k", 1, &null_shape);
  CHECK(validate(&missing_shape).first == EREDU_E_NULL_ARGUMENT);
  auto huge = selection(EREDU_SELECTION_INDICES);
  huge.indices = values;
  huge.index_count = SIZE_MAX;
  auto too_large = binding("n", "k", 1, &huge);
  CHECK(validate(&too_large).first == EREDU_E_INVALID_ARGUMENT);
  auto sized_selection = selection(EREDU_SELECTION_FULL);
  sized_selection.struct_size = 0;
  auto wrong = binding("n", "k", 1, &sized_selection);
  CHECK(validate(&wrong).first == EREDU_E_INVALID_ARGUMENT);
  CHECK(eredu_tensor_selection_init(nullptr, sizeof(eredu_tensor_selection), nullptr) ==
        EREDU_E_NULL_ARGUMENT);
  CHECK(eredu_weight_binding_desc_init(nullptr, sizeof(eredu_weight_binding_desc), nullptr) ==
        EREDU_E_NULL_ARGUMENT);
}

TEST_CASE("static_unit_bindings_are_runtime_owned_and_decomposable through C") {
  const std::uint64_t indices[] = {5, 1, 5};
  const std::uint64_t span_shape[] = {2, 3};
  auto by_index = selection(EREDU_SELECTION_INDICES);
  by_index.axis = 1;
  by_index.indices = indices;
  by_index.index_count = 3;
  auto span = selection(EREDU_SELECTION_CONTIGUOUS);
  span.offset_elements = 12;
  span.shape = span_shape;
  span.ndim = 2;
  auto range = selection(EREDU_SELECTION_RANGE);
  range.axis = 0;
  range.start = 2;
  range.end = 6;
  auto embedding = binding("embedding", "model.embedding.weight", 16);
  auto experts = binding("experts", "model.experts", 24, &by_index);
  experts.logical_target = "moe.experts";
  auto packed = binding("packed", "model.packed", 48, &span);
  auto rows = binding("rows", "model.rows", 8, &range);

  auto made = new_unit("static.embedding", {&embedding, &experts, &packed, &rows});
  REQUIRE(made.status == EREDU_OK);
  const eredu_static_unit_bindings* unit = made.handle.get();
  const char* id = nullptr;
  std::size_t length = 0;
  REQUIRE(eredu_static_unit_bindings_id(unit, &id, &length, nullptr) == EREDU_OK);
  CHECK(std::string(id) == "static.embedding");
  CHECK(length == 16);
  CHECK(eredu_static_unit_bindings_count(unit) == 4);

  eredu_weight_binding_desc out;
  REQUIRE(eredu_weight_binding_desc_init(&out, sizeof out, nullptr) == EREDU_OK);
  REQUIRE(eredu_static_unit_bindings_binding(unit, 0, &out, nullptr) == EREDU_OK);
  CHECK(out.struct_size == sizeof(eredu_weight_binding_desc));
  CHECK(std::string(out.name) == "embedding");
  CHECK(std::string(out.checkpoint_key) == "model.embedding.weight");
  CHECK(out.expected_bytes == 16);
  CHECK(out.logical_target == nullptr);
  REQUIRE(out.selection != nullptr);
  CHECK(out.selection->struct_size == sizeof(eredu_tensor_selection));
  CHECK(out.selection->kind == EREDU_SELECTION_FULL);
  CHECK(out.selection->indices == nullptr);
  CHECK(out.selection->shape == nullptr);
  // A returned descriptor is itself a valid binding.
  CHECK(validate(&out).first == EREDU_OK);

  REQUIRE(eredu_static_unit_bindings_binding(unit, 1, &out, nullptr) == EREDU_OK);
  CHECK(std::string(out.logical_target) == "moe.experts");
  CHECK(out.selection->kind == EREDU_SELECTION_INDICES);
  CHECK(out.selection->axis == 1);
  CHECK(std::vector<std::uint64_t>(out.selection->indices,
                                   out.selection->indices + out.selection->index_count) ==
        std::vector<std::uint64_t>{5, 1, 5});
  REQUIRE(eredu_static_unit_bindings_binding(unit, 2, &out, nullptr) == EREDU_OK);
  CHECK(out.selection->kind == EREDU_SELECTION_CONTIGUOUS);
  CHECK(out.selection->offset_elements == 12);
  CHECK(std::vector<std::uint64_t>(out.selection->shape,
                                   out.selection->shape + out.selection->ndim) == Shape{2, 3});
  REQUIRE(eredu_static_unit_bindings_binding(unit, 3, &out, nullptr) == EREDU_OK);
  CHECK(out.selection->kind == EREDU_SELECTION_RANGE);
  CHECK(out.selection->start == 2);
  CHECK(out.selection->end == 6);
  CHECK(out.expected_bytes == 8);

  ErrorSlot error;
  CHECK(eredu_static_unit_bindings_binding(unit, 4, &out, error.slot()) ==
        EREDU_E_INVALID_ARGUMENT);
  CHECK(out.name == nullptr);
  CHECK(out.selection == nullptr);
  out.struct_size = 0;
  CHECK(eredu_static_unit_bindings_binding(unit, 0, &out, error.slot()) ==
        EREDU_E_INVALID_ARGUMENT);
}

TEST_CASE("static unit bindings: bindings first, then the unit id") {
  auto good = binding("embedding", "model.embedding.weight", 16);
  auto zero = binding("zero", "model.zero", 0);
  auto empty = new_unit(" ", {&good});
  CHECK(empty.status == EREDU_E_EMPTY_UNIT_ID);
  CHECK(empty.message == "offload unit identifiers must not be empty");
  auto both = new_unit(" ", {&good, &zero});
  CHECK(both.status == EREDU_E_ZERO_SIZED_BINDING);
  CHECK(both.message == "weight binding \"zero\" must contain at least one byte");
  auto key = binding("k", "", 1);
  CHECK(new_unit("u", {&key}).status == EREDU_E_INVALID_CHECKPOINT_KEY);
  auto name = binding("", "k", 1);
  CHECK(new_unit("u", {&good, &name}).status == EREDU_E_INVALID_BINDING_NAME);
  auto none = new_unit("static.none", {});
  REQUIRE(none.status == EREDU_OK);
  CHECK(eredu_static_unit_bindings_count(none.handle.get()) == 0);

  // Argument checks (every binding) before any seed rule.
  auto null_key = binding("n", nullptr, 1);
  auto missing = new_unit(" ", {&zero, &null_key});
  CHECK(missing.status == EREDU_E_NULL_ARGUMENT);
  CHECK(missing.message == "argument bindings[1]->checkpoint_key is NULL");
  auto kind = selection(7);
  auto unknown = binding("n", "k", 1, &kind);
  CHECK(new_unit("u", {&good, &unknown}).message == "unknown bindings[1]->selection->kind value 7");
  CHECK(new_unit(nullptr, {&good}).message == "argument id is NULL");
  CHECK(new_unit("u", {nullptr}).message == "argument bindings[0] is NULL");
  eredu_static_unit_bindings* unit = nullptr;
  const eredu_weight_binding_desc* list[] = {&good};
  CHECK(eredu_static_unit_bindings_new("u", list, 1, nullptr, nullptr) == EREDU_E_NULL_ARGUMENT);
  CHECK(eredu_static_unit_bindings_new("u", nullptr, 1, &unit, nullptr) == EREDU_E_NULL_ARGUMENT);
  CHECK(eredu_static_unit_bindings_new("u", list, SIZE_MAX, &unit, nullptr) ==
        EREDU_E_INVALID_ARGUMENT);
  const char* id = "x";
  CHECK(eredu_static_unit_bindings_id(nullptr, &id, nullptr, nullptr) == EREDU_E_NULL_ARGUMENT);
  CHECK(id == nullptr);
  CHECK(eredu_static_unit_bindings_id(none.handle.get(), nullptr, nullptr, nullptr) ==
        EREDU_E_NULL_ARGUMENT);
  CHECK(eredu_static_unit_bindings_count(nullptr) == 0);
  eredu_static_unit_bindings_free(nullptr);
}

// ---- Dense transfer schedule ----------------------------------------------

TEST_CASE("dense_transfer_schedule_preserves_order_and_bounded_lookahead through C") {
  auto made = new_range(3, 7, 2);
  REQUIRE(made.status == EREDU_OK);
  eredu_dense_transfer_schedule* schedule = made.handle.get();
  CHECK(desired(schedule, 3) == std::vector<std::uint64_t>{3, 4, 5});
  std::string message;
  CHECK(admit(schedule, 4, 40, &message) == EREDU_E_OUT_OF_ORDER);
  CHECK(message == "dense transfer schedule expected unit 3, received 4");
  CHECK(admit(schedule, 3, 30) == EREDU_OK);
  CHECK(admit(schedule, 4, 40) == EREDU_OK);
  CHECK_FALSE(flag(eredu_dense_transfer_schedule_can_admit, schedule));
  CHECK(desired(schedule, 3) == std::vector<std::uint64_t>{3, 4, 5});
  CHECK(pop(schedule) == std::pair<std::uint64_t, std::uint64_t>{3, 30});
  CHECK(admit(schedule, 5, 50) == EREDU_OK);
  CHECK(desired(schedule, 4) == std::vector<std::uint64_t>{4, 5, 6});
  CHECK(pop(schedule) == std::pair<std::uint64_t, std::uint64_t>{4, 40});
  CHECK(pop(schedule) == std::pair<std::uint64_t, std::uint64_t>{5, 50});
  CHECK(admit(schedule, 6, 60) == EREDU_OK);
  CHECK(pop(schedule) == std::pair<std::uint64_t, std::uint64_t>{6, 60});
  CHECK(flag(eredu_dense_transfer_schedule_is_exhausted, schedule));
  CHECK(pop(schedule) == std::nullopt);
}

TEST_CASE("every dense transfer schedule error reachable from C") {
  auto zero = new_range(0, 4, 0);
  CHECK(zero.status == EREDU_E_ZERO_CAPACITY);
  CHECK(zero.message == "dense transfer window capacity must be nonzero");
  CHECK(new_schedule({5, 3}, 0).status == EREDU_E_ZERO_CAPACITY);
  auto unordered = new_schedule({1, 5, 3}, 1);
  CHECK(unordered.status == EREDU_E_UNORDERED_PENDING);
  CHECK(unordered.message == "dense transfer pending unit 3 does not follow 5");

  auto made = new_schedule({2, 9}, 1);
  REQUIRE(made.status == EREDU_OK);
  eredu_dense_transfer_schedule* schedule = made.handle.get();
  std::uint64_t next = 0;
  bool present = false;
  REQUIRE(eredu_dense_transfer_schedule_next_pending(schedule, &next, &present, nullptr) ==
          EREDU_OK);
  CHECK(present);
  CHECK(next == 2);
  CHECK(admit(schedule, 2, 1) == EREDU_OK);
  std::string message;
  CHECK(admit(schedule, 9, 2, &message) == EREDU_E_CAPACITY_EXCEEDED);
  CHECK(message == "dense transfer window exceeds its capacity of 1");
  CHECK(flag(eredu_dense_transfer_schedule_has_ready, schedule));
  CHECK(pop(schedule) == std::pair<std::uint64_t, std::uint64_t>{2, 1});
  CHECK(admit(schedule, 3, 2, &message) == EREDU_E_OUT_OF_ORDER);
  CHECK(message == "dense transfer schedule expected unit 9, received 3");
  CHECK(admit(schedule, 9, UINT64_MAX) == EREDU_OK);
  CHECK(pop(schedule) == std::pair<std::uint64_t, std::uint64_t>{9, UINT64_MAX});
  CHECK(admit(schedule, 10, 0, &message) == EREDU_E_NO_PENDING_UNIT);
  CHECK(message == "dense transfer schedule has no pending unit");
  REQUIRE(eredu_dense_transfer_schedule_next_pending(schedule, &next, &present, nullptr) ==
          EREDU_OK);
  CHECK_FALSE(present);
  CHECK(next == 0);
  CHECK_FALSE(flag(eredu_dense_transfer_schedule_has_ready, schedule));
  CHECK(flag(eredu_dense_transfer_schedule_is_exhausted, schedule));
}

TEST_CASE("desired indices into a caller buffer") {
  auto made = new_range(0, UINT64_MAX, 4);
  REQUIRE(made.status == EREDU_OK);
  eredu_dense_transfer_schedule* schedule = made.handle.get();
  CHECK(admit(schedule, 0, 0) == EREDU_OK);
  std::uint64_t buffer[3] = {9, 9, 9};
  std::size_t count = 0;
  ErrorSlot error;
  CHECK(eredu_dense_transfer_schedule_desired_indices(schedule, 5, buffer, 3, &count,
                                                      error.slot()) == EREDU_E_BUFFER_TOO_SMALL);
  CHECK(count == 5);
  CHECK(error.message() == "the desired indices need 5 entries, the buffer holds 3");
  CHECK(buffer[0] == 9);
  CHECK(eredu_dense_transfer_schedule_desired_indices(schedule, 5, nullptr, 0, &count,
                                                      error.slot()) == EREDU_E_BUFFER_TOO_SMALL);
  CHECK(count == 5);
  CHECK(eredu_dense_transfer_schedule_desired_indices(schedule, 0, nullptr, 0, &count,
                                                      error.slot()) == EREDU_OK);
  CHECK(count == 0);
  CHECK(eredu_dense_transfer_schedule_desired_indices(schedule, 3, buffer, 3, &count,
                                                      error.slot()) == EREDU_OK);
  CHECK(count == 3);
  CHECK(std::vector<std::uint64_t>(buffer, buffer + 3) == std::vector<std::uint64_t>{0, 1, 2});
  CHECK(desired(made.handle.get(), 16).size() == 16);

  auto sparse = new_schedule({1, 4, 5, UINT64_MAX}, 2);
  REQUIRE(sparse.status == EREDU_OK);
  CHECK(desired(sparse.handle.get(), 10) == std::vector<std::uint64_t>{1, 4, 5, UINT64_MAX});
  auto empty = new_schedule({}, 1);
  REQUIRE(empty.status == EREDU_OK);
  CHECK(desired(empty.handle.get(), 10).empty());
  CHECK(flag(eredu_dense_transfer_schedule_is_exhausted, empty.handle.get()));
  CHECK_FALSE(flag(eredu_dense_transfer_schedule_can_admit, empty.handle.get()));
  CHECK(flag(eredu_dense_transfer_schedule_is_exhausted, new_range(5, 2, 1).handle.get()));
}

TEST_CASE("dense transfer schedule misuse") {
  eredu_dense_transfer_schedule* schedule = nullptr;
  ErrorSlot error;
  CHECK(eredu_dense_transfer_schedule_new(nullptr, 2, 1, &schedule, error.slot()) ==
        EREDU_E_NULL_ARGUMENT);
  CHECK(eredu_dense_transfer_schedule_new(nullptr, 0, 1, nullptr, error.slot()) ==
        EREDU_E_NULL_ARGUMENT);
  const std::uint64_t one = 1;
  CHECK(eredu_dense_transfer_schedule_new(&one, SIZE_MAX, 1, &schedule, error.slot()) ==
        EREDU_E_INVALID_ARGUMENT);
  CHECK(eredu_dense_transfer_schedule_new_range(0, 1, 1, nullptr, error.slot()) ==
        EREDU_E_NULL_ARGUMENT);
  CHECK(eredu_dense_transfer_schedule_admit(nullptr, 0, 0, error.slot()) == EREDU_E_NULL_ARGUMENT);

  auto made = new_range(0, 2, 1);
  REQUIRE(made.status == EREDU_OK);
  eredu_dense_transfer_schedule* cursor = made.handle.get();
  std::uint64_t index = 5;
  std::uint64_t token = 5;
  bool present = true;
  CHECK(eredu_dense_transfer_schedule_pop_ready(cursor, nullptr, &token, &present, error.slot()) ==
        EREDU_E_NULL_ARGUMENT);
  CHECK(token == 0);
  CHECK_FALSE(present);
  CHECK(eredu_dense_transfer_schedule_pop_ready(cursor, &index, nullptr, &present, error.slot()) ==
        EREDU_E_NULL_ARGUMENT);
  CHECK(eredu_dense_transfer_schedule_pop_ready(cursor, &index, &token, nullptr, error.slot()) ==
        EREDU_E_NULL_ARGUMENT);
  CHECK(eredu_dense_transfer_schedule_pop_ready(nullptr, &index, &token, &present, error.slot()) ==
        EREDU_E_NULL_ARGUMENT);
  std::size_t count = 7;
  CHECK(eredu_dense_transfer_schedule_desired_indices(cursor, 1, nullptr, 2, &count,
                                                      error.slot()) == EREDU_E_NULL_ARGUMENT);
  CHECK(count == 0);
  CHECK(eredu_dense_transfer_schedule_desired_indices(cursor, 1, nullptr, 0, nullptr,
                                                      error.slot()) == EREDU_E_NULL_ARGUMENT);
  CHECK(eredu_dense_transfer_schedule_desired_indices(nullptr, 1, nullptr, 0, &count,
                                                      error.slot()) == EREDU_E_NULL_ARGUMENT);
  // The predicates cannot fail: false for NULL.
  CHECK_FALSE(eredu_dense_transfer_schedule_can_admit(nullptr));
  CHECK_FALSE(eredu_dense_transfer_schedule_has_ready(nullptr));
  CHECK_FALSE(eredu_dense_transfer_schedule_is_exhausted(nullptr));
  CHECK(eredu_dense_transfer_schedule_can_admit(cursor));
  CHECK_FALSE(eredu_dense_transfer_schedule_has_ready(cursor));
  CHECK_FALSE(eredu_dense_transfer_schedule_is_exhausted(cursor));
  CHECK(eredu_dense_transfer_schedule_next_pending(cursor, nullptr, &present, error.slot()) ==
        EREDU_E_NULL_ARGUMENT);
  CHECK(eredu_dense_transfer_schedule_next_pending(cursor, &index, nullptr, error.slot()) ==
        EREDU_E_NULL_ARGUMENT);
  eredu_dense_transfer_schedule_free(nullptr);
}

// ---- Parameter-bank keys --------------------------------------------------

TEST_CASE("parameter bank unit ids into a caller buffer") {
  char buffer[64];
  std::size_t required = 0;
  REQUIRE(eredu_parameter_bank_key_unit_id(3, 7, buffer, sizeof buffer, &required, nullptr) ==
          EREDU_OK);
  CHECK(std::string(buffer) == "bank.unit.00003.member.00007");
  CHECK(required == 29);
  REQUIRE(eredu_parameter_bank_key_unit_id(123456, UINT64_MAX, buffer, sizeof buffer, &required,
                                           nullptr) == EREDU_OK);
  CHECK(std::string(buffer) == "bank.unit.123456.member.18446744073709551615");

  ErrorSlot error;
  char small[28];
  std::memset(small, 'x', sizeof small);
  CHECK(eredu_parameter_bank_key_unit_id(3, 7, small, sizeof small, &required, error.slot()) ==
        EREDU_E_BUFFER_TOO_SMALL);
  CHECK(required == 29);
  CHECK(error.message() == "the unit id needs 29 bytes, the buffer holds 28");
  CHECK(small[0] == 'x');
  CHECK(eredu_parameter_bank_key_unit_id(3, 7, nullptr, 0, &required, error.slot()) ==
        EREDU_E_BUFFER_TOO_SMALL);
  CHECK(required == 29);
  CHECK(eredu_parameter_bank_key_unit_id(3, 7, nullptr, 4, &required, error.slot()) ==
        EREDU_E_NULL_ARGUMENT);
  CHECK(required == 0);
  CHECK(eredu_parameter_bank_key_unit_id(3, 7, buffer, sizeof buffer, nullptr, error.slot()) ==
        EREDU_E_NULL_ARGUMENT);
}

TEST_CASE("residency constants") {
  CHECK(EREDU_DENSE_TRANSFER_WINDOW == 2);
  CHECK(EREDU_DEFAULT_MAX_CACHED_SHARDS == 4);
  CHECK(std::string(eredu_status_name(EREDU_E_OUT_OF_ORDER)) == "EREDU_E_OUT_OF_ORDER");
}

// ---- Expert passes ---------------------------------------------------------

TEST_CASE("every expert pass projects to its parameter-bank access class") {
  eredu_parameter_bank_access access = 7;
  REQUIRE(eredu_expert_pass_parameter_bank_access(EREDU_EXPERT_PASS_PREFILL, &access, nullptr) ==
          EREDU_OK);
  CHECK(access == EREDU_PARAMETER_BANK_ACCESS_BULK);
  REQUIRE(eredu_expert_pass_parameter_bank_access(EREDU_EXPERT_PASS_DECODE, &access, nullptr) ==
          EREDU_OK);
  CHECK(access == EREDU_PARAMETER_BANK_ACCESS_INCREMENTAL);
  CHECK(EREDU_EXPERT_PASS_PREFILL == 0);
  CHECK(EREDU_EXPERT_PASS_DECODE == 1);
  CHECK(EREDU_PARAMETER_BANK_ACCESS_BULK == 0);
  CHECK(EREDU_PARAMETER_BANK_ACCESS_INCREMENTAL == 1);

  ErrorSlot error;
  access = 7;
  CHECK(eredu_expert_pass_parameter_bank_access(2, &access, error.slot()) ==
        EREDU_E_INVALID_ARGUMENT);
  CHECK(error.code() == EREDU_E_INVALID_ARGUMENT);
  CHECK(error.message() == "unknown pass value 2");
  CHECK(access == 0);
  CHECK(eredu_expert_pass_parameter_bank_access(EREDU_EXPERT_PASS_DECODE, nullptr, error.slot()) ==
        EREDU_E_NULL_ARGUMENT);
  CHECK(error.message() == "argument out is NULL");
  // The pass is checked before out.
  CHECK(eredu_expert_pass_parameter_bank_access(2, nullptr, error.slot()) ==
        EREDU_E_INVALID_ARGUMENT);
}

// ---- Layerwise model metadata ---------------------------------------------

namespace {

struct MetadataFree {
  void operator()(eredu_layerwise_model_metadata* metadata) const {
    eredu_layerwise_model_metadata_free(metadata);
  }
};
using Metadata = std::unique_ptr<eredu_layerwise_model_metadata, MetadataFree>;

eredu_linear_format format_of(eredu_linear_format_kind kind) {
  eredu_linear_format format;
  REQUIRE(eredu_linear_format_init(&format, sizeof format, nullptr) == EREDU_OK);
  format.kind = kind;
  return format;
}

/// The seed test's snapshot ("generic", None, 4, 10, LayerwiseHost, 20, 8,
/// 6, 2) with `quantization`.
Made<Metadata> new_metadata(
    const eredu_linear_format* quantization, const char* model_type = "generic",
    eredu_execution_residency residency = EREDU_EXECUTION_RESIDENCY_LAYERWISE_HOST) {
  Made<Metadata> made;
  eredu_layerwise_model_metadata* metadata = nullptr;
  ErrorSlot error;
  made.status = eredu_layerwise_model_metadata_new(model_type, quantization, 4, 10, residency, 20,
                                                   8, 6, 2, &metadata, error.slot());
  made.handle.reset(metadata);
  made.error_code = error.code();
  made.message = error.message();
  return made;
}

eredu_layerwise_model_metadata_info info_of(const eredu_layerwise_model_metadata* metadata) {
  eredu_layerwise_model_metadata_info info = EREDU_LAYERWISE_MODEL_METADATA_INFO_INIT;
  REQUIRE(eredu_layerwise_model_metadata_get_info(metadata, &info, nullptr) == EREDU_OK);
  CHECK(info.struct_size == sizeof(eredu_layerwise_model_metadata_info));
  return info;
}

std::string model_type_of(const eredu_layerwise_model_metadata* metadata) {
  const eredu_layerwise_model_metadata_info info = info_of(metadata);
  CHECK(std::strlen(info.effective_model_type) == info.effective_model_type_length);
  return std::string(info.effective_model_type, info.effective_model_type_length);
}

/// The quantization getter: the format, or nullopt when absent (and then
/// the info says so too).
std::optional<eredu_linear_format> quantization_of(const eredu_layerwise_model_metadata* metadata) {
  eredu_linear_format format = EREDU_LINEAR_FORMAT_INIT;
  bool present = true;
  REQUIRE(eredu_layerwise_model_metadata_quantization(metadata, &format, &present, nullptr) ==
          EREDU_OK);
  CHECK(info_of(metadata).has_quantization == (present ? 1 : 0));
  if (!present) {
    CHECK(format.struct_size == sizeof(eredu_linear_format));
    CHECK(format.kind == EREDU_LINEAR_FORMAT_DENSE);
    CHECK(format.affine_group_size == 0);
    CHECK(format.affine_bits == 0);
    CHECK(format.block_rows == 0);
    return std::nullopt;
  }
  return format;
}

}  // namespace

TEST_CASE("layerwise_metadata_is_runtime_owned_and_updateable through C") {
  const Made<Metadata> made = new_metadata(nullptr);
  REQUIRE(made.status == EREDU_OK);
  eredu_layerwise_model_metadata* metadata = made.handle.get();
  CHECK(model_type_of(metadata) == "generic");
  CHECK_FALSE(quantization_of(metadata).has_value());

  REQUIRE(eredu_layerwise_model_metadata_set_effective_model_type(metadata, "llama", nullptr) ==
          EREDU_OK);
  const eredu_linear_format affine = format_of(EREDU_LINEAR_FORMAT_AFFINE);  // default 64/4
  REQUIRE(eredu_layerwise_model_metadata_set_quantization(metadata, &affine, nullptr) == EREDU_OK);

  CHECK(model_type_of(metadata) == "llama");
  const std::optional<eredu_linear_format> quantization = quantization_of(metadata);
  REQUIRE(quantization.has_value());
  CHECK(quantization->struct_size == sizeof(eredu_linear_format));
  CHECK(quantization->kind == EREDU_LINEAR_FORMAT_AFFINE);
  CHECK(quantization->affine_group_size == 64);
  CHECK(quantization->affine_bits == 4);
  CHECK(quantization->ggml_type == 0);
  CHECK(quantization->block_rows == 0);
  CHECK(quantization->block_columns == 0);

  const eredu_layerwise_model_metadata_info info = info_of(metadata);
  CHECK(info.layer_count == 4);
  CHECK(info.static_device_bytes == 10);
  CHECK(info.layer_parameter_bytes == 20);
  CHECK(info.maximum_device_layer_bytes == 8);
  CHECK(info.maximum_host_layer_bytes == 6);
  CHECK(info.device_layer_capacity == 2);
  CHECK(info.residency == EREDU_EXECUTION_RESIDENCY_LAYERWISE_HOST);
  CHECK(info.has_quantization == 1);

  // Back to none: NULL, or DENSE (the seed's None spelled as a LinearFormat).
  REQUIRE(eredu_layerwise_model_metadata_set_quantization(metadata, nullptr, nullptr) == EREDU_OK);
  CHECK_FALSE(quantization_of(metadata).has_value());
  REQUIRE(eredu_layerwise_model_metadata_set_quantization(metadata, &affine, nullptr) == EREDU_OK);
  const eredu_linear_format dense = format_of(EREDU_LINEAR_FORMAT_DENSE);
  REQUIRE(eredu_layerwise_model_metadata_set_quantization(metadata, &dense, nullptr) == EREDU_OK);
  CHECK_FALSE(quantization_of(metadata).has_value());
}

TEST_CASE("layerwise metadata keeps every weight quantization and residency") {
  const eredu_linear_format mxfp4 = format_of(EREDU_LINEAR_FORMAT_MXFP4);
  const Made<Metadata> made = new_metadata(&mxfp4, "", EREDU_EXECUTION_RESIDENCY_DENSE_DISK_STREAM);
  REQUIRE(made.status == EREDU_OK);
  CHECK(model_type_of(made.handle.get()).empty());  // the seed checks no text
  std::optional<eredu_linear_format> quantization = quantization_of(made.handle.get());
  REQUIRE(quantization.has_value());
  CHECK(quantization->kind == EREDU_LINEAR_FORMAT_MXFP4);
  CHECK(quantization->affine_group_size == 0);
  CHECK(quantization->affine_bits == 0);
  CHECK(info_of(made.handle.get()).residency == EREDU_EXECUTION_RESIDENCY_DENSE_DISK_STREAM);

  eredu_linear_format gguf = format_of(EREDU_LINEAR_FORMAT_GGUF);
  gguf.ggml_type = 12;  // Q4_K
  REQUIRE(eredu_layerwise_model_metadata_set_quantization(made.handle.get(), &gguf, nullptr) ==
          EREDU_OK);
  quantization = quantization_of(made.handle.get());
  REQUIRE(quantization.has_value());
  CHECK(quantization->kind == EREDU_LINEAR_FORMAT_GGUF);
  CHECK(quantization->ggml_type == 12);
  CHECK(quantization->affine_group_size == 0);

  eredu_linear_format affine = format_of(EREDU_LINEAR_FORMAT_AFFINE);
  affine.affine_group_size = 128;
  affine.affine_bits = 8;
  const Made<Metadata> resident =
      new_metadata(&affine, "qwen2", EREDU_EXECUTION_RESIDENCY_FULLY_RESIDENT);
  REQUIRE(resident.status == EREDU_OK);
  quantization = quantization_of(resident.handle.get());
  REQUIRE(quantization.has_value());
  CHECK(quantization->affine_group_size == 128);
  CHECK(quantization->affine_bits == 8);
  CHECK(info_of(resident.handle.get()).residency == EREDU_EXECUTION_RESIDENCY_FULLY_RESIDENT);
}

TEST_CASE("layerwise metadata quantization errors change nothing") {
  eredu_linear_format affine = format_of(EREDU_LINEAR_FORMAT_AFFINE);
  affine.affine_group_size = 48;
  affine.affine_bits = 7;
  Made<Metadata> made = new_metadata(&affine);
  CHECK(made.status == EREDU_E_INVALID_FORMAT);
  CHECK(made.error_code == EREDU_E_INVALID_FORMAT);
  CHECK(made.message == "group_size must be 16 or a positive multiple of 32, got 48");
  CHECK(made.handle == nullptr);
  affine.affine_group_size = 32;
  made = new_metadata(&affine);
  CHECK(made.status == EREDU_E_INVALID_FORMAT);
  CHECK(made.message == "bits must be one of 2, 3, 4, 5, 6, or 8, got 7");

  eredu_linear_format gguf = format_of(EREDU_LINEAR_FORMAT_GGUF);
  gguf.ggml_type = 4;
  made = new_metadata(&gguf);
  CHECK(made.status == EREDU_E_INVALID_FORMAT);
  CHECK(made.message == "unsupported GGML tensor type 4");

  const eredu_linear_format fp8 = format_of(EREDU_LINEAR_FORMAT_BLOCK_FP8);
  made = new_metadata(&fp8);
  CHECK(made.status == EREDU_E_INVALID_ARGUMENT);
  CHECK(made.message ==
        "quantization->kind is EREDU_LINEAR_FORMAT_BLOCK_FP8, which is not a weight "
        "quantization");
  eredu_linear_format unknown = format_of(5);
  made = new_metadata(&unknown);
  CHECK(made.status == EREDU_E_INVALID_ARGUMENT);
  CHECK(made.message == "unknown quantization->kind value 5");
  unknown = format_of(EREDU_LINEAR_FORMAT_MXFP4);
  unknown.struct_size = 6;  // ends inside `kind`
  made = new_metadata(&unknown);
  CHECK(made.status == EREDU_E_INVALID_ARGUMENT);
  CHECK(made.message == "quantization->struct_size 6 ends inside field kind");

  // A failed setter keeps the previous quantization.
  const eredu_linear_format mxfp4 = format_of(EREDU_LINEAR_FORMAT_MXFP4);
  made = new_metadata(&mxfp4);
  REQUIRE(made.status == EREDU_OK);
  ErrorSlot error;
  CHECK(eredu_layerwise_model_metadata_set_quantization(made.handle.get(), &affine, error.slot()) ==
        EREDU_E_INVALID_FORMAT);
  CHECK(error.message() == "bits must be one of 2, 3, 4, 5, 6, or 8, got 7");
  CHECK(eredu_layerwise_model_metadata_set_quantization(made.handle.get(), &fp8, error.slot()) ==
        EREDU_E_INVALID_ARGUMENT);
  const std::optional<eredu_linear_format> quantization = quantization_of(made.handle.get());
  REQUIRE(quantization.has_value());
  CHECK(quantization->kind == EREDU_LINEAR_FORMAT_MXFP4);
}

TEST_CASE("layerwise metadata misuse") {
  ErrorSlot error;
  eredu_layerwise_model_metadata* metadata = nullptr;
  CHECK(eredu_layerwise_model_metadata_new(nullptr, nullptr, 4, 10,
                                           EREDU_EXECUTION_RESIDENCY_LAYERWISE_HOST, 20, 8, 6, 2,
                                           &metadata, error.slot()) == EREDU_E_NULL_ARGUMENT);
  CHECK(error.message() == "argument effective_model_type is NULL");
  CHECK(metadata == nullptr);
  CHECK(eredu_layerwise_model_metadata_new("\xff", nullptr, 4, 10,
                                           EREDU_EXECUTION_RESIDENCY_LAYERWISE_HOST, 20, 8, 6, 2,
                                           &metadata, error.slot()) == EREDU_E_INVALID_ARGUMENT);
  CHECK(eredu_layerwise_model_metadata_new("generic", nullptr, 4, 10, 3, 20, 8, 6, 2, &metadata,
                                           error.slot()) == EREDU_E_INVALID_ARGUMENT);
  CHECK(error.message() == "unknown residency value 3");
  CHECK(eredu_layerwise_model_metadata_new("generic", nullptr, 4, 10,
                                           EREDU_EXECUTION_RESIDENCY_LAYERWISE_HOST, 20, 8, 6, 2,
                                           nullptr, error.slot()) == EREDU_E_NULL_ARGUMENT);
  // Argument errors come before the quantization's own rules.
  eredu_linear_format affine = format_of(EREDU_LINEAR_FORMAT_AFFINE);
  affine.affine_group_size = 48;
  CHECK(eredu_layerwise_model_metadata_new("generic", &affine, 4, 10, 3, 20, 8, 6, 2, &metadata,
                                           error.slot()) == EREDU_E_INVALID_ARGUMENT);
  CHECK(metadata == nullptr);

  const Made<Metadata> made = new_metadata(nullptr);
  REQUIRE(made.status == EREDU_OK);
  eredu_layerwise_model_metadata* handle = made.handle.get();
  CHECK(eredu_layerwise_model_metadata_set_effective_model_type(handle, nullptr, error.slot()) ==
        EREDU_E_NULL_ARGUMENT);
  CHECK(eredu_layerwise_model_metadata_set_effective_model_type(handle, "\xc3", error.slot()) ==
        EREDU_E_INVALID_ARGUMENT);
  CHECK(model_type_of(handle) == "generic");
  CHECK(eredu_layerwise_model_metadata_set_effective_model_type(nullptr, "llama", error.slot()) ==
        EREDU_E_NULL_ARGUMENT);
  CHECK(error.message() == "argument metadata is NULL");
  CHECK(eredu_layerwise_model_metadata_set_quantization(nullptr, nullptr, error.slot()) ==
        EREDU_E_NULL_ARGUMENT);

  eredu_layerwise_model_metadata_info info = EREDU_LAYERWISE_MODEL_METADATA_INFO_INIT;
  info.effective_model_type = "x";
  info.layer_count = 5;
  CHECK(eredu_layerwise_model_metadata_get_info(nullptr, &info, error.slot()) ==
        EREDU_E_NULL_ARGUMENT);
  CHECK(error.message() == "argument metadata is NULL");
  CHECK(info.effective_model_type == nullptr);
  CHECK(info.layer_count == 0);
  CHECK(eredu_layerwise_model_metadata_get_info(handle, nullptr, error.slot()) ==
        EREDU_E_NULL_ARGUMENT);
  CHECK(error.message() == "argument out is NULL");
  info.struct_size = 1;
  CHECK(eredu_layerwise_model_metadata_get_info(handle, &info, error.slot()) ==
        EREDU_E_INVALID_ARGUMENT);
  CHECK(info.struct_size == 1);
  CHECK(std::string(info_of(handle).effective_model_type) == "generic");

  eredu_linear_format format = format_of(EREDU_LINEAR_FORMAT_AFFINE);
  bool present = true;
  CHECK(eredu_layerwise_model_metadata_quantization(nullptr, &format, &present, error.slot()) ==
        EREDU_E_NULL_ARGUMENT);
  CHECK_FALSE(present);
  CHECK(format.affine_group_size == 0);
  CHECK(eredu_layerwise_model_metadata_quantization(handle, nullptr, &present, error.slot()) ==
        EREDU_E_NULL_ARGUMENT);
  CHECK(eredu_layerwise_model_metadata_quantization(handle, &format, nullptr, error.slot()) ==
        EREDU_E_NULL_ARGUMENT);
  format.struct_size = 3;
  CHECK(eredu_layerwise_model_metadata_quantization(handle, &format, &present, error.slot()) ==
        EREDU_E_INVALID_ARGUMENT);
  CHECK(format.struct_size == 3);

  CHECK(eredu_layerwise_model_metadata_info_init(nullptr,
                                                 sizeof(eredu_layerwise_model_metadata_info),
                                                 nullptr) == EREDU_E_NULL_ARGUMENT);
  eredu_layerwise_model_metadata_free(nullptr);
}

// ---- The sized-struct rule (docs/abi.md) ----------------------------------

TEST_CASE("offload structs follow the sized-struct rule") {
  check_init_sizes<eredu_offload_config>(eredu_offload_config_init,
                                         offsetof(eredu_offload_config, host_budget_bytes),
                                         offsetof(eredu_offload_config, prefetch_depth) + 3);
  check_init_sizes<eredu_offload_unit_desc>(eredu_offload_unit_desc_init,
                                            offsetof(eredu_offload_unit_desc, policy),
                                            offsetof(eredu_offload_unit_desc, id) + 1);
  check_init_sizes<eredu_offload_plan_info>(
      eredu_offload_plan_info_init, offsetof(eredu_offload_plan_info, unit_count),
      offsetof(eredu_offload_plan_info, host_budget_bytes) + 2);

  const eredu_offload_config budgets = config(80, 40, 2);
  check_input_sizes<eredu_offload_config>(
      budgets,
      [](const eredu_offload_config* given) {
        eredu_offload_plan* plan = nullptr;
        const eredu_status status = eredu_offload_plan_new(given, nullptr, 0, &plan, nullptr);
        eredu_offload_plan_free(plan);
        return status;
      },
      offsetof(eredu_offload_config, eviction_policy) + 1);
  // An older config without prefetch_depth gets the default depth 1, and
  // without the has_* flags no budgets.
  eredu_offload_config older = config(1, 1, 0);
  older.struct_size = static_cast<std::uint32_t>(offsetof(eredu_offload_config, prefetch_depth));
  auto made = new_plan(&older, {{"a", 5, kPinned, kDevice}});
  REQUIRE(made.status == EREDU_OK);
  const eredu_offload_plan_info info = plan_info(made.handle.get());
  CHECK(info.prefetch_depth == 1);
  CHECK(info.has_device_budget == 0);
  CHECK(info.has_host_budget == 0);

  eredu_offload_unit_desc unit = EREDU_OFFLOAD_UNIT_DESC_INIT;
  unit.id = "layer.0";
  unit.bytes = 7;
  unit.policy = kCacheable;
  unit.tier = kHost;
  check_input_sizes<eredu_offload_unit_desc>(
      unit,
      [](const eredu_offload_unit_desc* given) {
        const eredu_offload_unit_desc* units[] = {given};
        eredu_offload_plan* plan = nullptr;
        const eredu_status status = eredu_offload_plan_new(nullptr, units, 1, &plan, nullptr);
        eredu_offload_plan_free(plan);
        return status;
      },
      offsetof(eredu_offload_unit_desc, tier) + 1);
  // A unit ending before `tier` is on the device tier.
  eredu_offload_unit_desc short_unit = unit;
  short_unit.struct_size = static_cast<std::uint32_t>(offsetof(eredu_offload_unit_desc, tier));
  const eredu_offload_unit_desc* short_units[] = {&short_unit};
  eredu_offload_plan* plan = nullptr;
  REQUIRE(eredu_offload_plan_new(nullptr, short_units, 1, &plan, nullptr) == EREDU_OK);
  const Plan short_plan(plan);
  CHECK(unit_at(plan, 0).tier == kDevice);
  CHECK(unit_at(plan, 0).policy == kCacheable);

  auto planned_units =
      new_plan(&budgets, {{"layer.1", 30, kCacheable, kHost}, {"layer.0", 40, kPinned, kDevice}});
  REQUIRE(planned_units.status == EREDU_OK);
  const eredu_offload_plan* built = planned_units.handle.get();
  const eredu_offload_unit_desc first = check_output_sizes<eredu_offload_unit_desc>(
      [&](eredu_offload_unit_desc* out) { return eredu_offload_plan_unit(built, 0, out, nullptr); },
      offsetof(eredu_offload_unit_desc, bytes), offsetof(eredu_offload_unit_desc, bytes) + 4);
  CHECK(std::string(first.id) == "layer.0");
  CHECK(first.bytes == 40);
  CHECK(first.policy == kPinned);
  CHECK(first.tier == kDevice);
  const eredu_offload_plan_info full = check_output_sizes<eredu_offload_plan_info>(
      [&](eredu_offload_plan_info* out) {
        return eredu_offload_plan_get_info(built, out, nullptr);
      },
      offsetof(eredu_offload_plan_info, planned_device_bytes),
      offsetof(eredu_offload_plan_info, planned_host_bytes) + 1);
  CHECK(full.eviction_policy == EREDU_EVICTION_LEAST_RECENTLY_USED);
  CHECK(full.has_device_budget == 1);
  CHECK(full.has_host_budget == 1);
  CHECK(full.device_budget_bytes == 80);
  CHECK(full.host_budget_bytes == 40);
  CHECK(full.prefetch_depth == 2);
  CHECK(full.unit_count == 2);
  CHECK(full.planned_device_bytes == 40);
  CHECK(full.planned_host_bytes == 30);
  CHECK(full.planned_disk_bytes == 0);
}

TEST_CASE("binding structs follow the sized-struct rule") {
  check_init_sizes<eredu_tensor_selection>(eredu_tensor_selection_init,
                                           offsetof(eredu_tensor_selection, indices),
                                           offsetof(eredu_tensor_selection, axis) + 1);
  check_init_sizes<eredu_weight_binding_desc>(eredu_weight_binding_desc_init,
                                              offsetof(eredu_weight_binding_desc, expected_bytes),
                                              offsetof(eredu_weight_binding_desc, selection) + 5);

  const std::uint64_t indices[] = {4, 2};
  eredu_tensor_selection by_index = selection(EREDU_SELECTION_INDICES);
  by_index.axis = 1;
  by_index.indices = indices;
  by_index.index_count = 2;
  const auto use_selection = [](const eredu_tensor_selection* given) {
    const eredu_weight_binding_desc desc = binding("q", "model.q", 8, given);
    return eredu_weight_binding_validate(&desc, nullptr);
  };
  check_input_sizes<eredu_tensor_selection>(by_index, use_selection,
                                            offsetof(eredu_tensor_selection, index_count) + 1);
  // A selection ending before the contiguous fields: they are 0, as a FULL
  // selection needs, whatever lies past the caller's size.
  eredu_tensor_selection older = selection(EREDU_SELECTION_FULL);
  older.offset_elements = 3;
  older.struct_size = static_cast<std::uint32_t>(offsetof(eredu_tensor_selection, offset_elements));
  CHECK(use_selection(&older) == EREDU_OK);
  older.struct_size = sizeof(eredu_tensor_selection);
  CHECK(use_selection(&older) == EREDU_E_INVALID_ARGUMENT);

  const eredu_weight_binding_desc named = binding("embedding", "model.embedding.weight", 16);
  check_input_sizes<eredu_weight_binding_desc>(
      named,
      [](const eredu_weight_binding_desc* given) {
        return eredu_weight_binding_validate(given, nullptr);
      },
      offsetof(eredu_weight_binding_desc, logical_target) + 1);
  // A descriptor ending before logical_target has none.
  eredu_weight_binding_desc untargeted = named;
  untargeted.logical_target = "";
  untargeted.struct_size =
      static_cast<std::uint32_t>(offsetof(eredu_weight_binding_desc, logical_target));
  CHECK(validate(&untargeted).first == EREDU_OK);

  eredu_weight_binding_desc targeted = binding("experts", "model.experts", 24, &by_index);
  targeted.logical_target = "moe.experts";
  auto made = new_unit("static.experts", {&targeted});
  REQUIRE(made.status == EREDU_OK);
  const eredu_static_unit_bindings* unit = made.handle.get();
  const eredu_weight_binding_desc read = check_output_sizes<eredu_weight_binding_desc>(
      [&](eredu_weight_binding_desc* out) {
        return eredu_static_unit_bindings_binding(unit, 0, out, nullptr);
      },
      offsetof(eredu_weight_binding_desc, selection),
      offsetof(eredu_weight_binding_desc, name) + 2);
  CHECK(std::string(read.name) == "experts");
  CHECK(std::string(read.checkpoint_key) == "model.experts");
  CHECK(read.expected_bytes == 24);
  CHECK(std::string(read.logical_target) == "moe.experts");
  REQUIRE(read.selection != nullptr);
  CHECK(read.selection->struct_size == sizeof(eredu_tensor_selection));
  CHECK(read.selection->kind == EREDU_SELECTION_INDICES);
  CHECK(std::vector<std::uint64_t>(read.selection->indices,
                                   read.selection->indices + read.selection->index_count) ==
        std::vector<std::uint64_t>{4, 2});
}

TEST_CASE("layerwise metadata structs follow the sized-struct rule") {
  check_init_sizes<eredu_layerwise_model_metadata_info>(
      eredu_layerwise_model_metadata_info_init,
      offsetof(eredu_layerwise_model_metadata_info, layer_count),
      offsetof(eredu_layerwise_model_metadata_info, effective_model_type_length) + 1);
  const eredu_linear_format affine = format_of(EREDU_LINEAR_FORMAT_AFFINE);
  const Made<Metadata> made = new_metadata(&affine, "qwen3");
  REQUIRE(made.status == EREDU_OK);
  const eredu_layerwise_model_metadata* metadata = made.handle.get();
  const eredu_layerwise_model_metadata_info info =
      check_output_sizes<eredu_layerwise_model_metadata_info>(
          [&](eredu_layerwise_model_metadata_info* out) {
            return eredu_layerwise_model_metadata_get_info(metadata, out, nullptr);
          },
          offsetof(eredu_layerwise_model_metadata_info, static_device_bytes),
          offsetof(eredu_layerwise_model_metadata_info, device_layer_capacity) + 7);
  CHECK(info.residency == EREDU_EXECUTION_RESIDENCY_LAYERWISE_HOST);
  CHECK(std::string(info.effective_model_type) == "qwen3");
  CHECK(info.effective_model_type_length == 5);
  CHECK(info.layer_count == 4);
  CHECK(info.static_device_bytes == 10);
  CHECK(info.layer_parameter_bytes == 20);
  CHECK(info.maximum_device_layer_bytes == 8);
  CHECK(info.maximum_host_layer_bytes == 6);
  CHECK(info.device_layer_capacity == 2);
  CHECK(info.has_quantization == 1);

  // The quantization is an output eredu_linear_format, written up to the
  // caller's size.
  const eredu_linear_format quantization = check_output_sizes<eredu_linear_format>(
      [&](eredu_linear_format* out) {
        bool present = false;
        const eredu_status status =
            eredu_layerwise_model_metadata_quantization(metadata, out, &present, nullptr);
        CHECK(present == (status == EREDU_OK));
        return status;
      },
      offsetof(eredu_linear_format, affine_bits), offsetof(eredu_linear_format, ggml_type) + 1);
  CHECK(quantization.kind == EREDU_LINEAR_FORMAT_AFFINE);
  CHECK(quantization.affine_group_size == 64);
  CHECK(quantization.affine_bits == 4);
  CHECK(quantization.block_rows == 0);
  // ... and the quantization argument is an input one.
  check_input_sizes<eredu_linear_format>(
      affine,
      [](const eredu_linear_format* given) {
        eredu_layerwise_model_metadata* created = nullptr;
        const eredu_status status = eredu_layerwise_model_metadata_new(
            "m", given, 1, 0, EREDU_EXECUTION_RESIDENCY_FULLY_RESIDENT, 0, 0, 0, 1, &created,
            nullptr);
        eredu_layerwise_model_metadata_free(created);
        return status;
      },
      offsetof(eredu_linear_format, block_rows) + 1);
}
