// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The seed's weight residency policies: layerwise host and dense disk stream
// options, ordinary-unit placement, independently cached parameter banks and
// their composition, with the offload configuration each derives.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <variant>

#include "core/result.hpp"
#include "residency/offload.hpp"

namespace eredu {

/// Current plus next unit retained by dense streamed execution.
inline constexpr std::uint64_t DENSE_TRANSFER_WINDOW = 2;

/// Default bound of simultaneously cached checkpoint shards/readers
/// (docs/residency.md, "Weight-residency policies").
inline constexpr std::uint64_t DEFAULT_MAX_CACHED_SHARDS = 4;

/// Seed `LayerwiseLoadOptions`: host-backed layerwise execution. Default:
/// OffloadConfig{} (unbounded, depth 1, LRU), DEFAULT_MAX_CACHED_SHARDS, no
/// memory sampling. Infallible; immutable value.
class LayerwiseLoadOptions {
 public:
  LayerwiseLoadOptions() = default;
  /// Seed `LayerwiseLoadOptions::new`: `offload` with the other defaults.
  explicit LayerwiseLoadOptions(OffloadConfig offload) : offload_(offload) {}

  LayerwiseLoadOptions with_max_cached_shards(std::uint64_t maximum) const;
  LayerwiseLoadOptions with_memory_sampling(bool backend, bool process) const;

  /// The exact offload limits (budgets in bytes, device window in units).
  OffloadConfig offload() const { return offload_; }
  std::uint64_t max_cached_shards() const { return max_cached_shards_; }
  bool samples_backend_memory() const { return sample_backend_memory_; }
  bool samples_process_memory() const { return sample_process_memory_; }

  friend bool operator==(const LayerwiseLoadOptions&, const LayerwiseLoadOptions&) = default;

 private:
  OffloadConfig offload_;
  std::uint64_t max_cached_shards_ = DEFAULT_MAX_CACHED_SHARDS;
  bool sample_backend_memory_ = false;
  bool sample_process_memory_ = false;
};

/// Seed `DenseDiskStreamLoadOptions`: finite device/host budgets in bytes, a
/// protected host lookahead in units, a background queue bound, eviction,
/// shard-cache bound and memory sampling. Default: 4 GiB device, 16 GiB
/// host, lookahead 2, queue 2, LRU, 4 shards, no sampling.
class DenseDiskStreamLoadOptions {
 public:
  DenseDiskStreamLoadOptions() = default;

  /// Seed `new`: LRU, DEFAULT_MAX_CACHED_SHARDS, no sampling, then
  /// `validate()`.
  static Result<DenseDiskStreamLoadOptions> create(std::uint64_t device_budget_bytes,
                                                   std::uint64_t host_budget_bytes,
                                                   std::uint64_t host_lookahead,
                                                   std::uint64_t background_queue_capacity);

  /// Errors: host budget 0 with a nonzero lookahead or queue capacity ->
  /// HostDisabledControls (402); else lookahead 0 -> ZeroHostLookahead (400),
  /// then queue capacity 0 -> ZeroQueueCapacity (401).
  Result<void> validate() const;

  DenseDiskStreamLoadOptions with_eviction_policy(CacheEvictionPolicy policy) const;
  DenseDiskStreamLoadOptions with_max_cached_shards(std::uint64_t maximum) const;
  DenseDiskStreamLoadOptions with_memory_sampling(bool backend, bool process) const;

  std::uint64_t device_budget_bytes() const { return device_budget_bytes_; }
  std::uint64_t host_budget_bytes() const { return host_budget_bytes_; }
  std::uint64_t host_lookahead() const { return host_lookahead_; }
  std::uint64_t background_queue_capacity() const { return background_queue_capacity_; }
  CacheEvictionPolicy eviction_policy() const { return eviction_policy_; }
  std::uint64_t max_cached_shards() const { return max_cached_shards_; }
  bool samples_backend_memory() const { return sample_backend_memory_; }
  bool samples_process_memory() const { return sample_process_memory_; }

  friend bool operator==(const DenseDiskStreamLoadOptions&,
                         const DenseDiskStreamLoadOptions&) = default;

 private:
  std::uint64_t device_budget_bytes_ = std::uint64_t{4} << 30;
  std::uint64_t host_budget_bytes_ = std::uint64_t{16} << 30;
  std::uint64_t host_lookahead_ = 2;
  std::uint64_t background_queue_capacity_ = 2;
  CacheEvictionPolicy eviction_policy_ = CacheEvictionPolicy::LeastRecentlyUsed;
  std::uint64_t max_cached_shards_ = DEFAULT_MAX_CACHED_SHARDS;
  bool sample_backend_memory_ = false;
  bool sample_process_memory_ = false;
};

/// Seed `ExecutionResidency`: the physical execution classification.
enum class ExecutionResidency : std::uint32_t {
  FullyResident = 0,
  LayerwiseHost = 1,
  DenseDiskStream = 2,
};
inline constexpr std::size_t kExecutionResidencyCount = 3;
/// The residency numbered `value` (its EREDU_EXECUTION_RESIDENCY_* value),
/// or nullopt.
std::optional<ExecutionResidency> execution_residency_from_value(std::uint32_t value);

/// Seed `LayerWeightResidency`: FullyResident (default) | LayerwiseHost
/// (options) | DenseDiskStream (options). `execution_residency()` tells the
/// variant.
class LayerWeightResidency {
 public:
  LayerWeightResidency() = default;  // FullyResident
  static LayerWeightResidency fully_resident() { return {}; }
  static LayerWeightResidency layerwise_host(LayerwiseLoadOptions options);
  static LayerWeightResidency dense_disk_stream(DenseDiskStreamLoadOptions options);

  ExecutionResidency execution_residency() const;
  bool is_fully_resident() const;
  /// The layerwise host options, when this is LayerwiseHost.
  std::optional<LayerwiseLoadOptions> layerwise() const;
  /// The dense-stream options, when this is DenseDiskStream.
  std::optional<DenseDiskStreamLoadOptions> dense() const;

  /// FullyResident: DEFAULT_MAX_CACHED_SHARDS; else the options' bound.
  std::uint64_t max_cached_shards() const;
  /// FullyResident: false; else the options' flag.
  bool sample_backend_memory() const;
  bool sample_process_memory() const;
  /// The device unit window: FullyResident `unit_count`, LayerwiseHost its
  /// prefetch depth (may exceed unit_count), DenseDiskStream
  /// min(unit_count, DENSE_TRANSFER_WINDOW).
  std::uint64_t device_depth(std::uint64_t unit_count) const;
  /// FullyResident: OffloadConfig{}; LayerwiseHost: its config;
  /// DenseDiskStream: validate(), then OffloadConfig::create(device, host,
  /// max(lookahead, DENSE_TRANSFER_WINDOW)) with its eviction policy.
  Result<OffloadConfig> offload() const;

  friend bool operator==(const LayerWeightResidency&, const LayerWeightResidency&) = default;

 private:
  using Options = std::variant<std::monostate, LayerwiseLoadOptions, DenseDiskStreamLoadOptions>;
  explicit LayerWeightResidency(Options options) : options_(options) {}
  Options options_;
};

/// Seed `ParameterBankLoadOptions`: independent bank-member offload limits,
/// the hard compact-bank scratch bound and the soft prefill target (bytes).
/// Default: OffloadConfig{}, scratch UINT64_MAX, target 1 GiB.
class ParameterBankLoadOptions {
 public:
  ParameterBankLoadOptions() = default;

  /// Seed `new`, then `validate()`.
  static Result<ParameterBankLoadOptions> create(OffloadConfig members,
                                                 std::uint64_t compact_bank_scratch_bytes,
                                                 std::uint64_t prefill_compact_bank_target_bytes);

  /// Errors in order: scratch 0 -> ZeroParameterBankScratchLimit (403);
  /// target 0 -> ZeroParameterBankPrefillTarget (404); target > scratch ->
  /// ParameterBankPrefillTargetExceedsScratch (405).
  Result<void> validate() const;

  OffloadConfig offload() const { return members_; }
  std::uint64_t compact_bank_scratch_bytes() const { return compact_bank_scratch_bytes_; }
  std::uint64_t prefill_compact_bank_target_bytes() const {
    return prefill_compact_bank_target_bytes_;
  }

  friend bool operator==(const ParameterBankLoadOptions&,
                         const ParameterBankLoadOptions&) = default;

 private:
  OffloadConfig members_;
  std::uint64_t compact_bank_scratch_bytes_ = UINT64_MAX;
  std::uint64_t prefill_compact_bank_target_bytes_ = std::uint64_t{1} << 30;
};

/// Seed `OrdinaryWeightResidency`: the ordinary-unit placement beside
/// independent banks; the same three variants as LayerWeightResidency (no
/// default).
class OrdinaryWeightResidency {
 public:
  static OrdinaryWeightResidency fully_resident();
  static OrdinaryWeightResidency layerwise_host(LayerwiseLoadOptions options);
  static OrdinaryWeightResidency dense_disk_stream(DenseDiskStreamLoadOptions options);

  /// The corresponding generalized layer policy.
  LayerWeightResidency layers() const { return layers_; }

  friend bool operator==(const OrdinaryWeightResidency&, const OrdinaryWeightResidency&) = default;

 private:
  explicit OrdinaryWeightResidency(LayerWeightResidency layers) : layers_(layers) {}
  LayerWeightResidency layers_;
};

/// Seed `ParameterBankResidency`: WithLayer (default) | IndependentCache
/// (options).
class ParameterBankResidency {
 public:
  ParameterBankResidency() = default;  // WithLayer
  static ParameterBankResidency with_layer() { return {}; }
  static ParameterBankResidency independent_cache(ParameterBankLoadOptions options);

  bool is_with_layer() const { return !cache_.has_value(); }
  /// The independent cache controls, when this is IndependentCache.
  std::optional<ParameterBankLoadOptions> cache() const { return cache_; }

  friend bool operator==(const ParameterBankResidency&, const ParameterBankResidency&) = default;

 private:
  std::optional<ParameterBankLoadOptions> cache_;
};

/// Seed `WeightResidency`: Layers(LayerWeightResidency) (default fully
/// resident) | IndependentParameterBanks{ordinary, cache}. Immutable value.
class WeightResidency {
 public:
  WeightResidency() = default;  // Layers(FullyResident)
  static WeightResidency fully_resident() { return {}; }
  static WeightResidency layerwise_host(LayerwiseLoadOptions options);
  static WeightResidency dense_disk_stream(DenseDiskStreamLoadOptions options);
  static WeightResidency with_layers(LayerWeightResidency layers);
  static WeightResidency with_independent_parameter_banks(OrdinaryWeightResidency ordinary,
                                                          ParameterBankLoadOptions cache);

  /// The ordinary-unit placement (for IndependentParameterBanks:
  /// ordinary.layers()).
  LayerWeightResidency layers() const { return layers_; }
  /// WithLayer for Layers, IndependentCache(cache) otherwise.
  ParameterBankResidency parameter_banks() const;
  /// The independent bank cache controls, when selected.
  std::optional<ParameterBankLoadOptions> parameter_bank_cache() const { return cache_; }
  /// The ordinary placement paired with an independent bank cache, when
  /// selected (nullopt for Layers).
  std::optional<OrdinaryWeightResidency> ordinary_residency() const;
  /// True for Layers(FullyResident) and for IndependentParameterBanks with
  /// ordinary FullyResident.
  bool ordinary_is_fully_resident() const;
  /// True only for Layers(FullyResident).
  bool is_fully_resident() const;
  /// layers().max_cached_shards().
  std::uint64_t max_cached_shards() const { return layers_.max_cached_shards(); }

  friend bool operator==(const WeightResidency&, const WeightResidency&) = default;

 private:
  WeightResidency(LayerWeightResidency layers, std::optional<ParameterBankLoadOptions> cache)
      : layers_(layers), cache_(cache) {}

  LayerWeightResidency layers_;
  std::optional<ParameterBankLoadOptions> cache_;  // set for IndependentParameterBanks
};

}  // namespace eredu
