// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

/*
 * eredu/runtime/residency_policy.h: the immutable-weight residency policies
 * (WeightResidency, LayerWeightResidency, OrdinaryWeightResidency,
 * LayerwiseLoadOptions, DenseDiskStreamLoadOptions, ParameterBankLoadOptions;
 * docs/residency.md, "Weight-residency policies") as one plain description,
 * and eredu_residency_validate, which checks a description and reports what
 * it derives.
 *
 * A description names the ordinary-unit placement (fully resident, layerwise
 * host, dense disk stream) with its options, plus an optional independent
 * parameter-bank cache (e.g. MoE experts). The same description is given to
 * eredu_load_request_set_weight_residency (eredu/runtime/request.h).
 *
 * Units: budgets, scratch and targets are bytes; lookahead, queue capacity,
 * prefetch depth and device depth count execution units.
 *
 * Thread-safety: every function here is pure and thread-safe. Descriptor
 * structs are sized caller memory (docs/abi.md), only read during the call;
 * a description points to its options, it never embeds them.
 */
#ifndef EREDU_RESIDENCY_POLICY_H
#define EREDU_RESIDENCY_POLICY_H

#include <eredu/runtime/residency.h>
#include <eredu/types.h>

/* ---- eredu_execution_residency: LayerWeightResidency variants /
 *      ExecutionResidency ---------------------------------------------- */

/** Every rank-local unit is built once and stays on the execution device. */
#define EREDU_EXECUTION_RESIDENCY_FULLY_RESIDENT 0
/** Units are materialized on host behind a bounded device window. */
#define EREDU_EXECUTION_RESIDENCY_LAYERWISE_HOST 1
/** Units stay cold on disk behind finite host and device caches. */
#define EREDU_EXECUTION_RESIDENCY_DENSE_DISK_STREAM 2

/* ---- eredu_residency_request: core ResidencyRequest ------------------- */

#define EREDU_RESIDENCY_REQUEST_FULLY_RESIDENT 0
#define EREDU_RESIDENCY_REQUEST_LAYERWISE_HOST 1
#define EREDU_RESIDENCY_REQUEST_DENSE_DISK_STREAM 2
/** The weight residency has an independent parameter-bank cache. */
#define EREDU_RESIDENCY_REQUEST_ADDRESSABLE_PARAMETER_BANKS 3

/**
 * LayerwiseLoadOptions: host-offloaded layers. A sized struct (docs/abi.md):
 * initialize with EREDU_LAYERWISE_OPTIONS_INIT or
 * eredu_layerwise_options_init: offload NULL (the defaults of
 * EREDU_OFFLOAD_CONFIG_INIT: unbounded, prefetch depth 1, LRU),
 * max_cached_shards EREDU_DEFAULT_MAX_CACHED_SHARDS (4), no memory sampling.
 */
struct eredu_layerwise_options {
  /** The caller's sizeof(eredu_layerwise_options). */
  uint32_t struct_size;
  /** Tier budgets (bytes) and the device window (prefetch_depth units, at
   * least 1), or NULL for the defaults. A sized struct, borrowed during the
   * call. */
  const eredu_offload_config *offload;
  /** Checkpoint shards/readers kept open. Default 4. 0 is accepted here and
   * makes eredu_load_request_validate_model_preparation fail with
   * EREDU_E_ZERO_CACHED_SHARDS when the request sets no bound of its own. */
  uint64_t max_cached_shards;
  /** 1 to sample backend allocator memory after a forward pass, else 0. */
  uint8_t sample_backend_memory;
  /** 1 to sample process memory after a forward pass, else 0. */
  uint8_t sample_process_memory;
};

/** Default offload config, 4 cached shards, no sampling. */
#define EREDU_LAYERWISE_OPTIONS_INIT \
  { (uint32_t)sizeof(eredu_layerwise_options), NULL, EREDU_DEFAULT_MAX_CACHED_SHARDS, 0, 0 }

/**
 * DenseDiskStreamLoadOptions: layers streamed from disk. A sized struct
 * (docs/abi.md): initialize with EREDU_DENSE_STREAM_OPTIONS_INIT or
 * eredu_dense_stream_options_init, whose defaults are LRU eviction, device
 * budget 4294967296 bytes (4 GiB), host budget 17179869184 bytes (16 GiB),
 * host lookahead 2, background queue capacity 2, max_cached_shards 4, no
 * memory sampling.
 */
struct eredu_dense_stream_options {
  /** The caller's sizeof(eredu_dense_stream_options). */
  uint32_t struct_size;
  /** An EREDU_EVICTION_* value. Default LEAST_RECENTLY_USED. */
  eredu_eviction_policy eviction_policy;
  /** Finite device parameter budget in bytes, pinned static weights
   * included. */
  uint64_t device_budget_bytes;
  /** Finite charged host budget in bytes; 0 selects direct disk-to-device
   * loading, which needs host_lookahead and background_queue_capacity 0. */
  uint64_t host_budget_bytes;
  /** Current and imminent unit host copies protected from eviction (units);
   * at least 1 when the host budget is nonzero. */
  uint64_t host_lookahead;
  /** Pending background host materializations (units); at least 1 when the
   * host budget is nonzero. */
  uint64_t background_queue_capacity;
  /** Checkpoint shards/readers kept open (see eredu_layerwise_options). */
  uint64_t max_cached_shards;
  /** 1 to sample backend allocator memory after a forward pass, else 0. */
  uint8_t sample_backend_memory;
  /** 1 to sample process memory and page faults after a forward pass. */
  uint8_t sample_process_memory;
};

/** The default dense disk stream options: LRU eviction, device budget 4 GiB,
 * host budget 16 GiB, host lookahead 2, queue capacity 2, 4 cached shards,
 * no memory sampling. */
#define EREDU_DENSE_STREAM_OPTIONS_INIT                                                          \
  {                                                                                              \
    (uint32_t)sizeof(eredu_dense_stream_options), EREDU_EVICTION_LEAST_RECENTLY_USED,            \
        UINT64_C(4294967296), UINT64_C(17179869184), 2, 2, EREDU_DEFAULT_MAX_CACHED_SHARDS, 0, 0 \
  }

/**
 * ParameterBankLoadOptions: an independent cache for parameter-bank members.
 * A sized struct (docs/abi.md): initialize with
 * EREDU_PARAMETER_BANK_OPTIONS_INIT or eredu_parameter_bank_options_init:
 * members NULL (the offload defaults), compact_bank_scratch_bytes
 * UINT64_MAX, prefill target 1073741824 (1 GiB).
 */
struct eredu_parameter_bank_options {
  /** The caller's sizeof(eredu_parameter_bank_options). */
  uint32_t struct_size;
  /** Independent bank-member budgets (bytes), prefetch depth (units) and
   * eviction, or NULL for the defaults. A sized struct, borrowed during the
   * call. */
  const eredu_offload_config *members;
  /** Hard bound in bytes of one temporary compact bank; at least 1. */
  uint64_t compact_bank_scratch_bytes;
  /** Soft compact-bank target in bytes splitting multi-token prefill; at
   * least 1 and at most compact_bank_scratch_bytes. */
  uint64_t prefill_compact_bank_target_bytes;
};

/** Default member offload config, unbounded scratch, a 1 GiB target. */
#define EREDU_PARAMETER_BANK_OPTIONS_INIT \
  { (uint32_t)sizeof(eredu_parameter_bank_options), NULL, UINT64_MAX, UINT64_C(1073741824) }

/**
 * A complete weight residency (WeightResidency): Layers(layers) when
 * parameter_bank_cache is NULL, else IndependentParameterBanks{ordinary =
 * layers, cache}. A sized struct (docs/abi.md): initialize with
 * EREDU_WEIGHT_RESIDENCY_DESC_INIT or eredu_weight_residency_desc_init
 * (fully resident, no options, no bank cache).
 */
struct eredu_weight_residency_desc {
  /** The caller's sizeof(eredu_weight_residency_desc). */
  uint32_t struct_size;
  /** The ordinary-unit placement: an EREDU_EXECUTION_RESIDENCY_* value.
   * Default FULLY_RESIDENT. */
  eredu_execution_residency layers;
  /** LAYERWISE_HOST: its options, or NULL for the defaults of
   * EREDU_LAYERWISE_OPTIONS_INIT. Must be NULL for the other placements. */
  const eredu_layerwise_options *layerwise;
  /** DENSE_DISK_STREAM: its options, or NULL for the defaults of
   * EREDU_DENSE_STREAM_OPTIONS_INIT. Must be NULL for the other
   * placements. */
  const eredu_dense_stream_options *dense;
  /** An independent parameter-bank cache, or NULL to keep bank members in
   * their ordinary unit's allocation. */
  const eredu_parameter_bank_options *parameter_bank_cache;
};

/** Fully resident, no options, no bank cache (the default WeightResidency). */
#define EREDU_WEIGHT_RESIDENCY_DESC_INIT                                                           \
  {                                                                                                \
    (uint32_t)sizeof(eredu_weight_residency_desc), EREDU_EXECUTION_RESIDENCY_FULLY_RESIDENT, NULL, \
        NULL, NULL                                                                                 \
  }

/**
 * What a valid weight residency derives, and every option it holds: the
 * summary is a complete echo of a WeightResidency (docs/residency.md,
 * "Weight-residency policies"). An output struct (docs/abi.md): set
 * struct_size (EREDU_RESIDENCY_SUMMARY_INIT or eredu_residency_summary_init)
 * and eredu_residency_validate or eredu_load_request_weight_residency fills
 * the fields it covers.
 */
struct eredu_residency_summary {
  /** The caller's sizeof(eredu_residency_summary). */
  uint32_t struct_size;
  /** The ordinary layers' EREDU_EXECUTION_RESIDENCY_* value. */
  eredu_execution_residency execution_residency;
  /** The EREDU_RESIDENCY_REQUEST_* value a preparation asks for:
   * ADDRESSABLE_PARAMETER_BANKS with a bank cache, else the layers'. */
  eredu_residency_request preparation_residency;
  /** The derived offload configuration's eviction: an EREDU_EVICTION_*
   * value (see offload_prefetch_depth). */
  eredu_eviction_policy offload_eviction_policy;
  /** Bank-member eviction: an EREDU_EVICTION_* value. */
  eredu_eviction_policy parameter_bank_eviction_policy;
  /** 1 when the derived offload configuration has a device budget. */
  uint8_t offload_has_device_budget;
  /** 1 when the derived offload configuration has a host budget. */
  uint8_t offload_has_host_budget;
  /** 1 only for fully resident layers without a bank cache. */
  uint8_t is_fully_resident;
  /** 1 when the ordinary layers are fully resident, with or without a bank
   * cache. */
  uint8_t ordinary_is_fully_resident;
  /** 1 when backend allocator memory is sampled after a forward pass (the
   * layerwise or dense options' flag, 0 when fully resident). */
  uint8_t sample_backend_memory;
  /** 1 when process memory is sampled after a forward pass (the layerwise
   * or dense options' flag, 0 when fully resident). */
  uint8_t sample_process_memory;
  /** 1 when bank members have an independent cache
   * (WeightResidency::IndependentParameterBanks): parameter_banks() is then
   * IndependentCache(cache) and parameter_bank_cache() the cache, echoed in
   * the parameter_bank_* fields, and ordinary_residency() is present:
   * execution_residency with its options. 0: parameter_banks() is
   * WithLayer, the other two are absent and the parameter_bank_* fields
   * are 0. */
  uint8_t has_parameter_bank_cache;
  /** 1 when the bank members' offload config has a device budget. */
  uint8_t parameter_bank_has_device_budget;
  /** 1 when the bank members' config has a host budget. */
  uint8_t parameter_bank_has_host_budget;
  /** The derived offload configuration:
   * fully resident -> no budgets, depth 1, LRU; layerwise host -> its
   * offload config; dense stream -> device and host budgets, depth
   * max(host_lookahead, EREDU_DENSE_TRANSFER_WINDOW), its eviction. Device
   * budget in bytes (0 when offload_has_device_budget is 0). */
  uint64_t offload_device_budget_bytes;
  /** Host budget in bytes (0 when offload_has_host_budget is 0). */
  uint64_t offload_host_budget_bytes;
  /** Prefetch depth in units. */
  uint64_t offload_prefetch_depth;
  /** The device unit window for the given unit count: fully resident ->
   * unit_count; layerwise host -> its prefetch depth (may exceed
   * unit_count); dense stream -> min(unit_count,
   * EREDU_DENSE_TRANSFER_WINDOW). */
  uint64_t device_depth;
  /** The checkpoint shard/reader cache bound:
   * 4 when fully resident, else the options' value. */
  uint64_t max_cached_shards;
  /** DENSE_DISK_STREAM: the options' protected host lookahead in units; 0
   * for the other placements. */
  uint64_t dense_host_lookahead;
  /** DENSE_DISK_STREAM: the options' background queue capacity in units;
   * 0 for the other placements. */
  uint64_t dense_background_queue_capacity;
  /** Bank-member device budget in bytes (0 when unbounded). */
  uint64_t parameter_bank_device_budget_bytes;
  /** Bank-member host budget in bytes (0 when unbounded). */
  uint64_t parameter_bank_host_budget_bytes;
  /** Bank-member prefetch depth in units. */
  uint64_t parameter_bank_prefetch_depth;
  /** Hard bound in bytes of one compact bank. */
  uint64_t parameter_bank_compact_scratch_bytes;
  /** Soft prefill compact-bank target in bytes. */
  uint64_t parameter_bank_prefill_target_bytes;
};

#define EREDU_RESIDENCY_SUMMARY_INIT                                                              \
  {                                                                                               \
    (uint32_t)sizeof(eredu_residency_summary), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, \
        0, 0, 0, 0, 0, 0, 0, 0                                                                    \
  }

EREDU_BEGIN_DECLS

/**
 * Initializes the first `size` bytes of `options` (pass sizeof *options):
 * zeroes, the defaults of EREDU_LAYERWISE_OPTIONS_INIT for the fields they
 * hold, struct_size = size.
 *
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (options);
 *         EREDU_E_INVALID_ARGUMENT (size below 4 or above 4096, or ending
 *         inside a field).
 * Thread-safe.
 */
EREDU_API eredu_status eredu_layerwise_options_init(eredu_layerwise_options *options, size_t size,
                                                    eredu_error **error);

/** As eredu_layerwise_options_init, for eredu_dense_stream_options
 * (EREDU_DENSE_STREAM_OPTIONS_INIT). */
EREDU_API eredu_status eredu_dense_stream_options_init(eredu_dense_stream_options *options,
                                                       size_t size, eredu_error **error);

/** As eredu_layerwise_options_init, for eredu_parameter_bank_options
 * (EREDU_PARAMETER_BANK_OPTIONS_INIT). */
EREDU_API eredu_status eredu_parameter_bank_options_init(eredu_parameter_bank_options *options,
                                                         size_t size, eredu_error **error);

/** As eredu_layerwise_options_init, for eredu_weight_residency_desc (fully
 * resident, NULL options). */
EREDU_API eredu_status eredu_weight_residency_desc_init(eredu_weight_residency_desc *desc,
                                                        size_t size, eredu_error **error);

/** As eredu_layerwise_options_init, for eredu_residency_summary (zeroes). */
EREDU_API eredu_status eredu_residency_summary_init(eredu_residency_summary *summary, size_t size,
                                                    eredu_error **error);

/**
 * Validates a complete weight residency and, on success, reports what it
 * derives for `unit_count` ordinary execution units.
 *
 * Order of checks: argument checks first, for the description, then its
 * layerwise, dense and bank options (each with its offload config), then
 * `out` (NULL pointers, struct_size, flags, enum values, options given for
 * a placement that takes none); then the rules of each part, in this order:
 * the layerwise offload config (OffloadConfig::new), the dense options
 * (DenseDiskStreamLoadOptions::new: host disabled controls, then zero
 * lookahead, then zero queue capacity), the bank members' offload config,
 * the bank options (ParameterBankLoadOptions::new: zero scratch, zero
 * prefill target, target above scratch); then the derived offload
 * configuration.
 *
 * @param desc       the description; read only during the call. A field
 *                   past the struct_size of a struct takes its default.
 * @param unit_count ordinary execution units, for out->device_depth.
 * @param out        an output struct with struct_size set, or NULL to only
 *                   validate; filled up to its struct_size on success, its
 *                   covered fields zeroed on failure.
 * @param error      optional error slot.
 * @return EREDU_OK;
 *   EREDU_E_NULL_ARGUMENT (desc);
 *   EREDU_E_INVALID_ARGUMENT (a struct_size (docs/abi.md) of desc, its
 *   options, an offload config or out; a sample_* flag other than 0/1 or an
 *   offload config has_* flag other than 0/1; an unknown execution
 *   residency or eviction policy; layerwise or dense options given for a
 *   placement that does not take them);
 *   EREDU_E_ZERO_PREFETCH_DEPTH (a layerwise or bank-member offload config
 *   with prefetch_depth 0);
 *   EREDU_E_HOST_DISABLED_CONTROLS (dense host budget 0 with a nonzero
 *   lookahead or queue capacity);
 *   EREDU_E_ZERO_HOST_LOOKAHEAD, EREDU_E_ZERO_QUEUE_CAPACITY (dense host
 *   budget nonzero with that control 0);
 *   EREDU_E_ZERO_PARAMETER_BANK_SCRATCH_LIMIT,
 *   EREDU_E_ZERO_PARAMETER_BANK_PREFILL_TARGET,
 *   EREDU_E_PARAMETER_BANK_PREFILL_TARGET_EXCEEDS_SCRATCH (the bank
 *   options).
 *   Nothing is allocated on success (EREDU_E_OUT_OF_MEMORY only as
 *   eredu.h describes, when an error object cannot be allocated).
 * Thread-safe.
 */
EREDU_API eredu_status eredu_residency_validate(const eredu_weight_residency_desc *desc,
                                                uint64_t unit_count, eredu_residency_summary *out,
                                                eredu_error **error);

/**
 * Reads an eredu.residency.v1 policy document (docs/residency.md, "Policies
 * as JSON"), validates it whole and, on success, reports what it derives for
 * `unit_count` ordinary execution units, as eredu_residency_validate does for
 * a description. What `eredu residency --policy` prints.
 *
 * @param text       the document, UTF-8, `length` bytes (no terminator
 *                   needed; a NUL byte is EREDU_E_PARSE). May be NULL when
 *                   length is 0 (then EREDU_E_PARSE: an empty document).
 * @param length     size of `text` in bytes, at most 4294967295; more is
 *                   EREDU_E_INVALID_ARGUMENT, checked before the document is
 *                   read.
 * @param unit_count ordinary execution units, for out->device_depth.
 * @param out        an output struct with struct_size set, or NULL to only
 *                   validate; filled up to its struct_size on success, its
 *                   covered fields zeroed on failure.
 * @param error      optional error slot.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (NULL text with a nonzero
 *   length); EREDU_E_INVALID_ARGUMENT (length above 4294967295, a
 *   struct_size of out); then the document's errors in the order of
 *   docs/residency.md: EREDU_E_PARSE (syntax, UTF-8, a byte-order mark,
 *   unknown or repeated keys, wrong types, unknown words, options the kind
 *   has no such option for), EREDU_E_UNSUPPORTED_VERSION (a schema other
 *   than eredu.residency.v1), EREDU_E_ZERO_PREFETCH_DEPTH,
 *   EREDU_E_HOST_DISABLED_CONTROLS, EREDU_E_ZERO_HOST_LOOKAHEAD,
 *   EREDU_E_ZERO_QUEUE_CAPACITY, EREDU_E_ZERO_PARAMETER_BANK_SCRATCH_LIMIT,
 *   EREDU_E_ZERO_PARAMETER_BANK_PREFILL_TARGET,
 *   EREDU_E_PARAMETER_BANK_PREFILL_TARGET_EXCEEDS_SCRATCH;
 *   EREDU_E_OUT_OF_MEMORY.
 * Thread-safe. Nothing is kept: the document is read during the call.
 */
EREDU_API eredu_status eredu_residency_from_json(const char *text, size_t length,
                                                 uint64_t unit_count, eredu_residency_summary *out,
                                                 eredu_error **error);

EREDU_END_DECLS

#endif /* EREDU_RESIDENCY_POLICY_H */
