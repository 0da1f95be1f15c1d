// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Every violation in one run: eredu_error_count and eredu_error_get_entry
// (docs/interchange.md, "Planning errors").
#include <doctest/doctest.h>
#include <eredu/eredu.h>

#include <string>

#include "capi_support.hpp"

using namespace capi_test;

namespace {

// Two groups that cannot be split 3 ways and one that can; 2 layers.
const char* const kThreeGroups =
    R"({"schema":"eredu.groups.v1","model":{"layers":2},"groups":[)"
    R"({"name":"a","role":"row_projection","members":[)"
    R"({"target":"a.w","shape":[4,4],"sharding":{"kind":"equal","axis":0}}]},)"
    R"({"name":"b","role":"replicated","members":[)"
    R"({"target":"b.w","shape":[4],"sharding":{"kind":"replicated"}}]},)"
    R"({"name":"c","role":"attention_heads","partition_units":2,"members":[)"
    R"({"target":"c.w","shape":[4,4],"sharding":{"kind":"partitioned","axis":0}}]}]})";

std::string text(const char* data, std::size_t length) {
  return data == nullptr ? std::string("<null>") : std::string(data, length);
}

}  // namespace

TEST_SUITE("capi.error_entries") {
  TEST_CASE("a planning failure lists every problem, groups first, then the preflight") {
    const auto model = model_from_json(kThreeGroups);
    REQUIRE(model.status == EREDU_OK);
    eredu_topology topology = EREDU_TOPOLOGY_INIT;
    topology.tensor = 3;
    topology.pipeline = 4;
    eredu_layout* layout = nullptr;
    eredu_error* error = nullptr;
    REQUIRE(eredu_plan_rank(model.handle.get(), &topology, 0, nullptr, &layout, &error) ==
            EREDU_E_EMPTY_PARTITION);
    CHECK(layout == nullptr);
    // Code and message stay what the planner reported first.
    CHECK(eredu_error_code(error) == EREDU_E_EMPTY_PARTITION);
    CHECK(std::string(eredu_error_message(error)) ==
          "2 decoder layers cannot be split over 4 pipeline stages; pipeline sizes from 1 to 2 "
          "work");
    REQUIRE(eredu_error_count(error) == 3);
    CHECK(eredu_error_is_planning_failure(error));
    eredu_error_entry entry = EREDU_ERROR_ENTRY_INIT;
    REQUIRE(eredu_error_get_entry(error, 0, &entry, nullptr) == EREDU_OK);
    CHECK(entry.code == EREDU_E_INVALID_TENSOR);
    CHECK(text(entry.group, entry.group_length) == "a");
    CHECK(text(entry.tensor, entry.tensor_length) == "a.w");
    CHECK(text(entry.message, entry.message_length) ==
          "logical parameter \"a\": tensor \"a.w\" dimension 4 on axis 0 is not divisible by TP "
          "size 3");
    REQUIRE(eredu_error_get_entry(error, 1, &entry, nullptr) == EREDU_OK);
    CHECK(text(entry.group, entry.group_length) == "c");
    CHECK(entry.tensor == nullptr);
    CHECK(entry.tensor_length == 0);
    CHECK(text(entry.message, entry.message_length) ==
          "logical parameter \"c\": 2 partition units — declared by the group — cannot be split "
          "3 ways; tensor sizes up to 64 that work for this group: 1, 2");
    REQUIRE(eredu_error_get_entry(error, 2, &entry, nullptr) == EREDU_OK);
    CHECK(entry.code == EREDU_E_EMPTY_PARTITION);
    CHECK(entry.group == nullptr);
    CHECK(text(entry.message, entry.message_length) == eredu_error_message(error));

    ErrorSlot misuse;
    CHECK(eredu_error_get_entry(error, 3, &entry, misuse.slot()) == EREDU_E_INVALID_ARGUMENT);
    CHECK(misuse.message() == "entry index 3 is out of range (count 3)");
    CHECK(entry.message == nullptr);
    CHECK(eredu_error_get_entry(nullptr, 0, &entry, misuse.slot()) == EREDU_E_NULL_ARGUMENT);
    CHECK(eredu_error_get_entry(error, 0, nullptr, misuse.slot()) == EREDU_E_NULL_ARGUMENT);
    eredu_error_free(error);
  }

  TEST_CASE("a planning failure of one problem is still a planning failure") {
    const auto model = model_from_json(kThreeGroups);
    REQUIRE(model.status == EREDU_OK);
    eredu_topology topology = EREDU_TOPOLOGY_INIT;
    topology.pipeline = 4;
    eredu_layout* layout = nullptr;
    eredu_error* error = nullptr;
    REQUIRE(eredu_plan_rank(model.handle.get(), &topology, 0, nullptr, &layout, &error) ==
            EREDU_E_EMPTY_PARTITION);
    CHECK(eredu_error_count(error) == 1);
    CHECK(eredu_error_is_planning_failure(error));
    eredu_error_free(error);
  }

  TEST_CASE("without the preflight failure the first group's error leads; one problem is one") {
    const auto model = model_from_json(kThreeGroups);
    REQUIRE(model.status == EREDU_OK);
    const auto planned = plan_tp(model.handle.get(), 0, 3);
    CHECK(planned.status == EREDU_E_INVALID_TENSOR);
    CHECK(planned.message ==
          "logical parameter \"a\": tensor \"a.w\" dimension 4 on axis 0 is not divisible by TP "
          "size 3");

    eredu_topology topology = EREDU_TOPOLOGY_INIT;
    eredu_layout* layout = nullptr;
    eredu_error* error = nullptr;
    REQUIRE(eredu_plan_rank(model.handle.get(), &topology, 5, nullptr, &layout, &error) ==
            EREDU_E_RANK_OUT_OF_RANGE);
    REQUIRE(eredu_error_count(error) == 1);
    // A rank error stops planning: it lists no problems.
    CHECK_FALSE(eredu_error_is_planning_failure(error));
    eredu_error_entry entry = EREDU_ERROR_ENTRY_INIT;
    REQUIRE(eredu_error_get_entry(error, 0, &entry, nullptr) == EREDU_OK);
    CHECK(entry.code == EREDU_E_RANK_OUT_OF_RANGE);
    CHECK(entry.group == nullptr);
    CHECK(text(entry.message, entry.message_length) == "rank 5 is outside world size 1");
    eredu_error_free(error);
    CHECK(eredu_error_count(nullptr) == 0);
    CHECK_FALSE(eredu_error_is_planning_failure(nullptr));
    eredu_error_entry initialized;
    REQUIRE(eredu_error_entry_init(&initialized, sizeof initialized, nullptr) == EREDU_OK);
    CHECK(initialized.struct_size == sizeof initialized);
    CHECK(initialized.message == nullptr);
  }
}
