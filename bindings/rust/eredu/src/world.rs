//! Bulk entry points over every rank of a topology (`eredu/world.h`): the
//! whole-world plan with its coverage proof (`eredu.world.v1`) and admission
//! under a residency policy (`eredu.check.v1`), one call each.

use std::ffi::c_char;
use std::ptr;

use eredu_sys as sys;

use crate::error::Result;
use crate::ffi::{call_text, flag, struct_size};
use crate::model::ModelDescription;
use crate::plan::{ParallelTopology, ShardingPolicy};

/// Options of [`check_json`] (`eredu_check_options`); the default admits
/// every rank fully resident and unbounded, planning on the hardware's
/// threads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct CheckOptions<'a> {
    /// An `eredu.residency.v1` policy document (UTF-8 bytes), or `None` for
    /// fully resident.
    pub residency_json: Option<&'a [u8]>,
    /// The fully resident admission device budget in bytes (only with no
    /// residency document or a fully resident one), or `None` for unbounded.
    pub device_budget_bytes: Option<u64>,
    /// Worker threads for planning the ranks; 0 uses the hardware's. The
    /// output does not depend on it.
    pub threads: u32,
}

/// Plans every rank of `topology` and proves coverage, as `eredu plan
/// --all-ranks --format json`: the canonical `eredu.world.v1` text, the same
/// for any `threads` (0: the hardware's concurrency). Coverage problems are
/// listed in the text (`coverage.ok` false), not an error.
///
/// # Errors
/// `InvalidArgument` (an unknown policy, more than 2^20 ranks); the planning
/// errors of [`crate::plan_rank`] for the lowest failing rank;
/// `OutOfMemory`.
pub fn plan_world_json(
    model: &ModelDescription,
    topology: ParallelTopology,
    policy: ShardingPolicy,
    threads: u32,
) -> Result<String> {
    call_text(|text, length, error| {
        // SAFETY: a live model and valid out-pointers.
        unsafe {
            sys::eredu_plan_world_json(
                model.as_ptr(),
                topology.tensor,
                topology.pipeline,
                topology.expert,
                topology.data,
                policy.to_raw(),
                threads,
                text,
                length,
                error,
            )
        }
    })
}

/// Plans every rank, proves coverage and admits each rank's bytes under a
/// residency policy, as `eredu check --format json`: the canonical
/// `eredu.check.v1` text. A rank that does not fit is reported in the text
/// (`fits` false), not an error.
///
/// # Errors
/// `InvalidArgument` (unknown policy, a device budget with a residency kind
/// other than fully resident, more than 2^20 ranks); the residency
/// document's errors (`Parse`, `UnsupportedVersion`, `ZeroPrefetchDepth`,
/// `HostDisabledControls`, …) before planning; then the planning errors of
/// [`plan_world_json`]; `OutOfMemory`.
pub fn check_json(
    model: &ModelDescription,
    topology: ParallelTopology,
    policy: ShardingPolicy,
    options: &CheckOptions<'_>,
) -> Result<String> {
    let residency = options.residency_json.unwrap_or_default();
    let raw = sys::eredu_check_options {
        struct_size: struct_size::<sys::eredu_check_options>(),
        residency_json: options
            .residency_json
            .map_or(ptr::null(), |text| text.as_ptr().cast::<c_char>()),
        residency_json_length: residency.len(),
        has_device_budget: flag(options.device_budget_bytes.is_some()),
        device_budget_bytes: options.device_budget_bytes.unwrap_or(0),
        threads: options.threads,
    };
    call_text(|text, length, error| {
        // SAFETY: a live model, options whose document is borrowed for the
        // call, and valid out-pointers.
        unsafe {
            sys::eredu_check_json(
                model.as_ptr(),
                topology.tensor,
                topology.pipeline,
                topology.expert,
                topology.data,
                policy.to_raw(),
                &raw,
                text,
                length,
                error,
            )
        }
    })
}
