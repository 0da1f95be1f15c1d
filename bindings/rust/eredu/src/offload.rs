//! The offload core (`eredu/residency.h`, semantics section 3): memory
//! tiers, unit policies, `OffloadConfig` and the validated `OffloadPlan`.

use std::ffi::c_char;
use std::ptr::{self, NonNull};

use eredu_sys as sys;

use crate::enums::c_enum;
use crate::error::Result;
use crate::ffi::{borrowed_str, c_string, call, flag, infallible, struct_size};
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
pub(crate) fn option(has: u8, value: u64) -> Option<u64> {
    (has != 0).then_some(value)
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
            has_device_budget: flag(self.device_budget_bytes.is_some()),
            device_budget_bytes: self.device_budget_bytes.unwrap_or(0),
            has_host_budget: flag(self.host_budget_bytes.is_some()),
            host_budget_bytes: self.host_budget_bytes.unwrap_or(0),
            prefetch_depth: self.prefetch_depth,
            eviction_policy: self.eviction_policy.to_raw(),
        }
    }

    pub(crate) fn from_raw(raw: &sys::eredu_offload_config) -> Self {
        Self {
            device_budget_bytes: option(raw.has_device_budget, raw.device_budget_bytes),
            host_budget_bytes: option(raw.has_host_budget, raw.host_budget_bytes),
            prefetch_depth: raw.prefetch_depth,
            eviction_policy: CacheEvictionPolicy::from_raw(raw.eviction_policy),
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
pub struct OffloadPlan {
    raw: NonNull<sys::eredu_offload_plan>,
}

// SAFETY: an offload plan is immutable once built; any number of threads may
// read it at once and it may move between threads (eredu/residency.h).
unsafe impl Send for OffloadPlan {}
// SAFETY: as above: every call through &self only reads the plan.
unsafe impl Sync for OffloadPlan {}

impl OffloadPlan {
    /// Builds and validates a plan (seed `OffloadPlan::new`).
    ///
    /// # Errors
    /// In project decision 10's order: `ZeroPrefetchDepth`; per unit in
    /// input order `EmptyUnitId`, `ZeroSizedUnit`, `ContradictoryAssignment`;
    /// then `DuplicateUnitId` (the smallest), `ByteTotalOverflow`,
    /// `BudgetExceeded` (device, then host); `InvalidArgument`.
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
        Ok(Self {
            raw: NonNull::new(out).expect("liberedu returned a NULL plan on success"),
        })
    }

    fn as_ptr(&self) -> *const sys::eredu_offload_plan {
        self.raw.as_ptr()
    }

    /// The plan's configuration.
    pub fn config(&self) -> OffloadConfig {
        let mut raw = OffloadConfig::default().to_raw();
        infallible(
            call(|error| {
                // SAFETY: a live plan and a struct with its struct_size.
                unsafe { sys::eredu_offload_plan_config(self.as_ptr(), &mut raw, error) }
            }),
            "eredu_offload_plan_config",
        );
        OffloadConfig::from_raw(&raw)
    }

    /// The number of units.
    pub fn len(&self) -> usize {
        let mut count = 0;
        infallible(
            call(|error| {
                // SAFETY: a live plan and a valid out-pointer.
                unsafe { sys::eredu_offload_plan_unit_count(self.as_ptr(), &mut count, error) }
            }),
            "eredu_offload_plan_unit_count",
        );
        count
    }

    /// Whether the plan has no unit.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn unit_at(&self, index: usize) -> OffloadUnitSpec {
        let mut unit = sys::eredu_offload_unit_desc {
            struct_size: struct_size::<sys::eredu_offload_unit_desc>(),
            id: ptr::null(),
            bytes: 0,
            policy: 0,
            tier: 0,
        };
        infallible(
            call(|error| {
                // SAFETY: a live plan, an index below its count and a struct
                // with its struct_size.
                unsafe { sys::eredu_offload_plan_unit(self.as_ptr(), index, &mut unit, error) }
            }),
            "eredu_offload_plan_unit",
        );
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

    /// The planned bytes of one tier.
    ///
    /// # Errors
    /// `InvalidArgument` for an unknown tier.
    pub fn planned_bytes(&self, tier: MemoryTier) -> Result<u64> {
        let mut bytes = 0;
        call(|error| {
            // SAFETY: a live plan and a valid out-pointer.
            unsafe {
                sys::eredu_offload_plan_planned_bytes(
                    self.as_ptr(),
                    tier.to_raw(),
                    &mut bytes,
                    error,
                )
            }
        })?;
        Ok(bytes)
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
