// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The weight_residency.rs seed: every seed test plus the error texts of
// WeightResidencyPolicyError, DenseTransferScheduleError and WeightBinding.
#include <doctest/doctest.h>

#include <string>
#include <utility>
#include <vector>

#include "residency/binding.hpp"
#include "residency/layerwise_metadata.hpp"
#include "residency/parameter_bank.hpp"
#include "residency/transfer_schedule.hpp"
#include "residency/weight_residency.hpp"

using namespace eredu;

namespace {

using Schedule = DenseTransferSchedule<std::string>;

Schedule schedule(IndexRange range, std::uint64_t capacity) {
  auto created = Schedule::create(range, capacity);
  REQUIRE(created);
  return std::move(created).value();
}

DenseDiskStreamLoadOptions dense(std::uint64_t device, std::uint64_t host, std::uint64_t lookahead,
                                 std::uint64_t queue) {
  return DenseDiskStreamLoadOptions::create(device, host, lookahead, queue).value();
}

}  // namespace

TEST_CASE("static_unit_bindings_are_runtime_owned_and_decomposable") {
  auto binding =
      WeightBinding::create("embedding", "model.embedding.weight", TensorSelection::full(), 16)
          .value();
  auto unit = StaticUnitBindings::create("static.embedding", {binding}).value();
  CHECK(unit.id().as_str() == "static.embedding");
  CHECK(unit.bindings() == std::vector<WeightBinding>{binding});
  auto [id, bindings] = std::move(unit).into_parts();
  CHECK(id.as_str() == "static.embedding");
  CHECK(bindings == std::vector<WeightBinding>{binding});
}

TEST_CASE("dense_stream_controls_fail_closed_without_a_backend") {
  auto lookahead = DenseDiskStreamLoadOptions::create(1, 1, 0, 1);
  CHECK(lookahead.error().code == Status::ZeroHostLookahead);
  CHECK(lookahead.error().message ==
        "dense disk streaming host lookahead must be nonzero when the host budget is enabled");
  auto queue = DenseDiskStreamLoadOptions::create(1, 1, 1, 0);
  CHECK(queue.error().code == Status::ZeroQueueCapacity);
  CHECK(queue.error().message ==
        "dense disk streaming background queue capacity must be nonzero when host caching is "
        "enabled");
  auto disabled = DenseDiskStreamLoadOptions::create(1, 0, 1, 0);
  CHECK(disabled.error().code == Status::HostDisabledControls);
  CHECK(disabled.error().message ==
        "dense disk streaming with a zero host budget requires zero host lookahead and queue "
        "capacity");
  CHECK(DenseDiskStreamLoadOptions::create(1, 0, 0, 1).error().code ==
        Status::HostDisabledControls);
  CHECK(DenseDiskStreamLoadOptions::create(1, 1, 0, 0).error().code == Status::ZeroHostLookahead);
  CHECK(DenseDiskStreamLoadOptions::create(1, 0, 0, 0));
}

TEST_CASE("residency_policy_derives_finite_dense_windows") {
  auto policy = LayerWeightResidency::dense_disk_stream(dense(32, 64, 3, 2));
  CHECK(policy.device_depth(8) == DENSE_TRANSFER_WINDOW);
  auto offload = policy.offload().value();
  CHECK(offload.device_budget_bytes() == 32);
  CHECK(offload.host_budget_bytes() == 64);
  CHECK(offload.prefetch_depth() == 3);
  CHECK(offload.eviction_policy() == CacheEvictionPolicy::LeastRecentlyUsed);
  // The prefetch depth is at least the transfer window; eviction carries over.
  auto direct = LayerWeightResidency::dense_disk_stream(
      dense(32, 0, 0, 0).with_eviction_policy(CacheEvictionPolicy::LeastFrequentlyUsed));
  CHECK(direct.device_depth(1) == 1);
  CHECK(direct.offload().value() == OffloadConfig::create(32, 0, 2).value().with_eviction_policy(
                                        CacheEvictionPolicy::LeastFrequentlyUsed));
}

TEST_CASE("dense_transfer_schedule_preserves_order_and_bounded_lookahead") {
  auto cursor = schedule({3, 7}, 2);
  CHECK(cursor.desired_indices(3) == std::vector<std::uint64_t>{3, 4, 5});
  auto wrong = cursor.admit(4, "wrong");
  CHECK(wrong.error().code == Status::OutOfOrder);
  CHECK(wrong.error().message == "dense transfer schedule expected unit 3, received 4");
  REQUIRE(cursor.admit(3, "three"));
  REQUIRE(cursor.admit(4, "four"));
  CHECK_FALSE(cursor.can_admit());
  CHECK(cursor.desired_indices(3) == std::vector<std::uint64_t>{3, 4, 5});
  CHECK(cursor.pop_ready() == std::pair<std::uint64_t, std::string>{3, "three"});
  REQUIRE(cursor.admit(5, "five"));
  CHECK(cursor.desired_indices(4) == std::vector<std::uint64_t>{4, 5, 6});
  CHECK(cursor.pop_ready() == std::pair<std::uint64_t, std::string>{4, "four"});
  CHECK(cursor.pop_ready() == std::pair<std::uint64_t, std::string>{5, "five"});
  REQUIRE(cursor.admit(6, "six"));
  CHECK(cursor.pop_ready() == std::pair<std::uint64_t, std::string>{6, "six"});
  CHECK(cursor.is_exhausted());
}

TEST_CASE("expert_cache_controls_and_composite_placement_are_backend_neutral") {
  auto experts = ParameterBankLoadOptions::create(OffloadConfig{}, 64, 32).value();
  auto placement = WeightResidency::with_independent_parameter_banks(
      OrdinaryWeightResidency::fully_resident(), experts);
  CHECK(placement.parameter_bank_cache() == experts);
  CHECK(placement.ordinary_is_fully_resident());
  CHECK_FALSE(placement.is_fully_resident());
  auto zero_target = ParameterBankLoadOptions::create(OffloadConfig{}, 64, 0);
  CHECK(zero_target.error().code == Status::ZeroParameterBankPrefillTarget);
  CHECK(zero_target.error().message == "parameter-bank prefill target must be nonzero");
  CHECK(ParameterBankKey(3, 7).unit_id().as_str() == "bank.unit.00003.member.00007");
}

TEST_CASE("layerwise_metadata_is_runtime_owned_and_updateable") {
  LayerwiseModelMetadata metadata("generic", std::nullopt, 4, 10, ExecutionResidency::LayerwiseHost,
                                  20, 8, 6, 2);
  metadata.set_effective_model_type("llama");
  metadata.set_quantization(WeightQuantization(AffineQuantization{}));
  CHECK(metadata.effective_model_type() == "llama");
  CHECK(metadata.quantization() == WeightQuantization(AffineQuantization{}));
  CHECK(metadata.layer_count() == 4);
  CHECK(metadata.static_device_bytes() == 10);
  CHECK(metadata.residency() == ExecutionResidency::LayerwiseHost);
  CHECK(metadata.layer_parameter_bytes() == 20);
  CHECK(metadata.maximum_device_layer_bytes() == 8);
  CHECK(metadata.maximum_host_layer_bytes() == 6);
  CHECK(metadata.device_layer_capacity() == 2);
  CHECK_FALSE(metadata.materialization().has_value());
  metadata.set_materialization(WeightMaterializationReport{});
  CHECK(metadata.materialization().has_value());
}

TEST_CASE("dense transfer schedule errors in the seed's order") {
  auto zero = Schedule::create(IndexRange{0, 4}, 0);
  CHECK(zero.error().code == Status::ZeroCapacity);
  CHECK(zero.error().message == "dense transfer window capacity must be nonzero");
  const std::vector<std::uint64_t> unordered{1, 5, 3};
  // Zero capacity is reported before the order.
  CHECK(Schedule::create(unordered, 0).error().code == Status::ZeroCapacity);
  auto order = Schedule::create(unordered, 1);
  CHECK(order.error().code == Status::UnorderedPending);
  CHECK(order.error().message == "dense transfer pending unit 3 does not follow 5");
  const std::vector<std::uint64_t> repeated{2, 2};
  CHECK(Schedule::create(repeated, 1).error().message ==
        "dense transfer pending unit 2 does not follow 2");

  auto cursor = schedule({0, 2}, 1);
  REQUIRE(cursor.admit(0, "zero"));
  auto full = cursor.admit(1, "one");
  CHECK(full.error().code == Status::CapacityExceeded);
  CHECK(full.error().message == "dense transfer window exceeds its capacity of 1");
  // Capacity is checked before the order.
  CHECK(cursor.admit(7, "seven").error().code == Status::CapacityExceeded);
  REQUIRE(cursor.pop_ready());
  REQUIRE(cursor.admit(1, "one"));
  REQUIRE(cursor.pop_ready());
  auto none = cursor.admit(2, "two");
  CHECK(none.error().code == Status::NoPendingUnit);
  CHECK(none.error().message == "dense transfer schedule has no pending unit");
  CHECK(cursor.is_exhausted());
  CHECK_FALSE(cursor.pop_ready().has_value());
}

TEST_CASE("dense transfer schedule over sparse indices and unbounded ranges") {
  const std::vector<std::uint64_t> sparse{1, 2, 3, 7, 9, UINT64_MAX};
  auto cursor = Schedule::create(sparse, 3).value();
  CHECK(cursor.next_pending() == 1);
  CHECK(cursor.desired_indices(100) == sparse);
  CHECK(cursor.desired_count(4) == 4);
  CHECK(cursor.desired_indices(0).empty());
  for (std::uint64_t index : {1, 2, 3}) REQUIRE(cursor.admit(index, "x"));
  CHECK(cursor.has_ready());
  CHECK_FALSE(cursor.can_admit());
  CHECK(cursor.desired_indices(5) == std::vector<std::uint64_t>{1, 2, 3, 7, 9});

  auto huge = schedule({5, UINT64_MAX}, 2);
  CHECK(huge.desired_count(UINT64_MAX) == UINT64_MAX - 5);
  CHECK(huge.desired_indices(3) == std::vector<std::uint64_t>{5, 6, 7});
  auto empty = schedule({4, 4}, 1);
  CHECK(empty.is_exhausted());
  CHECK_FALSE(empty.can_admit());
  CHECK(empty.next_pending() == std::nullopt);
  CHECK(schedule({9, 4}, 1).is_exhausted());
}

TEST_CASE("dense disk stream defaults and builders") {
  const DenseDiskStreamLoadOptions defaults;
  CHECK(defaults.device_budget_bytes() == 4294967296);
  CHECK(defaults.host_budget_bytes() == 17179869184);
  CHECK(defaults.host_lookahead() == 2);
  CHECK(defaults.background_queue_capacity() == 2);
  CHECK(defaults.eviction_policy() == CacheEvictionPolicy::LeastRecentlyUsed);
  CHECK(defaults.max_cached_shards() == DEFAULT_MAX_CACHED_SHARDS);
  CHECK_FALSE(defaults.samples_backend_memory());
  CHECK_FALSE(defaults.samples_process_memory());
  CHECK(defaults.validate());
  CHECK(defaults == dense(std::uint64_t{4} << 30, std::uint64_t{16} << 30, 2, 2));
  auto built = defaults.with_max_cached_shards(9).with_memory_sampling(true, false);
  CHECK(built.max_cached_shards() == 9);
  CHECK(built.samples_backend_memory());
  CHECK_FALSE(built.samples_process_memory());
}

TEST_CASE("layer residency variants") {
  const LayerWeightResidency resident;
  CHECK(resident == LayerWeightResidency::fully_resident());
  CHECK(resident.is_fully_resident());
  CHECK(resident.execution_residency() == ExecutionResidency::FullyResident);
  CHECK(resident.device_depth(7) == 7);
  CHECK(resident.max_cached_shards() == 4);
  CHECK_FALSE(resident.sample_backend_memory());
  CHECK_FALSE(resident.sample_process_memory());
  CHECK(resident.offload().value() == OffloadConfig{});
  CHECK_FALSE(resident.dense().has_value());
  CHECK_FALSE(resident.layerwise().has_value());

  auto options = LayerwiseLoadOptions(OffloadConfig::create(100, std::nullopt, 5).value())
                     .with_max_cached_shards(2)
                     .with_memory_sampling(false, true);
  auto layerwise = LayerWeightResidency::layerwise_host(options);
  CHECK(layerwise.execution_residency() == ExecutionResidency::LayerwiseHost);
  CHECK(layerwise.device_depth(3) == 5);
  CHECK(layerwise.max_cached_shards() == 2);
  CHECK_FALSE(layerwise.sample_backend_memory());
  CHECK(layerwise.sample_process_memory());
  CHECK(layerwise.offload().value() == options.offload());
  CHECK(layerwise.layerwise() == options);
  CHECK_FALSE(layerwise.is_fully_resident());

  const LayerwiseLoadOptions layerwise_defaults;
  CHECK(layerwise_defaults.offload() == OffloadConfig{});
  CHECK(layerwise_defaults.max_cached_shards() == 4);

  auto streamed = LayerWeightResidency::dense_disk_stream(
      DenseDiskStreamLoadOptions{}.with_memory_sampling(true, true).with_max_cached_shards(1));
  CHECK(streamed.execution_residency() == ExecutionResidency::DenseDiskStream);
  CHECK(streamed.device_depth(0) == 0);
  CHECK(streamed.max_cached_shards() == 1);
  CHECK(streamed.sample_backend_memory());
  CHECK(streamed.dense().has_value());
}

TEST_CASE("parameter bank options validate in the seed's order") {
  const ParameterBankLoadOptions defaults;
  CHECK(defaults.offload() == OffloadConfig{});
  CHECK(defaults.compact_bank_scratch_bytes() == UINT64_MAX);
  CHECK(defaults.prefill_compact_bank_target_bytes() == 1073741824);
  CHECK(defaults.validate());
  auto scratch = ParameterBankLoadOptions::create(OffloadConfig{}, 0, 0);
  CHECK(scratch.error().code == Status::ZeroParameterBankScratchLimit);
  CHECK(scratch.error().message == "parameter-bank compact scratch limit must be nonzero");
  auto exceeds = ParameterBankLoadOptions::create(OffloadConfig{}, 32, 64);
  CHECK(exceeds.error().code == Status::ParameterBankPrefillTargetExceedsScratch);
  CHECK(exceeds.error().message == "parameter-bank prefill target 64 exceeds scratch limit 32");
  auto equal = ParameterBankLoadOptions::create(OffloadConfig{}, 32, 32).value();
  CHECK(equal.compact_bank_scratch_bytes() == 32);
  CHECK(equal.prefill_compact_bank_target_bytes() == 32);
}

TEST_CASE("weight residency accessors") {
  const WeightResidency resident;
  CHECK(resident == WeightResidency::fully_resident());
  CHECK(resident.is_fully_resident());
  CHECK(resident.ordinary_is_fully_resident());
  CHECK(resident.parameter_banks() == ParameterBankResidency::with_layer());
  CHECK(resident.parameter_banks().is_with_layer());
  CHECK_FALSE(resident.parameter_bank_cache().has_value());
  CHECK_FALSE(resident.ordinary_residency().has_value());
  CHECK(resident.max_cached_shards() == 4);

  auto options = dense(1, 0, 0, 0).with_max_cached_shards(6);
  auto streamed = WeightResidency::dense_disk_stream(options);
  CHECK(streamed.layers() == LayerWeightResidency::dense_disk_stream(options));
  CHECK_FALSE(streamed.is_fully_resident());
  CHECK_FALSE(streamed.ordinary_is_fully_resident());
  CHECK(streamed.max_cached_shards() == 6);
  CHECK(WeightResidency::layerwise_host(LayerwiseLoadOptions{}).layers() ==
        LayerWeightResidency::layerwise_host(LayerwiseLoadOptions{}));

  const ParameterBankLoadOptions cache;
  auto banks = WeightResidency::with_independent_parameter_banks(
      OrdinaryWeightResidency::dense_disk_stream(options), cache);
  CHECK(banks.layers() == LayerWeightResidency::dense_disk_stream(options));
  CHECK(banks.ordinary_residency() == OrdinaryWeightResidency::dense_disk_stream(options));
  CHECK(banks.parameter_banks() == ParameterBankResidency::independent_cache(cache));
  CHECK(banks.parameter_banks().cache() == cache);
  CHECK_FALSE(banks.ordinary_is_fully_resident());
  CHECK(banks.max_cached_shards() == 6);
  auto layerwise_banks = WeightResidency::with_independent_parameter_banks(
      OrdinaryWeightResidency::layerwise_host(LayerwiseLoadOptions{}), cache);
  CHECK(layerwise_banks.ordinary_residency() ==
        OrdinaryWeightResidency::layerwise_host(LayerwiseLoadOptions{}));
  CHECK(WeightResidency::with_layers(LayerWeightResidency{}) == resident);
}

TEST_CASE("parameter bank keys and expert passes") {
  CHECK(ParameterBankKey(3, 7).unit() == 3);
  CHECK(ParameterBankKey(3, 7).member() == 7);
  CHECK(ParameterBankKey(123456, 0).unit_id().as_str() == "bank.unit.123456.member.00000");
  CHECK(ParameterBankKey(1, 9) < ParameterBankKey(2, 0));
  CHECK(ParameterBankKey(1, 2) < ParameterBankKey(1, 3));
  CHECK(parameter_bank_access(ExpertPass::Prefill) == ParameterBankAccess::Bulk);
  CHECK(parameter_bank_access(ExpertPass::Decode) == ParameterBankAccess::Incremental);
  CHECK(expert_pass_from_value(0) == ExpertPass::Prefill);
  CHECK(expert_pass_from_value(1) == ExpertPass::Decode);
  CHECK_FALSE(expert_pass_from_value(2).has_value());
}

TEST_CASE("execution residencies by value") {
  CHECK(execution_residency_from_value(0) == ExecutionResidency::FullyResident);
  CHECK(execution_residency_from_value(1) == ExecutionResidency::LayerwiseHost);
  CHECK(execution_residency_from_value(2) == ExecutionResidency::DenseDiskStream);
  CHECK_FALSE(execution_residency_from_value(3).has_value());
}

TEST_CASE("weight bindings validate name, key and bytes in order") {
  auto name = WeightBinding::create(" \t", "", TensorSelection::full(), 0);
  CHECK(name.error().code == Status::InvalidBindingName);
  CHECK(name.error().message == "weight binding names must not be empty");
  auto key = WeightBinding::create("q\"w", "\u3000", TensorSelection::full(), 0);
  CHECK(key.error().code == Status::InvalidCheckpointKey);
  CHECK(key.error().message == "weight binding \"q\\\"w\" has an empty checkpoint key");
  auto bytes = WeightBinding::create("q", "model.q", TensorSelection::full(), 0);
  CHECK(bytes.error().code == Status::ZeroSizedBinding);
  CHECK(bytes.error().message == "weight binding \"q\" must contain at least one byte");

  // Selections are plain data: an out-of-range or empty selection is kept.
  auto binding = WeightBinding::create("q", "model.q", TensorSelection::range(9, 4, 2), 8).value();
  CHECK(binding.name() == "q");
  CHECK(binding.checkpoint_key() == "model.q");
  CHECK(binding.selection() == TensorSelection::range(9, 4, 2));
  CHECK(binding.expected_bytes() == 8);
  CHECK(binding.checkpoint_keys() == std::vector<std::string>{"model.q"});
  CHECK_FALSE(binding.logical_target().has_value());
  CHECK(WeightBinding::create("i", "k", TensorSelection::index_list(0, {}), 1));
  CHECK(WeightBinding::create("c", "k", TensorSelection::contiguous(3, {0}), 1));

  auto targeted = binding.with_logical_target("attention.q").value();
  CHECK(targeted.logical_target() == "attention.q");
  CHECK_FALSE(targeted == binding);
  auto blank = binding.with_logical_target("");
  CHECK(blank.error().code == Status::InvalidBindingName);
  CHECK(blank.error().message == "weight binding names must not be empty");

  auto unit = StaticUnitBindings::create(" ", {binding});
  CHECK(unit.error().code == Status::EmptyUnitId);
  CHECK(unit.error().message == "offload unit identifiers must not be empty");
}
