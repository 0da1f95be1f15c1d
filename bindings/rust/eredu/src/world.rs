// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

//! Bulk entry points over every rank of a topology (`eredu/world.h`): the
//! whole-world plan with its coverage proof (`eredu.world.v1`) and admission
//! under a residency policy (`eredu.check.v1`), one call each
//! (docs/interchange.md).

use std::ffi::c_char;
use std::ptr;

use eredu_sys as sys;

use crate::error::Result;
use crate::ffi::{call_text, flag, struct_size};
use crate::model::ModelDescription;
use crate::plan::PlanOptions;
use crate::topology::ParallelTopology;

/// The residency policy of [`check_json`] (`eredu_check_options`); the
/// default admits every rank fully resident and unbounded. How the ranks are
/// planned (policy, threads, progress) is the call's [`PlanOptions`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct CheckOptions<'a> {
    /// An `eredu.residency.v1` policy document (UTF-8 bytes;
    /// docs/residency.md), or `None` for fully resident.
    pub residency_json: Option<&'a [u8]>,
    /// The fully resident admission device budget in bytes (only with no
    /// residency document or a fully resident one), or `None` for unbounded.
    pub device_budget_bytes: Option<u64>,
}

/// Plans every rank of `topology` and proves coverage, as `eredu plan
/// --all-ranks --format json`: the canonical `eredu.world.v1` text, the same
/// for any thread count. Coverage problems are listed in the text
/// (`coverage.ok` false), not an error.
///
/// `options` is a [`PlanOptions`] or just a
/// [`ShardingPolicy`](crate::ShardingPolicy); its progress callback is called after each
/// planned rank and may cancel the call.
///
/// # Errors
/// `InvalidArgument` (an unknown policy, more than 2^20 ranks); the planning
/// errors of [`crate::plan_rank`] for the lowest failing rank; `Cancelled`
/// (the progress callback returned `Break`; no text is returned);
/// `OutOfMemory`.
///
/// # Panics
/// Resumes a panic of the progress callback once the library has returned.
pub fn plan_world_json<'a>(
    model: &ModelDescription,
    topology: ParallelTopology,
    options: impl Into<PlanOptions<'a>>,
) -> Result<String> {
    let topology = topology.to_raw();
    options.into().with_raw(|options| {
        call_text(|text, length, error| {
            // SAFETY: a live model, structs alive for the call and valid
            // out-pointers.
            unsafe {
                sys::eredu_plan_world_json(model.as_ptr(), &topology, options, text, length, error)
            }
        })
    })
}

/// Plans every rank, proves coverage and admits each rank's bytes under a
/// residency policy, as `eredu check --format json`: the canonical
/// `eredu.check.v1` text. A rank that does not fit is reported in the text
/// (`fits` false), not an error. `plan` is as for [`plan_world_json`].
///
/// # Errors
/// `InvalidArgument` (unknown policy, a device budget with a residency kind
/// other than fully resident, more than 2^20 ranks); the residency
/// document's errors (`Parse`, `UnsupportedVersion`, `ZeroPrefetchDepth`,
/// `HostDisabledControls`, …) before planning; then the planning errors and
/// `Cancelled` of [`plan_world_json`]; `OutOfMemory`.
///
/// # Panics
/// Resumes a panic of the progress callback once the library has returned.
pub fn check_json<'a>(
    model: &ModelDescription,
    topology: ParallelTopology,
    plan: impl Into<PlanOptions<'a>>,
    options: &CheckOptions<'_>,
) -> Result<String> {
    let topology = topology.to_raw();
    let residency = options.residency_json.unwrap_or_default();
    let raw = sys::eredu_check_options {
        struct_size: struct_size::<sys::eredu_check_options>(),
        has_device_budget: flag(options.device_budget_bytes.is_some()),
        residency_json: options
            .residency_json
            .map_or(ptr::null(), |text| text.as_ptr().cast::<c_char>()),
        residency_json_length: residency.len(),
        device_budget_bytes: options.device_budget_bytes.unwrap_or(0),
    };
    plan.into().with_raw(|plan| {
        call_text(|text, length, error| {
            // SAFETY: a live model, structs (and the document) alive for the
            // call, and valid out-pointers.
            unsafe {
                sys::eredu_check_json(model.as_ptr(), &topology, plan, &raw, text, length, error)
            }
        })
    })
}
