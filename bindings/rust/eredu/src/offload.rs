// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

//! The offload core (`eredu/runtime/residency.h`; docs/residency.md, "Offload
//! plans"): memory tiers, unit policies, `OffloadConfig` and the validated
//! `OffloadPlan`.

use std::ffi::c_char;
use std::ptr::{self, NonNull};

use eredu_sys as sys;

use crate::enums::c_enum;
use crate::error::Result;
use crate::error::{Error, ErrorCode};
use crate::ffi::{borrowed_str, c_string, call, flag, struct_size, OutputStruct};
use crate::version::ensure_compatible;

c_enum! {
    /// Memory tier of an offload unit (ordered Device < Host < Disk).
    pub enum MemoryTier: sys::eredu_memory_tier {
        /// The execution device.
        Device = EREDU_MEMORY_TIER_DEVICE,
        /// Host memory.
        Host = EREDU_MEMORY_TIER_HOST,
        /// Checkpoint storage.
        Disk = EREDU_MEMORY_TIER_DISK,
    }
}

c_enum! {
    /// Lifetime policy of an offload unit (seed `ResidencyPolicy`).
    pub enum ResidencyPolicy: sys::eredu_residency_policy {
        /// Resident for the whole lifetime; never on disk.
        Pinned = EREDU_RESIDENCY_POLICY_PINNED,
        /// Resident only within a bounded execution window.
        Windowed = EREDU_RESIDENCY_POLICY_WINDOWED,
        /// Retained or evicted as the cache policy permits.
        Cacheable = EREDU_RESIDENCY_POLICY_CACHEABLE,
    }
}

c_enum! {
    /// Cache eviction order (seed `CacheEvictionPolicy`).
    pub enum CacheEvictionPolicy: sys::eredu_eviction_policy {
        /// Evict the least recently used copy first (the default).
        LeastRecentlyUsed = EREDU_EVICTION_LEAST_RECENTLY_USED,
        /// Evict the least frequently used copy first.
        LeastFrequentlyUsed = EREDU_EVICTION_LEAST_FREQUENTLY_USED,
    }
}

/// An optional C value: `value` when `has` is 1.
pub(crate) const fn option(has: u8, value: u64) -> Option<u64> {
    if has != 0 {
        Some(value)
    } else {
        None
    }
}

/// Tier budgets in bytes, prefetch depth in units and eviction (seed
/// `OffloadConfig`); checked when used (`ZeroPrefetchDepth`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct OffloadConfig {
    /// Device budget in bytes; `None` is unbounded, 0 forbids the device.
    pub device_budget_bytes: Option<u64>,
    /// Host budget in bytes; `None` is unbounded.
    pub host_budget_bytes: Option<u64>,
    /// Units the executor may prefetch ahead, at least 1.
    pub prefetch_depth: u64,
    /// The eviction order.
    pub eviction_policy: CacheEvictionPolicy,
}

impl Default for OffloadConfig {
    /// The seed's default: unbounded, prefetch depth 1, LRU.
    fn default() -> Self {
        Self {
            device_budget_bytes: None,
            host_budget_bytes: None,
            prefetch_depth: 1,
            eviction_policy: CacheEvictionPolicy::LeastRecentlyUsed,
        }
    }
}

impl OffloadConfig {
    pub(crate) fn to_raw(self) -> sys::eredu_offload_config {
        sys::eredu_offload_config {
            struct_size: struct_size::<sys::eredu_offload_config>(),
            eviction_policy: self.eviction_policy.to_raw(),
            device_budget_bytes: self.device_budget_bytes.unwrap_or(0),
            host_budget_bytes: self.host_budget_bytes.unwrap_or(0),
            prefetch_depth: self.prefetch_depth,
            has_device_budget: flag(self.device_budget_bytes.is_some()),
            has_host_budget: flag(self.host_budget_bytes.is_some()),
        }
    }
}

/// One atomic residency unit (seed `OffloadUnitSpec`); checked when a plan
/// is built.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct OffloadUnitSpec {
    /// Unit identifier, non-blank.
    pub id: String,
    /// Unit size in bytes, at least 1.
    pub bytes: u64,
    /// Lifetime policy.
    pub policy: ResidencyPolicy,
    /// Assigned tier.
    pub tier: MemoryTier,
}

impl OffloadUnitSpec {
    /// A unit of `bytes` bytes.
    pub fn new(
        id: impl Into<String>,
        bytes: u64,
        policy: ResidencyPolicy,
        tier: MemoryTier,
    ) -> Self {
        Self {
            id: id.into(),
            bytes,
            policy,
            tier,
        }
    }
}

/// A validated offload plan (`eredu_offload_plan`, seed `OffloadPlan`):
/// units sorted by id, per-tier totals within the budgets. Freed on drop.
/// Its configuration, planned bytes and unit count
/// (`eredu_offload_plan_get_info`) are read once, when it is built.
pub struct OffloadPlan {
    raw: NonNull<sys::eredu_offload_plan>,
    info: sys::eredu_offload_plan_info,
}

// SAFETY: an offload plan is immutable once built; any number of threads may
// read it at once and it may move between threads (eredu/runtime/residency.h). The
// cached info holds integers only.
unsafe impl Send for OffloadPlan {}
// SAFETY: as above: every call through &self only reads the plan.
unsafe impl Sync for OffloadPlan {}

impl OffloadPlan {
    /// Builds and validates a plan (seed `OffloadPlan::new`).
    ///
    /// # Errors
    /// In the order of docs/residency.md, "Offload plans":
    /// `ZeroPrefetchDepth`; per unit in input order `EmptyUnitId`,
    /// `ZeroSizedUnit`, `ContradictoryAssignment`; then `DuplicateUnitId`
    /// (the smallest), `ByteTotalOverflow`, `BudgetExceeded` (device, then
    /// host); `InvalidArgument`.
    pub fn new(config: &OffloadConfig, units: &[OffloadUnitSpec]) -> Result<Self> {
        ensure_compatible()?;
        let ids = units
            .iter()
            .map(|unit| c_string("offload unit id", &unit.id))
            .collect::<Result<Vec<_>>>()?;
        let descs: Vec<sys::eredu_offload_unit_desc> = units
            .iter()
            .zip(&ids)
            .map(|(unit, id)| sys::eredu_offload_unit_desc {
                struct_size: struct_size::<sys::eredu_offload_unit_desc>(),
                id: id.as_ptr(),
                bytes: unit.bytes,
                policy: unit.policy.to_raw(),
                tier: unit.tier.to_raw(),
            })
            .collect();
        let pointers: Vec<*const sys::eredu_offload_unit_desc> =
            descs.iter().map(|desc| desc as *const _).collect();
        let config = config.to_raw();
        let mut out = ptr::null_mut();
        call(|error| {
            // SAFETY: the config, descriptors and ids live for the call.
            unsafe {
                sys::eredu_offload_plan_new(
                    &config,
                    pointers.as_ptr(),
                    pointers.len(),
                    &mut out,
                    error,
                )
            }
        })?;
        let mut plan = Self {
            raw: NonNull::new(out).expect("liberedu returned a NULL plan on success"),
            info: sys::eredu_offload_plan_info::empty(),
        };
        let mut info = sys::eredu_offload_plan_info::empty();
        call(|error| {
            // SAFETY: a live plan and a struct with its struct_size.
            unsafe { sys::eredu_offload_plan_get_info(plan.as_ptr(), &mut info, error) }
        })?;
        plan.info = info;
        Ok(plan)
    }

    fn as_ptr(&self) -> *const sys::eredu_offload_plan {
        self.raw.as_ptr()
    }

    /// The plan's configuration.
    pub const fn config(&self) -> OffloadConfig {
        let info = &self.info;
        OffloadConfig {
            device_budget_bytes: option(info.has_device_budget, info.device_budget_bytes),
            host_budget_bytes: option(info.has_host_budget, info.host_budget_bytes),
            prefetch_depth: info.prefetch_depth,
            eviction_policy: CacheEvictionPolicy::from_raw(info.eviction_policy),
        }
    }

    /// The number of units.
    pub const fn len(&self) -> usize {
        self.info.unit_count
    }

    /// Whether the plan has no unit.
    pub const fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn unit_at(&self, index: usize) -> OffloadUnitSpec {
        let mut unit = sys::eredu_offload_unit_desc::empty();
        call(|error| {
            // SAFETY: a live plan, an index below its count and a struct
            // with its struct_size.
            unsafe { sys::eredu_offload_plan_unit(self.as_ptr(), index, &mut unit, error) }
        })
        .expect("liberedu refused a unit index below the plan's unit count");
        let id: *const c_char = unit.id;
        // SAFETY: a NUL-terminated id borrowed from the plan, copied at once.
        let id = unsafe { std::ffi::CStr::from_ptr(id) };
        OffloadUnitSpec {
            // SAFETY: the id's bytes, borrowed from the plan, copied at once.
            id: unsafe { borrowed_str(id.as_ptr(), id.to_bytes().len()) }.to_owned(),
            bytes: unit.bytes,
            policy: ResidencyPolicy::from_raw(unit.policy),
            tier: MemoryTier::from_raw(unit.tier),
        }
    }

    /// The units, sorted byte-wise by id (seed `OffloadPlan::units`).
    ///
    /// # Panics
    /// If the library refuses an index below the unit count, which it cannot
    /// unless it is broken (also for [`OffloadPlan::unit`]).
    pub fn units(&self) -> Vec<OffloadUnitSpec> {
        (0..self.len()).map(|index| self.unit_at(index)).collect()
    }

    /// The unit with this id (seed `OffloadPlan::unit`).
    pub fn unit(&self, id: &str) -> Option<OffloadUnitSpec> {
        let id = std::ffi::CString::new(id).ok()?;
        let mut index = 0;
        call(|error| {
            // SAFETY: a live plan, a NUL-terminated id and an out-pointer.
            unsafe {
                sys::eredu_offload_plan_find_unit(self.as_ptr(), id.as_ptr(), &mut index, error)
            }
        })
        .ok()
        .map(|()| self.unit_at(index))
    }

    /// The planned bytes of one tier: the sum of its units' bytes (seed
    /// `OffloadPlan::planned_bytes`).
    ///
    /// # Errors
    /// `InvalidArgument` for a tier this crate does not know.
    pub fn planned_bytes(&self, tier: MemoryTier) -> Result<u64> {
        match tier {
            MemoryTier::Device => Ok(self.info.planned_device_bytes),
            MemoryTier::Host => Ok(self.info.planned_host_bytes),
            MemoryTier::Disk => Ok(self.info.planned_disk_bytes),
            MemoryTier::Unknown(raw) => Err(Error::binding(
                ErrorCode::InvalidArgument,
                format!("unknown memory tier {raw}"),
            )),
        }
    }
}

impl Drop for OffloadPlan {
    fn drop(&mut self) {
        // SAFETY: the handle is owned, live, and freed exactly once.
        unsafe { sys::eredu_offload_plan_free(self.raw.as_ptr()) }
    }
}

impl std::fmt::Debug for OffloadPlan {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OffloadPlan")
            .field("config", &self.config())
            .field("units", &self.units())
            .finish()
    }
}
