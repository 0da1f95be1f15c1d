// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

//! Weight-residency policies (`eredu/runtime/residency_policy.h`, seed
//! `WeightResidency` and its options; docs/residency.md, "Weight-residency
//! policies") and what they derive.

use std::ptr;

use eredu_sys as sys;

use crate::enums::c_enum;
use crate::error::Result;
use crate::ffi::{call, flag, struct_size, OutputStruct};
use crate::offload::{option, CacheEvictionPolicy, OffloadConfig};
use crate::version::ensure_compatible;

c_enum! {
    /// Ordinary-unit weight placement (seed `ExecutionResidency`).
    pub enum ExecutionResidency: sys::eredu_execution_residency {
        /// Every unit stays on the execution device.
        FullyResident = EREDU_EXECUTION_RESIDENCY_FULLY_RESIDENT,
        /// Units on host behind a bounded device window.
        LayerwiseHost = EREDU_EXECUTION_RESIDENCY_LAYERWISE_HOST,
        /// Units cold on disk behind finite host and device caches.
        DenseDiskStream = EREDU_EXECUTION_RESIDENCY_DENSE_DISK_STREAM,
    }
}

c_enum! {
    /// The residency a model preparation asks for (core `ResidencyRequest`).
    pub enum ResidencyRequest: sys::eredu_residency_request {
        /// Fully resident.
        FullyResident = EREDU_RESIDENCY_REQUEST_FULLY_RESIDENT,
        /// Layerwise host.
        LayerwiseHost = EREDU_RESIDENCY_REQUEST_LAYERWISE_HOST,
        /// Dense disk stream.
        DenseDiskStream = EREDU_RESIDENCY_REQUEST_DENSE_DISK_STREAM,
        /// An independent parameter-bank cache.
        AddressableParameterBanks = EREDU_RESIDENCY_REQUEST_ADDRESSABLE_PARAMETER_BANKS,
    }
}

/// Loader controls of a host-backed layerwise engine (seed
/// `LayerwiseLoadOptions`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct LayerwiseLoadOptions {
    /// Residency budgets and the device window (prefetch depth).
    pub offload: OffloadConfig,
    /// Checkpoint shards/readers kept open.
    pub max_cached_shards: u64,
    /// Sample backend allocator memory after a forward pass.
    pub sample_backend_memory: bool,
    /// Sample process memory after a forward pass.
    pub sample_process_memory: bool,
}

impl Default for LayerwiseLoadOptions {
    /// The seed's default: default offload, 4 cached shards, no sampling.
    fn default() -> Self {
        Self {
            offload: OffloadConfig::default(),
            max_cached_shards: sys::EREDU_DEFAULT_MAX_CACHED_SHARDS as u64,
            sample_backend_memory: false,
            sample_process_memory: false,
        }
    }
}

/// Controls of bounded dense-unit streaming from storage (seed
/// `DenseDiskStreamLoadOptions`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DenseDiskStreamLoadOptions {
    /// Finite device parameter budget in bytes, pinned weights included.
    pub device_budget_bytes: u64,
    /// Finite charged host budget in bytes; 0 loads disk-to-device directly.
    pub host_budget_bytes: u64,
    /// Unit host copies protected from eviction.
    pub host_lookahead: u64,
    /// Pending background host materializations.
    pub background_queue_capacity: u64,
    /// Eviction order of unprotected cached copies.
    pub eviction_policy: CacheEvictionPolicy,
    /// Checkpoint shards/readers kept open.
    pub max_cached_shards: u64,
    /// Sample backend allocator memory after a forward pass.
    pub sample_backend_memory: bool,
    /// Sample process memory and page faults after a forward pass.
    pub sample_process_memory: bool,
}

impl Default for DenseDiskStreamLoadOptions {
    /// The seed's default: 4 GiB device, 16 GiB host, lookahead 2, queue 2,
    /// LRU, 4 cached shards, no sampling.
    fn default() -> Self {
        Self {
            device_budget_bytes: 4 << 30,
            host_budget_bytes: 16 << 30,
            host_lookahead: 2,
            background_queue_capacity: 2,
            eviction_policy: CacheEvictionPolicy::LeastRecentlyUsed,
            max_cached_shards: sys::EREDU_DEFAULT_MAX_CACHED_SHARDS as u64,
            sample_backend_memory: false,
            sample_process_memory: false,
        }
    }
}

/// Independently addressable parameter-bank cache controls (seed
/// `ParameterBankLoadOptions`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ParameterBankLoadOptions {
    /// Bank-member budgets, prefetch depth and eviction.
    pub members: OffloadConfig,
    /// Hard bound in bytes of one temporary compact bank, at least 1.
    pub compact_bank_scratch_bytes: u64,
    /// Soft compact-bank target in bytes, at least 1 and at most the scratch.
    pub prefill_compact_bank_target_bytes: u64,
}

impl Default for ParameterBankLoadOptions {
    /// The seed's default: default offload, unbounded scratch, 1 GiB target.
    fn default() -> Self {
        Self {
            members: OffloadConfig::default(),
            compact_bank_scratch_bytes: u64::MAX,
            prefill_compact_bank_target_bytes: 1 << 30,
        }
    }
}

/// The ordinary-unit placement (seed `LayerWeightResidency`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum LayerWeightResidency {
    /// Every rank-local unit is built once and stays on the device.
    #[default]
    FullyResident,
    /// Units are materialized on host behind a bounded device window.
    LayerwiseHost(LayerwiseLoadOptions),
    /// Units stay cold on disk behind finite host and device caches.
    DenseDiskStream(DenseDiskStreamLoadOptions),
}

/// A complete immutable-weight residency (seed `WeightResidency`): the
/// ordinary layers plus an optional independent parameter-bank cache.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct WeightResidency {
    /// The ordinary-unit placement.
    pub layers: LayerWeightResidency,
    /// An independent bank cache (seed `IndependentParameterBanks`), or
    /// `None` to keep bank members with their layer.
    pub parameter_bank_cache: Option<ParameterBankLoadOptions>,
}

/// Everything a valid [`WeightResidency`] derives for a unit count (the
/// `eredu_residency_summary` of `eredu_residency_validate`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct WeightResidencySummary {
    /// The ordinary layers' placement.
    pub execution_residency: ExecutionResidency,
    /// The derived offload configuration (seed `LayerWeightResidency::offload`).
    pub offload: OffloadConfig,
    /// The device unit window (seed `LayerWeightResidency::device_depth`).
    pub device_depth: u64,
    /// The checkpoint shard/reader cache bound.
    pub max_cached_shards: u64,
    /// The residency a preparation asks for.
    pub preparation_residency: ResidencyRequest,
    /// Fully resident layers without a bank cache.
    pub is_fully_resident: bool,
    /// Fully resident ordinary layers, with or without a bank cache.
    pub ordinary_is_fully_resident: bool,
    /// Backend allocator sampling.
    pub sample_backend_memory: bool,
    /// Process memory sampling.
    pub sample_process_memory: bool,
    /// Dense streaming: the protected host lookahead (0 otherwise).
    pub dense_host_lookahead: u64,
    /// Dense streaming: the background queue capacity (0 otherwise).
    pub dense_background_queue_capacity: u64,
    /// The independent bank cache, when there is one.
    pub parameter_bank_cache: Option<ParameterBankLoadOptions>,
}

impl WeightResidency {
    /// Fully resident, no bank cache (the default).
    pub const fn fully_resident() -> Self {
        Self::with_layers(LayerWeightResidency::FullyResident)
    }

    /// Layerwise host.
    pub const fn layerwise_host(options: LayerwiseLoadOptions) -> Self {
        Self::with_layers(LayerWeightResidency::LayerwiseHost(options))
    }

    /// Dense disk streaming.
    pub const fn dense_disk_stream(options: DenseDiskStreamLoadOptions) -> Self {
        Self::with_layers(LayerWeightResidency::DenseDiskStream(options))
    }

    /// The given layers without a bank cache.
    pub const fn with_layers(layers: LayerWeightResidency) -> Self {
        Self {
            layers,
            parameter_bank_cache: None,
        }
    }

    /// Ordinary layers beside an independent parameter-bank cache.
    pub const fn with_independent_parameter_banks(
        ordinary: LayerWeightResidency,
        cache: ParameterBankLoadOptions,
    ) -> Self {
        Self {
            layers: ordinary,
            parameter_bank_cache: Some(cache),
        }
    }

    /// Calls `f` with the C description (and the structs it points to).
    pub(crate) fn with_raw<T>(&self, f: impl FnOnce(&sys::eredu_weight_residency_desc) -> T) -> T {
        let (layers, layerwise_offload, layerwise, dense) = match self.layers {
            LayerWeightResidency::FullyResident => {
                (ExecutionResidency::FullyResident, None, None, None)
            }
            LayerWeightResidency::LayerwiseHost(options) => (
                ExecutionResidency::LayerwiseHost,
                Some(options.offload.to_raw()),
                Some(options),
                None,
            ),
            LayerWeightResidency::DenseDiskStream(options) => (
                ExecutionResidency::DenseDiskStream,
                None,
                None,
                Some(options),
            ),
        };
        let layerwise = layerwise.map(|options| sys::eredu_layerwise_options {
            struct_size: struct_size::<sys::eredu_layerwise_options>(),
            offload: layerwise_offload
                .as_ref()
                .map_or(ptr::null(), |config| config as *const _),
            max_cached_shards: options.max_cached_shards,
            sample_backend_memory: flag(options.sample_backend_memory),
            sample_process_memory: flag(options.sample_process_memory),
        });
        let dense = dense.map(|options| sys::eredu_dense_stream_options {
            struct_size: struct_size::<sys::eredu_dense_stream_options>(),
            device_budget_bytes: options.device_budget_bytes,
            host_budget_bytes: options.host_budget_bytes,
            host_lookahead: options.host_lookahead,
            background_queue_capacity: options.background_queue_capacity,
            eviction_policy: options.eviction_policy.to_raw(),
            max_cached_shards: options.max_cached_shards,
            sample_backend_memory: flag(options.sample_backend_memory),
            sample_process_memory: flag(options.sample_process_memory),
        });
        let bank_offload = self
            .parameter_bank_cache
            .map(|cache| cache.members.to_raw());
        let bank = self
            .parameter_bank_cache
            .map(|cache| sys::eredu_parameter_bank_options {
                struct_size: struct_size::<sys::eredu_parameter_bank_options>(),
                members: bank_offload
                    .as_ref()
                    .map_or(ptr::null(), |config| config as *const _),
                compact_bank_scratch_bytes: cache.compact_bank_scratch_bytes,
                prefill_compact_bank_target_bytes: cache.prefill_compact_bank_target_bytes,
            });
        let desc = sys::eredu_weight_residency_desc {
            struct_size: struct_size::<sys::eredu_weight_residency_desc>(),
            layers: layers.to_raw(),
            layerwise: layerwise
                .as_ref()
                .map_or(ptr::null(), |options| options as *const _),
            dense: dense
                .as_ref()
                .map_or(ptr::null(), |options| options as *const _),
            parameter_bank_cache: bank
                .as_ref()
                .map_or(ptr::null(), |options| options as *const _),
        };
        f(&desc)
    }

    /// Validates the residency and reports what it derives for `unit_count`
    /// ordinary execution units (`eredu_residency_validate`).
    ///
    /// # Errors
    /// In the seed's order: `ZeroPrefetchDepth`, `HostDisabledControls`,
    /// `ZeroHostLookahead`, `ZeroQueueCapacity`, the bank options'
    /// `ZeroParameterBankScratchLimit`, `ZeroParameterBankPrefillTarget`,
    /// `ParameterBankPrefillTargetExceedsScratch`; `InvalidArgument`.
    pub fn validate(&self, unit_count: u64) -> Result<WeightResidencySummary> {
        ensure_compatible()?;
        let mut out = sys::eredu_residency_summary::empty();
        self.with_raw(|desc| {
            call(|error| {
                // SAFETY: the description and its options live for the call;
                // `out` has its struct_size.
                unsafe { sys::eredu_residency_validate(desc, unit_count, &mut out, error) }
            })
        })?;
        Ok(WeightResidencySummary::from_raw(&out))
    }
}

impl WeightResidencySummary {
    pub(crate) fn from_raw(raw: &sys::eredu_residency_summary) -> Self {
        let bank = (raw.has_parameter_bank_cache != 0).then(|| ParameterBankLoadOptions {
            members: OffloadConfig {
                device_budget_bytes: option(
                    raw.parameter_bank_has_device_budget,
                    raw.parameter_bank_device_budget_bytes,
                ),
                host_budget_bytes: option(
                    raw.parameter_bank_has_host_budget,
                    raw.parameter_bank_host_budget_bytes,
                ),
                prefetch_depth: raw.parameter_bank_prefetch_depth,
                eviction_policy: CacheEvictionPolicy::from_raw(raw.parameter_bank_eviction_policy),
            },
            compact_bank_scratch_bytes: raw.parameter_bank_compact_scratch_bytes,
            prefill_compact_bank_target_bytes: raw.parameter_bank_prefill_target_bytes,
        });
        Self {
            execution_residency: ExecutionResidency::from_raw(raw.execution_residency),
            offload: OffloadConfig {
                device_budget_bytes: option(
                    raw.offload_has_device_budget,
                    raw.offload_device_budget_bytes,
                ),
                host_budget_bytes: option(
                    raw.offload_has_host_budget,
                    raw.offload_host_budget_bytes,
                ),
                prefetch_depth: raw.offload_prefetch_depth,
                eviction_policy: CacheEvictionPolicy::from_raw(raw.offload_eviction_policy),
            },
            device_depth: raw.device_depth,
            max_cached_shards: raw.max_cached_shards,
            preparation_residency: ResidencyRequest::from_raw(raw.preparation_residency),
            is_fully_resident: raw.is_fully_resident != 0,
            ordinary_is_fully_resident: raw.ordinary_is_fully_resident != 0,
            sample_backend_memory: raw.sample_backend_memory != 0,
            sample_process_memory: raw.sample_process_memory != 0,
            dense_host_lookahead: raw.dense_host_lookahead,
            dense_background_queue_capacity: raw.dense_background_queue_capacity,
            parameter_bank_cache: bank,
        }
    }
}
