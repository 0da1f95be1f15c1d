// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "residency/weight_residency.hpp"

#include <algorithm>

#include "core/enum_words.hpp"

namespace eredu {

std::optional<ExecutionResidency> execution_residency_from_value(std::uint32_t value) {
  return enum_from_value<ExecutionResidency>(value, kExecutionResidencyCount);
}

LayerwiseLoadOptions LayerwiseLoadOptions::with_max_cached_shards(std::uint64_t maximum) const {
  LayerwiseLoadOptions options = *this;
  options.max_cached_shards_ = maximum;
  return options;
}

LayerwiseLoadOptions LayerwiseLoadOptions::with_memory_sampling(bool backend, bool process) const {
  LayerwiseLoadOptions options = *this;
  options.sample_backend_memory_ = backend;
  options.sample_process_memory_ = process;
  return options;
}

Result<DenseDiskStreamLoadOptions> DenseDiskStreamLoadOptions::create(
    std::uint64_t device_budget_bytes, std::uint64_t host_budget_bytes,
    std::uint64_t host_lookahead, std::uint64_t background_queue_capacity) {
  DenseDiskStreamLoadOptions options;
  options.device_budget_bytes_ = device_budget_bytes;
  options.host_budget_bytes_ = host_budget_bytes;
  options.host_lookahead_ = host_lookahead;
  options.background_queue_capacity_ = background_queue_capacity;
  EREDU_TRY(options.validate());
  return options;
}

Result<void> DenseDiskStreamLoadOptions::validate() const {
  if (host_budget_bytes_ == 0) {
    if (host_lookahead_ != 0 || background_queue_capacity_ != 0) {
      return fail(Status::HostDisabledControls,
                  "dense disk streaming with a zero host budget requires zero host lookahead and "
                  "queue capacity");
    }
    return outcome::success();
  }
  if (host_lookahead_ == 0) {
    return fail(Status::ZeroHostLookahead,
                "dense disk streaming host lookahead must be nonzero when the host budget is "
                "enabled");
  }
  if (background_queue_capacity_ == 0) {
    return fail(Status::ZeroQueueCapacity,
                "dense disk streaming background queue capacity must be nonzero when host "
                "caching is enabled");
  }
  return outcome::success();
}

DenseDiskStreamLoadOptions DenseDiskStreamLoadOptions::with_eviction_policy(
    CacheEvictionPolicy policy) const {
  DenseDiskStreamLoadOptions options = *this;
  options.eviction_policy_ = policy;
  return options;
}

DenseDiskStreamLoadOptions DenseDiskStreamLoadOptions::with_max_cached_shards(
    std::uint64_t maximum) const {
  DenseDiskStreamLoadOptions options = *this;
  options.max_cached_shards_ = maximum;
  return options;
}

DenseDiskStreamLoadOptions DenseDiskStreamLoadOptions::with_memory_sampling(bool backend,
                                                                            bool process) const {
  DenseDiskStreamLoadOptions options = *this;
  options.sample_backend_memory_ = backend;
  options.sample_process_memory_ = process;
  return options;
}

LayerWeightResidency LayerWeightResidency::layerwise_host(LayerwiseLoadOptions options) {
  return LayerWeightResidency(Options(options));
}

LayerWeightResidency LayerWeightResidency::dense_disk_stream(DenseDiskStreamLoadOptions options) {
  return LayerWeightResidency(Options(options));
}

ExecutionResidency LayerWeightResidency::execution_residency() const {
  return static_cast<ExecutionResidency>(options_.index());
}

bool LayerWeightResidency::is_fully_resident() const {
  return std::holds_alternative<std::monostate>(options_);
}

std::optional<LayerwiseLoadOptions> LayerWeightResidency::layerwise() const {
  if (const auto* options = std::get_if<LayerwiseLoadOptions>(&options_)) return *options;
  return std::nullopt;
}

std::optional<DenseDiskStreamLoadOptions> LayerWeightResidency::dense() const {
  if (const auto* options = std::get_if<DenseDiskStreamLoadOptions>(&options_)) return *options;
  return std::nullopt;
}

std::uint64_t LayerWeightResidency::max_cached_shards() const {
  if (auto options = layerwise()) return options->max_cached_shards();
  if (auto options = dense()) return options->max_cached_shards();
  return DEFAULT_MAX_CACHED_SHARDS;
}

bool LayerWeightResidency::sample_backend_memory() const {
  if (auto options = layerwise()) return options->samples_backend_memory();
  if (auto options = dense()) return options->samples_backend_memory();
  return false;
}

bool LayerWeightResidency::sample_process_memory() const {
  if (auto options = layerwise()) return options->samples_process_memory();
  if (auto options = dense()) return options->samples_process_memory();
  return false;
}

std::uint64_t LayerWeightResidency::device_depth(std::uint64_t unit_count) const {
  if (auto options = layerwise()) return options->offload().prefetch_depth();
  if (dense()) return std::min(unit_count, DENSE_TRANSFER_WINDOW);
  return unit_count;
}

Result<OffloadConfig> LayerWeightResidency::offload() const {
  if (auto options = layerwise()) return options->offload();
  if (auto options = dense()) {
    EREDU_TRY(options->validate());
    EREDU_TRY(config,
              OffloadConfig::create(options->device_budget_bytes(), options->host_budget_bytes(),
                                    std::max(options->host_lookahead(), DENSE_TRANSFER_WINDOW)));
    return config.with_eviction_policy(options->eviction_policy());
  }
  return OffloadConfig{};
}

Result<ParameterBankLoadOptions> ParameterBankLoadOptions::create(
    OffloadConfig members, std::uint64_t compact_bank_scratch_bytes,
    std::uint64_t prefill_compact_bank_target_bytes) {
  ParameterBankLoadOptions options;
  options.members_ = members;
  options.compact_bank_scratch_bytes_ = compact_bank_scratch_bytes;
  options.prefill_compact_bank_target_bytes_ = prefill_compact_bank_target_bytes;
  EREDU_TRY(options.validate());
  return options;
}

Result<void> ParameterBankLoadOptions::validate() const {
  if (compact_bank_scratch_bytes_ == 0) {
    return fail(Status::ZeroParameterBankScratchLimit,
                "parameter-bank compact scratch limit must be nonzero");
  }
  if (prefill_compact_bank_target_bytes_ == 0) {
    return fail(Status::ZeroParameterBankPrefillTarget,
                "parameter-bank prefill target must be nonzero");
  }
  if (prefill_compact_bank_target_bytes_ > compact_bank_scratch_bytes_) {
    return failf(Status::ParameterBankPrefillTargetExceedsScratch,
                 "parameter-bank prefill target {} exceeds scratch limit {}",
                 prefill_compact_bank_target_bytes_, compact_bank_scratch_bytes_);
  }
  return outcome::success();
}

OrdinaryWeightResidency OrdinaryWeightResidency::fully_resident() {
  return OrdinaryWeightResidency(LayerWeightResidency::fully_resident());
}

OrdinaryWeightResidency OrdinaryWeightResidency::layerwise_host(LayerwiseLoadOptions options) {
  return OrdinaryWeightResidency(LayerWeightResidency::layerwise_host(options));
}

OrdinaryWeightResidency OrdinaryWeightResidency::dense_disk_stream(
    DenseDiskStreamLoadOptions options) {
  return OrdinaryWeightResidency(LayerWeightResidency::dense_disk_stream(options));
}

ParameterBankResidency ParameterBankResidency::independent_cache(ParameterBankLoadOptions options) {
  ParameterBankResidency residency;
  residency.cache_ = options;
  return residency;
}

WeightResidency WeightResidency::layerwise_host(LayerwiseLoadOptions options) {
  return with_layers(LayerWeightResidency::layerwise_host(options));
}

WeightResidency WeightResidency::dense_disk_stream(DenseDiskStreamLoadOptions options) {
  return with_layers(LayerWeightResidency::dense_disk_stream(options));
}

WeightResidency WeightResidency::with_layers(LayerWeightResidency layers) {
  return WeightResidency(layers, std::nullopt);
}

WeightResidency WeightResidency::with_independent_parameter_banks(OrdinaryWeightResidency ordinary,
                                                                  ParameterBankLoadOptions cache) {
  return WeightResidency(ordinary.layers(), cache);
}

ParameterBankResidency WeightResidency::parameter_banks() const {
  if (cache_) return ParameterBankResidency::independent_cache(*cache_);
  return ParameterBankResidency::with_layer();
}

std::optional<OrdinaryWeightResidency> WeightResidency::ordinary_residency() const {
  if (!cache_) return std::nullopt;
  if (auto options = layers_.layerwise()) return OrdinaryWeightResidency::layerwise_host(*options);
  if (auto options = layers_.dense()) return OrdinaryWeightResidency::dense_disk_stream(*options);
  return OrdinaryWeightResidency::fully_resident();
}

bool WeightResidency::ordinary_is_fully_resident() const { return layers_.is_fully_resident(); }

bool WeightResidency::is_fully_resident() const { return !cache_ && layers_.is_fully_resident(); }

}  // namespace eredu
