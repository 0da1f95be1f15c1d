// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The seed's weight-residency policies through eredu_residency_validate
// only: defaults, derived summaries with exact values, every
// WeightResidencyPolicyError and the offload errors a description reaches,
// and the sized-struct rule of their structs.
#include <doctest/doctest.h>
#include <eredu/eredu.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "capi_support.hpp"
#include "sized_checks.hpp"

using namespace capi_test;

namespace {

struct Validated {
  eredu_status status = EREDU_OK;
  eredu_status code = EREDU_OK;
  std::string message;
  eredu_residency_summary summary{};
};

Validated validate(const eredu_weight_residency_desc& desc, std::uint64_t unit_count = 8) {
  Validated validated;
  eredu_residency_summary_init(&validated.summary, sizeof validated.summary, nullptr);
  ErrorSlot error;
  validated.status = eredu_residency_validate(&desc, unit_count, &validated.summary, error.slot());
  validated.code = error.code();
  if (error.get() != nullptr) validated.message = error.message();
  return validated;
}

eredu_weight_residency_desc desc_of(eredu_execution_residency layers) {
  eredu_weight_residency_desc desc;
  eredu_weight_residency_desc_init(&desc, sizeof desc, nullptr);
  desc.layers = layers;
  return desc;
}

eredu_weight_residency_desc dense_desc(const eredu_dense_stream_options* dense) {
  eredu_weight_residency_desc desc = desc_of(EREDU_EXECUTION_RESIDENCY_DENSE_DISK_STREAM);
  desc.dense = dense;
  return desc;
}

eredu_dense_stream_options dense_options(std::uint64_t device, std::uint64_t host,
                                         std::uint64_t lookahead, std::uint64_t queue) {
  eredu_dense_stream_options options;
  eredu_dense_stream_options_init(&options, sizeof options, nullptr);
  options.device_budget_bytes = device;
  options.host_budget_bytes = host;
  options.host_lookahead = lookahead;
  options.background_queue_capacity = queue;
  return options;
}

eredu_parameter_bank_options bank_options(std::uint64_t scratch, std::uint64_t target) {
  eredu_parameter_bank_options options;
  eredu_parameter_bank_options_init(&options, sizeof options, nullptr);
  options.compact_bank_scratch_bytes = scratch;
  options.prefill_compact_bank_target_bytes = target;
  return options;
}

}  // namespace

TEST_SUITE("capi.residency_policy") {
  TEST_CASE("init functions fill the seed's defaults") {
    eredu_dense_stream_options dense;
    REQUIRE(eredu_dense_stream_options_init(&dense, sizeof dense, nullptr) == EREDU_OK);
    CHECK(dense.struct_size == sizeof(eredu_dense_stream_options));
    CHECK(dense.device_budget_bytes == 4294967296u);
    CHECK(dense.host_budget_bytes == 17179869184u);
    CHECK(dense.host_lookahead == 2);
    CHECK(dense.background_queue_capacity == 2);
    CHECK(dense.eviction_policy == EREDU_EVICTION_LEAST_RECENTLY_USED);
    CHECK(dense.max_cached_shards == 4);
    CHECK(dense.sample_backend_memory == 0);
    CHECK(dense.sample_process_memory == 0);

    eredu_layerwise_options layerwise;
    REQUIRE(eredu_layerwise_options_init(&layerwise, sizeof layerwise, nullptr) == EREDU_OK);
    CHECK(layerwise.struct_size == sizeof(eredu_layerwise_options));
    CHECK(layerwise.offload == nullptr);
    CHECK(layerwise.max_cached_shards == EREDU_DEFAULT_MAX_CACHED_SHARDS);
    CHECK(layerwise.sample_backend_memory == 0);
    CHECK(layerwise.sample_process_memory == 0);

    eredu_parameter_bank_options bank;
    REQUIRE(eredu_parameter_bank_options_init(&bank, sizeof bank, nullptr) == EREDU_OK);
    CHECK(bank.struct_size == sizeof(eredu_parameter_bank_options));
    CHECK(bank.members == nullptr);
    CHECK(bank.compact_bank_scratch_bytes == UINT64_MAX);
    CHECK(bank.prefill_compact_bank_target_bytes == 1073741824u);

    eredu_weight_residency_desc desc;
    REQUIRE(eredu_weight_residency_desc_init(&desc, sizeof desc, nullptr) == EREDU_OK);
    CHECK(desc.struct_size == sizeof(eredu_weight_residency_desc));
    CHECK(desc.layers == EREDU_EXECUTION_RESIDENCY_FULLY_RESIDENT);
    CHECK(desc.layerwise == nullptr);
    CHECK(desc.dense == nullptr);
    CHECK(desc.parameter_bank_cache == nullptr);

    CHECK(eredu_dense_stream_options_init(nullptr, sizeof dense, nullptr) == EREDU_E_NULL_ARGUMENT);
    CHECK(eredu_layerwise_options_init(nullptr, sizeof layerwise, nullptr) ==
          EREDU_E_NULL_ARGUMENT);
    CHECK(eredu_parameter_bank_options_init(nullptr, sizeof bank, nullptr) ==
          EREDU_E_NULL_ARGUMENT);
    CHECK(eredu_weight_residency_desc_init(nullptr, sizeof desc, nullptr) == EREDU_E_NULL_ARGUMENT);
    CHECK(eredu_residency_summary_init(nullptr, sizeof(eredu_residency_summary), nullptr) ==
          EREDU_E_NULL_ARGUMENT);

    // The _INIT macros hold the same defaults.
    const eredu_dense_stream_options dense_macro = EREDU_DENSE_STREAM_OPTIONS_INIT;
    CHECK(dense_macro.struct_size == dense.struct_size);
    CHECK(dense_macro.device_budget_bytes == dense.device_budget_bytes);
    CHECK(dense_macro.host_budget_bytes == dense.host_budget_bytes);
    CHECK(dense_macro.host_lookahead == dense.host_lookahead);
    CHECK(dense_macro.background_queue_capacity == dense.background_queue_capacity);
    CHECK(dense_macro.eviction_policy == dense.eviction_policy);
    CHECK(dense_macro.max_cached_shards == dense.max_cached_shards);
    CHECK(dense_macro.sample_backend_memory == 0);
    CHECK(dense_macro.sample_process_memory == 0);
    const eredu_layerwise_options layerwise_macro = EREDU_LAYERWISE_OPTIONS_INIT;
    CHECK(layerwise_macro.struct_size == layerwise.struct_size);
    CHECK(layerwise_macro.offload == nullptr);
    CHECK(layerwise_macro.max_cached_shards == layerwise.max_cached_shards);
    CHECK(layerwise_macro.sample_backend_memory == 0);
    CHECK(layerwise_macro.sample_process_memory == 0);
    const eredu_parameter_bank_options bank_macro = EREDU_PARAMETER_BANK_OPTIONS_INIT;
    CHECK(bank_macro.struct_size == bank.struct_size);
    CHECK(bank_macro.members == nullptr);
    CHECK(bank_macro.compact_bank_scratch_bytes == bank.compact_bank_scratch_bytes);
    CHECK(bank_macro.prefill_compact_bank_target_bytes == bank.prefill_compact_bank_target_bytes);
    const eredu_weight_residency_desc desc_macro = EREDU_WEIGHT_RESIDENCY_DESC_INIT;
    CHECK(desc_macro.struct_size == desc.struct_size);
    CHECK(desc_macro.layers == EREDU_EXECUTION_RESIDENCY_FULLY_RESIDENT);
    CHECK(desc_macro.layerwise == nullptr);
    CHECK(desc_macro.dense == nullptr);
    CHECK(desc_macro.parameter_bank_cache == nullptr);
    const eredu_residency_summary summary_macro = EREDU_RESIDENCY_SUMMARY_INIT;
    CHECK(summary_macro.struct_size == sizeof(eredu_residency_summary));
  }

  TEST_CASE("fully resident weights keep every unit on the device") {
    const Validated validated = validate(desc_of(EREDU_EXECUTION_RESIDENCY_FULLY_RESIDENT), 8);
    REQUIRE(validated.status == EREDU_OK);
    const eredu_residency_summary& summary = validated.summary;
    CHECK(summary.struct_size == sizeof(eredu_residency_summary));
    CHECK(summary.execution_residency == EREDU_EXECUTION_RESIDENCY_FULLY_RESIDENT);
    CHECK(summary.offload_has_device_budget == 0);
    CHECK(summary.offload_device_budget_bytes == 0);
    CHECK(summary.offload_has_host_budget == 0);
    CHECK(summary.offload_host_budget_bytes == 0);
    CHECK(summary.offload_prefetch_depth == 1);
    CHECK(summary.offload_eviction_policy == EREDU_EVICTION_LEAST_RECENTLY_USED);
    CHECK(summary.device_depth == 8);
    CHECK(summary.max_cached_shards == 4);
    CHECK(summary.preparation_residency == EREDU_RESIDENCY_REQUEST_FULLY_RESIDENT);
    CHECK(summary.is_fully_resident == 1);
    CHECK(summary.ordinary_is_fully_resident == 1);
    CHECK(summary.sample_backend_memory == 0);
    CHECK(summary.sample_process_memory == 0);
    CHECK(summary.dense_host_lookahead == 0);
    CHECK(summary.dense_background_queue_capacity == 0);
    CHECK(summary.has_parameter_bank_cache == 0);
    CHECK(summary.parameter_bank_prefetch_depth == 0);
    CHECK(summary.parameter_bank_compact_scratch_bytes == 0);
    CHECK(summary.parameter_bank_prefill_target_bytes == 0);
  }

  TEST_CASE("dense stream defaults derive a finite offload configuration") {
    const Validated validated = validate(desc_of(EREDU_EXECUTION_RESIDENCY_DENSE_DISK_STREAM), 8);
    REQUIRE(validated.status == EREDU_OK);
    const eredu_residency_summary& summary = validated.summary;
    CHECK(summary.execution_residency == EREDU_EXECUTION_RESIDENCY_DENSE_DISK_STREAM);
    CHECK(summary.offload_has_device_budget == 1);
    CHECK(summary.offload_device_budget_bytes == 4294967296u);
    CHECK(summary.offload_has_host_budget == 1);
    CHECK(summary.offload_host_budget_bytes == 17179869184u);
    CHECK(summary.offload_prefetch_depth == 2);
    CHECK(summary.offload_eviction_policy == EREDU_EVICTION_LEAST_RECENTLY_USED);
    CHECK(summary.device_depth == EREDU_DENSE_TRANSFER_WINDOW);
    CHECK(summary.max_cached_shards == 4);
    CHECK(summary.preparation_residency == EREDU_RESIDENCY_REQUEST_DENSE_DISK_STREAM);
    CHECK(summary.is_fully_resident == 0);
    CHECK(summary.ordinary_is_fully_resident == 0);
    CHECK(summary.dense_host_lookahead == 2);
    CHECK(summary.dense_background_queue_capacity == 2);
    CHECK(summary.sample_backend_memory == 0);
    CHECK(summary.sample_process_memory == 0);
    CHECK(summary.has_parameter_bank_cache == 0);
  }

  TEST_CASE("residency policy derives finite dense windows") {
    eredu_dense_stream_options options = dense_options(32, 64, 3, 2);
    options.eviction_policy = EREDU_EVICTION_LEAST_FREQUENTLY_USED;
    options.max_cached_shards = 6;
    options.sample_process_memory = 1;
    const Validated validated = validate(dense_desc(&options), 8);
    REQUIRE(validated.status == EREDU_OK);
    CHECK(validated.summary.device_depth == 2);
    CHECK(validated.summary.dense_host_lookahead == 3);
    CHECK(validated.summary.dense_background_queue_capacity == 2);
    CHECK(validated.summary.sample_backend_memory == 0);
    CHECK(validated.summary.sample_process_memory == 1);
    CHECK(validated.summary.offload_has_device_budget == 1);
    CHECK(validated.summary.offload_device_budget_bytes == 32);
    CHECK(validated.summary.offload_has_host_budget == 1);
    CHECK(validated.summary.offload_host_budget_bytes == 64);
    CHECK(validated.summary.offload_prefetch_depth == 3);
    CHECK(validated.summary.offload_eviction_policy == EREDU_EVICTION_LEAST_FREQUENTLY_USED);
    CHECK(validated.summary.max_cached_shards == 6);
    // The window never exceeds the unit count.
    CHECK(validate(dense_desc(&options), 1).summary.device_depth == 1);
    CHECK(validate(dense_desc(&options), 0).summary.device_depth == 0);
  }

  TEST_CASE("dense stream controls fail closed without a backend") {
    eredu_dense_stream_options options = dense_options(1, 1, 0, 1);
    const Validated lookahead = validate(dense_desc(&options));
    CHECK(lookahead.status == EREDU_E_ZERO_HOST_LOOKAHEAD);
    CHECK(lookahead.code == EREDU_E_ZERO_HOST_LOOKAHEAD);
    CHECK(lookahead.message ==
          "dense disk streaming host lookahead must be nonzero when the host budget is enabled");
    CHECK(lookahead.summary.struct_size == sizeof(eredu_residency_summary));
    CHECK(lookahead.summary.device_depth == 0);

    options = dense_options(1, 1, 1, 0);
    const Validated queue = validate(dense_desc(&options));
    CHECK(queue.status == EREDU_E_ZERO_QUEUE_CAPACITY);
    CHECK(queue.code == EREDU_E_ZERO_QUEUE_CAPACITY);
    CHECK(queue.message ==
          "dense disk streaming background queue capacity must be nonzero when host caching is "
          "enabled");

    options = dense_options(1, 0, 1, 0);
    const Validated disabled = validate(dense_desc(&options));
    CHECK(disabled.status == EREDU_E_HOST_DISABLED_CONTROLS);
    CHECK(disabled.code == EREDU_E_HOST_DISABLED_CONTROLS);
    CHECK(disabled.message ==
          "dense disk streaming with a zero host budget requires zero host lookahead and queue "
          "capacity");

    // Direct disk-to-device loading: a zero host budget, window 2.
    options = dense_options(1, 0, 0, 0);
    const Validated direct = validate(dense_desc(&options));
    REQUIRE(direct.status == EREDU_OK);
    CHECK(direct.summary.offload_has_host_budget == 1);
    CHECK(direct.summary.offload_host_budget_bytes == 0);
    CHECK(direct.summary.offload_device_budget_bytes == 1);
    CHECK(direct.summary.offload_prefetch_depth == 2);
  }

  TEST_CASE("layerwise host options echo their offload configuration") {
    eredu_offload_config offload;
    eredu_offload_config_init(&offload, sizeof offload, nullptr);
    offload.has_device_budget = 1;
    offload.device_budget_bytes = 100;
    offload.prefetch_depth = 3;
    offload.eviction_policy = EREDU_EVICTION_LEAST_FREQUENTLY_USED;
    eredu_layerwise_options layerwise;
    eredu_layerwise_options_init(&layerwise, sizeof layerwise, nullptr);
    layerwise.offload = &offload;
    layerwise.max_cached_shards = 9;
    layerwise.sample_backend_memory = 1;
    eredu_weight_residency_desc desc = desc_of(EREDU_EXECUTION_RESIDENCY_LAYERWISE_HOST);
    desc.layerwise = &layerwise;

    const Validated validated = validate(desc, 2);
    REQUIRE(validated.status == EREDU_OK);
    const eredu_residency_summary& summary = validated.summary;
    CHECK(summary.execution_residency == EREDU_EXECUTION_RESIDENCY_LAYERWISE_HOST);
    CHECK(summary.offload_has_device_budget == 1);
    CHECK(summary.offload_device_budget_bytes == 100);
    CHECK(summary.offload_has_host_budget == 0);
    CHECK(summary.offload_prefetch_depth == 3);
    CHECK(summary.offload_eviction_policy == EREDU_EVICTION_LEAST_FREQUENTLY_USED);
    CHECK(summary.device_depth == 3);  // the prefetch depth, even above the unit count
    CHECK(summary.max_cached_shards == 9);
    CHECK(summary.preparation_residency == EREDU_RESIDENCY_REQUEST_LAYERWISE_HOST);
    CHECK(summary.sample_backend_memory == 1);
    CHECK(summary.sample_process_memory == 0);
    CHECK(summary.dense_host_lookahead == 0);
    CHECK(summary.dense_background_queue_capacity == 0);

    // Default layerwise options: unbounded, depth 1.
    desc.layerwise = nullptr;
    const Validated defaults = validate(desc, 5);
    REQUIRE(defaults.status == EREDU_OK);
    CHECK(defaults.summary.device_depth == 1);
    CHECK(defaults.summary.max_cached_shards == 4);
    CHECK(defaults.summary.offload_has_device_budget == 0);
  }

  TEST_CASE("a zero prefetch depth is the offload core's error") {
    eredu_offload_config offload;
    eredu_offload_config_init(&offload, sizeof offload, nullptr);
    offload.prefetch_depth = 0;
    eredu_layerwise_options layerwise;
    eredu_layerwise_options_init(&layerwise, sizeof layerwise, nullptr);
    layerwise.offload = &offload;
    eredu_weight_residency_desc desc = desc_of(EREDU_EXECUTION_RESIDENCY_LAYERWISE_HOST);
    desc.layerwise = &layerwise;
    const Validated layers = validate(desc);
    CHECK(layers.status == EREDU_E_ZERO_PREFETCH_DEPTH);
    CHECK(layers.code == EREDU_E_ZERO_PREFETCH_DEPTH);
    CHECK(layers.message == "offload prefetch depth must be nonzero");

    eredu_parameter_bank_options bank = bank_options(64, 32);
    bank.members = &offload;
    eredu_weight_residency_desc banked = desc_of(EREDU_EXECUTION_RESIDENCY_FULLY_RESIDENT);
    banked.parameter_bank_cache = &bank;
    const Validated members = validate(banked);
    CHECK(members.status == EREDU_E_ZERO_PREFETCH_DEPTH);
    CHECK(members.code == EREDU_E_ZERO_PREFETCH_DEPTH);
  }

  TEST_CASE("expert cache controls and composite placement are backend neutral") {
    eredu_parameter_bank_options bank = bank_options(64, 32);
    eredu_weight_residency_desc desc = desc_of(EREDU_EXECUTION_RESIDENCY_FULLY_RESIDENT);
    desc.parameter_bank_cache = &bank;
    const Validated validated = validate(desc, 8);
    REQUIRE(validated.status == EREDU_OK);
    // parameter_bank_cache() == Some(experts): default offload, 64, 32.
    CHECK(validated.summary.has_parameter_bank_cache == 1);
    CHECK(validated.summary.parameter_bank_has_device_budget == 0);
    CHECK(validated.summary.parameter_bank_device_budget_bytes == 0);
    CHECK(validated.summary.parameter_bank_has_host_budget == 0);
    CHECK(validated.summary.parameter_bank_host_budget_bytes == 0);
    CHECK(validated.summary.parameter_bank_prefetch_depth == 1);
    CHECK(validated.summary.parameter_bank_eviction_policy == EREDU_EVICTION_LEAST_RECENTLY_USED);
    CHECK(validated.summary.parameter_bank_compact_scratch_bytes == 64);
    CHECK(validated.summary.parameter_bank_prefill_target_bytes == 32);
    CHECK(validated.summary.ordinary_is_fully_resident == 1);
    CHECK(validated.summary.is_fully_resident == 0);
    CHECK(validated.summary.preparation_residency ==
          EREDU_RESIDENCY_REQUEST_ADDRESSABLE_PARAMETER_BANKS);
    CHECK(validated.summary.execution_residency == EREDU_EXECUTION_RESIDENCY_FULLY_RESIDENT);
    CHECK(validated.summary.device_depth == 8);
    CHECK(validated.summary.max_cached_shards == 4);

    bank = bank_options(64, 0);
    const Validated target = validate(desc);
    CHECK(target.status == EREDU_E_ZERO_PARAMETER_BANK_PREFILL_TARGET);
    CHECK(target.code == EREDU_E_ZERO_PARAMETER_BANK_PREFILL_TARGET);
    CHECK(target.message == "parameter-bank prefill target must be nonzero");

    bank = bank_options(0, 0);
    const Validated scratch = validate(desc);
    CHECK(scratch.status == EREDU_E_ZERO_PARAMETER_BANK_SCRATCH_LIMIT);
    CHECK(scratch.code == EREDU_E_ZERO_PARAMETER_BANK_SCRATCH_LIMIT);
    CHECK(scratch.message == "parameter-bank compact scratch limit must be nonzero");

    bank = bank_options(64, 65);
    const Validated exceeds = validate(desc);
    CHECK(exceeds.status == EREDU_E_PARAMETER_BANK_PREFILL_TARGET_EXCEEDS_SCRATCH);
    CHECK(exceeds.code == EREDU_E_PARAMETER_BANK_PREFILL_TARGET_EXCEEDS_SCRATCH);
    CHECK(exceeds.message == "parameter-bank prefill target 65 exceeds scratch limit 64");

    // Equal target and scratch is fine; so are the defaults.
    bank = bank_options(64, 64);
    CHECK(validate(desc).status == EREDU_OK);
    eredu_parameter_bank_options_init(&bank, sizeof bank, nullptr);
    CHECK(validate(desc).status == EREDU_OK);

    // Banks beside dense-streamed ordinary units.
    desc.layers = EREDU_EXECUTION_RESIDENCY_DENSE_DISK_STREAM;
    const Validated dense = validate(desc, 8);
    REQUIRE(dense.status == EREDU_OK);
    CHECK(dense.summary.execution_residency == EREDU_EXECUTION_RESIDENCY_DENSE_DISK_STREAM);
    CHECK(dense.summary.ordinary_is_fully_resident == 0);
    CHECK(dense.summary.preparation_residency ==
          EREDU_RESIDENCY_REQUEST_ADDRESSABLE_PARAMETER_BANKS);
    CHECK(dense.summary.device_depth == 2);
    CHECK(dense.summary.dense_host_lookahead == 2);
    CHECK(dense.summary.has_parameter_bank_cache == 1);
    CHECK(dense.summary.parameter_bank_compact_scratch_bytes == UINT64_MAX);
    CHECK(dense.summary.parameter_bank_prefill_target_bytes == 1073741824u);
  }

  TEST_CASE("the bank members' offload config is echoed") {
    eredu_offload_config members;
    eredu_offload_config_init(&members, sizeof members, nullptr);
    members.has_device_budget = 1;
    members.device_budget_bytes = 0;
    members.has_host_budget = 1;
    members.host_budget_bytes = 4096;
    members.prefetch_depth = 5;
    members.eviction_policy = EREDU_EVICTION_LEAST_FREQUENTLY_USED;
    eredu_parameter_bank_options bank = bank_options(128, 128);
    bank.members = &members;
    eredu_layerwise_options layerwise;
    eredu_layerwise_options_init(&layerwise, sizeof layerwise, nullptr);
    layerwise.sample_process_memory = 1;
    eredu_weight_residency_desc desc = desc_of(EREDU_EXECUTION_RESIDENCY_LAYERWISE_HOST);
    desc.layerwise = &layerwise;
    desc.parameter_bank_cache = &bank;
    const Validated validated = validate(desc, 3);
    REQUIRE(validated.status == EREDU_OK);
    const eredu_residency_summary& summary = validated.summary;
    CHECK(summary.has_parameter_bank_cache == 1);
    CHECK(summary.parameter_bank_has_device_budget == 1);
    CHECK(summary.parameter_bank_device_budget_bytes == 0);
    CHECK(summary.parameter_bank_has_host_budget == 1);
    CHECK(summary.parameter_bank_host_budget_bytes == 4096);
    CHECK(summary.parameter_bank_prefetch_depth == 5);
    CHECK(summary.parameter_bank_eviction_policy == EREDU_EVICTION_LEAST_FREQUENTLY_USED);
    CHECK(summary.parameter_bank_compact_scratch_bytes == 128);
    CHECK(summary.parameter_bank_prefill_target_bytes == 128);
    // ordinary_residency() is the layerwise placement with its options.
    CHECK(summary.execution_residency == EREDU_EXECUTION_RESIDENCY_LAYERWISE_HOST);
    CHECK(summary.sample_backend_memory == 0);
    CHECK(summary.sample_process_memory == 1);
    CHECK(summary.offload_prefetch_depth == 1);
    CHECK(summary.offload_has_device_budget == 0);
    CHECK(summary.ordinary_is_fully_resident == 0);
    CHECK(summary.is_fully_resident == 0);
  }

  TEST_CASE("the ordinary options are checked before the bank cache") {
    eredu_dense_stream_options dense = dense_options(1, 1, 0, 1);
    eredu_parameter_bank_options bank = bank_options(64, 0);
    eredu_weight_residency_desc desc = dense_desc(&dense);
    desc.parameter_bank_cache = &bank;
    CHECK(validate(desc).status == EREDU_E_ZERO_HOST_LOOKAHEAD);
    // Argument errors come before every seed check.
    bank.struct_size = 3;
    CHECK(validate(desc).status == EREDU_E_INVALID_ARGUMENT);
  }

  TEST_CASE("argument errors") {
    ErrorSlot error;
    CHECK(eredu_residency_validate(nullptr, 1, nullptr, error.slot()) == EREDU_E_NULL_ARGUMENT);
    CHECK(error.code() == EREDU_E_NULL_ARGUMENT);

    eredu_weight_residency_desc desc = desc_of(EREDU_EXECUTION_RESIDENCY_FULLY_RESIDENT);
    CHECK(eredu_residency_validate(&desc, 1, nullptr, nullptr) == EREDU_OK);
    desc.struct_size = 0;
    CHECK(validate(desc).status == EREDU_E_INVALID_ARGUMENT);

    desc = desc_of(3);
    const Validated unknown = validate(desc);
    CHECK(unknown.status == EREDU_E_INVALID_ARGUMENT);
    CHECK(unknown.message == "unknown desc->layers value 3");

    eredu_layerwise_options layerwise;
    eredu_layerwise_options_init(&layerwise, sizeof layerwise, nullptr);
    eredu_dense_stream_options dense;
    eredu_dense_stream_options_init(&dense, sizeof dense, nullptr);
    desc = desc_of(EREDU_EXECUTION_RESIDENCY_FULLY_RESIDENT);
    desc.layerwise = &layerwise;
    const Validated misplaced = validate(desc);
    CHECK(misplaced.status == EREDU_E_INVALID_ARGUMENT);
    CHECK(misplaced.message ==
          "desc->layerwise must be NULL: desc->layers is 0, whose placement takes no such "
          "options");
    desc = desc_of(EREDU_EXECUTION_RESIDENCY_LAYERWISE_HOST);
    desc.dense = &dense;
    CHECK(validate(desc).status == EREDU_E_INVALID_ARGUMENT);
    desc = desc_of(EREDU_EXECUTION_RESIDENCY_DENSE_DISK_STREAM);
    desc.layerwise = &layerwise;
    CHECK(validate(desc).status == EREDU_E_INVALID_ARGUMENT);

    desc = dense_desc(&dense);
    dense.eviction_policy = 2;
    CHECK(validate(desc).status == EREDU_E_INVALID_ARGUMENT);
    dense.eviction_policy = EREDU_EVICTION_LEAST_RECENTLY_USED;
    dense.sample_process_memory = 2;
    CHECK(validate(desc).status == EREDU_E_INVALID_ARGUMENT);
    dense.sample_process_memory = 1;
    CHECK(validate(desc).status == EREDU_OK);
    dense.struct_size = 1;
    CHECK(validate(desc).status == EREDU_E_INVALID_ARGUMENT);

    eredu_offload_config offload;
    eredu_offload_config_init(&offload, sizeof offload, nullptr);
    offload.has_host_budget = 2;
    layerwise.offload = &offload;
    desc = desc_of(EREDU_EXECUTION_RESIDENCY_LAYERWISE_HOST);
    desc.layerwise = &layerwise;
    const Validated flag = validate(desc);
    CHECK(flag.status == EREDU_E_INVALID_ARGUMENT);
    CHECK(flag.message == "flag desc->layerwise->offload->has_host_budget is 2, expected 0 or 1");
    offload.has_host_budget = 0;
    offload.eviction_policy = 9;
    CHECK(validate(desc).status == EREDU_E_INVALID_ARGUMENT);
    offload.eviction_policy = EREDU_EVICTION_LEAST_RECENTLY_USED;
    CHECK(validate(desc).status == EREDU_OK);

    // A wrong summary size is an argument error even for a valid description.
    eredu_residency_summary summary;
    eredu_residency_summary_init(&summary, sizeof summary, nullptr);
    summary.struct_size = 7;
    CHECK(eredu_residency_validate(&desc, 1, &summary, nullptr) == EREDU_E_INVALID_ARGUMENT);
    CHECK(summary.struct_size == 7);
  }

  TEST_CASE("residency-policy structs follow the sized-struct rule") {
    check_init_sizes<eredu_layerwise_options>(eredu_layerwise_options_init,
                                              offsetof(eredu_layerwise_options, max_cached_shards),
                                              offsetof(eredu_layerwise_options, offload) + 1);
    check_init_sizes<eredu_dense_stream_options>(
        eredu_dense_stream_options_init, offsetof(eredu_dense_stream_options, host_lookahead),
        offsetof(eredu_dense_stream_options, host_budget_bytes) + 1);
    check_init_sizes<eredu_parameter_bank_options>(
        eredu_parameter_bank_options_init,
        offsetof(eredu_parameter_bank_options, compact_bank_scratch_bytes),
        offsetof(eredu_parameter_bank_options, prefill_compact_bank_target_bytes) + 4);
    check_init_sizes<eredu_weight_residency_desc>(
        eredu_weight_residency_desc_init, offsetof(eredu_weight_residency_desc, dense),
        offsetof(eredu_weight_residency_desc, layers) + 1);
    check_init_sizes<eredu_residency_summary>(
        eredu_residency_summary_init, offsetof(eredu_residency_summary, device_depth),
        offsetof(eredu_residency_summary, offload_host_budget_bytes) + 1);

    eredu_layerwise_options layerwise;
    eredu_layerwise_options_init(&layerwise, sizeof layerwise, nullptr);
    layerwise.max_cached_shards = 9;
    check_input_sizes<eredu_layerwise_options>(
        layerwise,
        [](const eredu_layerwise_options* given) {
          eredu_weight_residency_desc desc = desc_of(EREDU_EXECUTION_RESIDENCY_LAYERWISE_HOST);
          desc.layerwise = given;
          return eredu_residency_validate(&desc, 1, nullptr, nullptr);
        },
        offsetof(eredu_layerwise_options, max_cached_shards) + 1);
    const eredu_dense_stream_options dense = dense_options(32, 64, 3, 2);
    check_input_sizes<eredu_dense_stream_options>(
        dense,
        [](const eredu_dense_stream_options* given) {
          const eredu_weight_residency_desc desc = dense_desc(given);
          return eredu_residency_validate(&desc, 1, nullptr, nullptr);
        },
        offsetof(eredu_dense_stream_options, eviction_policy) + 1);
    const eredu_parameter_bank_options bank = bank_options(64, 32);
    check_input_sizes<eredu_parameter_bank_options>(
        bank,
        [](const eredu_parameter_bank_options* given) {
          eredu_weight_residency_desc desc = desc_of(EREDU_EXECUTION_RESIDENCY_FULLY_RESIDENT);
          desc.parameter_bank_cache = given;
          return eredu_residency_validate(&desc, 1, nullptr, nullptr);
        },
        offsetof(eredu_parameter_bank_options, members) + 1);
    eredu_weight_residency_desc banked = dense_desc(&dense);
    banked.parameter_bank_cache = &bank;
    check_input_sizes<eredu_weight_residency_desc>(
        banked,
        [](const eredu_weight_residency_desc* given) {
          return eredu_residency_validate(given, 1, nullptr, nullptr);
        },
        offsetof(eredu_weight_residency_desc, parameter_bank_cache) + 1);

    const eredu_residency_summary summary = check_output_sizes<eredu_residency_summary>(
        [&](eredu_residency_summary* out) {
          return eredu_residency_validate(&banked, 8, out, nullptr);
        },
        offsetof(eredu_residency_summary, offload_has_device_budget),
        offsetof(eredu_residency_summary, parameter_bank_prefetch_depth) + 1);
    CHECK(summary.execution_residency == EREDU_EXECUTION_RESIDENCY_DENSE_DISK_STREAM);
    CHECK(summary.preparation_residency == EREDU_RESIDENCY_REQUEST_ADDRESSABLE_PARAMETER_BANKS);
    CHECK(summary.offload_device_budget_bytes == 32);
    CHECK(summary.offload_host_budget_bytes == 64);
    CHECK(summary.offload_prefetch_depth == 3);
    CHECK(summary.device_depth == 2);
    CHECK(summary.dense_host_lookahead == 3);
    CHECK(summary.dense_background_queue_capacity == 2);
    CHECK(summary.has_parameter_bank_cache == 1);
    CHECK(summary.parameter_bank_compact_scratch_bytes == 64);
    CHECK(summary.parameter_bank_prefill_target_bytes == 32);
  }

  TEST_CASE("fields past an older caller's struct_size take their defaults") {
    // Dense options ending before max_cached_shards: the default 4.
    eredu_dense_stream_options dense = dense_options(32, 64, 3, 2);
    dense.max_cached_shards = 9;
    dense.sample_backend_memory = 7;  // past the caller's size: never read
    dense.struct_size =
        static_cast<std::uint32_t>(offsetof(eredu_dense_stream_options, max_cached_shards));
    Validated validated = validate(dense_desc(&dense));
    REQUIRE(validated.status == EREDU_OK);
    CHECK(validated.summary.max_cached_shards == 4);
    CHECK(validated.summary.sample_backend_memory == 0);
    CHECK(validated.summary.dense_host_lookahead == 3);
    // Dense options holding only struct_size are the defaults.
    dense.struct_size = 4;
    validated = validate(dense_desc(&dense));
    REQUIRE(validated.status == EREDU_OK);
    CHECK(validated.summary.offload_device_budget_bytes == 4294967296u);
    CHECK(validated.summary.offload_host_budget_bytes == 17179869184u);
    CHECK(validated.summary.dense_host_lookahead == 2);

    // Bank options ending before the prefill target: 1 GiB, which exceeds a
    // 64-byte scratch.
    eredu_parameter_bank_options bank = bank_options(64, 32);
    bank.struct_size = static_cast<std::uint32_t>(
        offsetof(eredu_parameter_bank_options, prefill_compact_bank_target_bytes));
    eredu_weight_residency_desc desc = desc_of(EREDU_EXECUTION_RESIDENCY_FULLY_RESIDENT);
    desc.parameter_bank_cache = &bank;
    CHECK(validate(desc).status == EREDU_E_PARAMETER_BANK_PREFILL_TARGET_EXCEEDS_SCRATCH);
    bank.compact_bank_scratch_bytes = UINT64_MAX;
    validated = validate(desc);
    REQUIRE(validated.status == EREDU_OK);
    CHECK(validated.summary.parameter_bank_prefill_target_bytes == 1073741824u);

    // A description ending before parameter_bank_cache has none.
    desc.struct_size =
        static_cast<std::uint32_t>(offsetof(eredu_weight_residency_desc, parameter_bank_cache));
    validated = validate(desc);
    REQUIRE(validated.status == EREDU_OK);
    CHECK(validated.summary.has_parameter_bank_cache == 0);

    // An offload config ending before prefetch_depth: depth 1.
    eredu_offload_config offload;
    eredu_offload_config_init(&offload, sizeof offload, nullptr);
    offload.prefetch_depth = 0;
    offload.struct_size =
        static_cast<std::uint32_t>(offsetof(eredu_offload_config, prefetch_depth));
    eredu_layerwise_options layerwise = EREDU_LAYERWISE_OPTIONS_INIT;
    layerwise.offload = &offload;
    eredu_weight_residency_desc host = desc_of(EREDU_EXECUTION_RESIDENCY_LAYERWISE_HOST);
    host.layerwise = &layerwise;
    validated = validate(host, 5);
    REQUIRE(validated.status == EREDU_OK);
    CHECK(validated.summary.offload_prefetch_depth == 1);
  }

  TEST_CASE("NULL options and their _INIT macros describe the same residency") {
    const auto summary_of = [](const eredu_weight_residency_desc& desc) {
      Oversized<eredu_residency_summary, 0> memory;
      REQUIRE(eredu_residency_summary_init(memory.get(), sizeof(eredu_residency_summary),
                                           nullptr) == EREDU_OK);
      REQUIRE(eredu_residency_validate(&desc, 6, memory.get(), nullptr) == EREDU_OK);
      return memory;
    };
    const auto same = [](const Oversized<eredu_residency_summary, 0>& a,
                         const Oversized<eredu_residency_summary, 0>& b) {
      return std::memcmp(a.bytes, b.bytes, sizeof a.bytes) == 0;
    };
    eredu_weight_residency_desc implicit = desc_of(EREDU_EXECUTION_RESIDENCY_LAYERWISE_HOST);
    const eredu_layerwise_options layerwise = EREDU_LAYERWISE_OPTIONS_INIT;
    eredu_weight_residency_desc explicit_desc = implicit;
    explicit_desc.layerwise = &layerwise;
    CHECK(same(summary_of(implicit), summary_of(explicit_desc)));

    implicit = desc_of(EREDU_EXECUTION_RESIDENCY_DENSE_DISK_STREAM);
    const eredu_dense_stream_options dense = EREDU_DENSE_STREAM_OPTIONS_INIT;
    explicit_desc = dense_desc(&dense);
    CHECK(same(summary_of(implicit), summary_of(explicit_desc)));

    const eredu_parameter_bank_options bank = EREDU_PARAMETER_BANK_OPTIONS_INIT;
    const eredu_offload_config members = EREDU_OFFLOAD_CONFIG_INIT;
    eredu_parameter_bank_options with_members = bank;
    with_members.members = &members;
    implicit.parameter_bank_cache = &bank;
    explicit_desc.parameter_bank_cache = &with_members;
    CHECK(same(summary_of(implicit), summary_of(explicit_desc)));
    const eredu_weight_residency_desc defaults = EREDU_WEIGHT_RESIDENCY_DESC_INIT;
    eredu_weight_residency_desc initialized;
    REQUIRE(eredu_weight_residency_desc_init(&initialized, sizeof initialized, nullptr) ==
            EREDU_OK);
    CHECK(same(summary_of(defaults), summary_of(initialized)));
  }
}

TEST_SUITE("capi.residency_from_json") {
  TEST_CASE("a dense disk stream document derives its summary") {
    const std::string text =
        R"({"schema":"eredu.residency.v1","kind":"dense_disk_stream","host_lookahead":3})";
    eredu_residency_summary summary = EREDU_RESIDENCY_SUMMARY_INIT;
    REQUIRE(eredu_residency_from_json(text.data(), text.size(), 8, &summary, nullptr) == EREDU_OK);
    CHECK(summary.execution_residency == EREDU_EXECUTION_RESIDENCY_DENSE_DISK_STREAM);
    CHECK(summary.preparation_residency == EREDU_RESIDENCY_REQUEST_DENSE_DISK_STREAM);
    CHECK(summary.offload_has_device_budget == 1);
    CHECK(summary.offload_device_budget_bytes == 4294967296u);
    CHECK(summary.offload_has_host_budget == 1);
    CHECK(summary.offload_host_budget_bytes == 17179869184u);
    CHECK(summary.offload_prefetch_depth == 3);
    CHECK(summary.device_depth == 2);
    CHECK(summary.dense_host_lookahead == 3);
    CHECK(summary.dense_background_queue_capacity == 2);
    CHECK(summary.max_cached_shards == 4);
    CHECK(summary.has_parameter_bank_cache == 0);
    // NULL out only validates.
    CHECK(eredu_residency_from_json(text.data(), text.size(), 8, nullptr, nullptr) == EREDU_OK);
  }

  TEST_CASE("a parameter-bank cache asks for addressable parameter banks") {
    const std::string text = R"({"schema":"eredu.residency.v1","kind":"fully_resident",)"
                             R"("parameter_bank_cache":{"device_budget_bytes":1073741824}})";
    eredu_residency_summary summary = EREDU_RESIDENCY_SUMMARY_INIT;
    REQUIRE(eredu_residency_from_json(text.data(), text.size(), 8, &summary, nullptr) == EREDU_OK);
    CHECK(summary.execution_residency == EREDU_EXECUTION_RESIDENCY_FULLY_RESIDENT);
    CHECK(summary.preparation_residency == EREDU_RESIDENCY_REQUEST_ADDRESSABLE_PARAMETER_BANKS);
    CHECK(summary.has_parameter_bank_cache == 1);
    CHECK(summary.parameter_bank_has_device_budget == 1);
    CHECK(summary.parameter_bank_device_budget_bytes == 1073741824u);
    CHECK(summary.parameter_bank_prefill_target_bytes == 1073741824u);
    CHECK(summary.device_depth == 8);
  }

  TEST_CASE("the document's errors, in order, and the summary zeroed") {
    const std::string unknown = R"({"schema":"eredu.residency.v1","kind":"fully_resident","x":1})";
    eredu_residency_summary summary = EREDU_RESIDENCY_SUMMARY_INIT;
    summary.device_depth = 7;
    ErrorSlot parse;
    CHECK(eredu_residency_from_json(unknown.data(), unknown.size(), 8, &summary, parse.slot()) ==
          EREDU_E_PARSE);
    CHECK(parse.message() == "/x: unknown field");
    CHECK(summary.device_depth == 0);

    const std::string zero =
        R"({"schema":"eredu.residency.v1","kind":"layerwise_host","prefetch_depth":0})";
    ErrorSlot depth;
    CHECK(eredu_residency_from_json(zero.data(), zero.size(), 8, nullptr, depth.slot()) ==
          EREDU_E_ZERO_PREFETCH_DEPTH);
    CHECK(depth.message() == "offload prefetch depth must be nonzero");

    ErrorSlot empty;
    CHECK(eredu_residency_from_json(nullptr, 0, 8, nullptr, empty.slot()) == EREDU_E_PARSE);
    ErrorSlot null;
    CHECK(eredu_residency_from_json(nullptr, 3, 8, nullptr, null.slot()) == EREDU_E_NULL_ARGUMENT);
    CHECK(null.message() == "argument text is NULL but its count is 3");
  }
}
