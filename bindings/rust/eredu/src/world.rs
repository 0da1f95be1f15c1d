// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

//! Bulk entry points over every rank of a topology (`eredu/world.h`): the
//! whole-world plan with its coverage proof (`eredu.world.v1`), admission
//! under a residency policy (`eredu.check.v1`) and the search of every
//! topology up to a world size (`eredu.fit.v1`), one call each
//! (docs/interchange.md).

use std::ffi::c_char;
use std::ptr;

use eredu_sys as sys;

use crate::error::Result;
use crate::ffi::{call_text, flag, struct_size};
use crate::model::ModelDescription;
use crate::plan::PlanOptions;
use crate::topology::ParallelTopology;

/// The residency policy of [`check_json`] and [`fit_json`]
/// (`eredu_check_options`); the
/// default admits every rank fully resident and unbounded. How the ranks are
/// planned (policy, threads, progress, pipeline layers) is the call's
/// [`PlanOptions`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct CheckOptions<'a> {
    /// An `eredu.residency.v1` policy document (UTF-8 bytes;
    /// docs/residency.md), or `None` for fully resident.
    pub residency_json: Option<&'a [u8]>,
    /// The fully resident admission device budget in bytes (only with no
    /// residency document or a fully resident one), or `None` for unbounded.
    pub device_budget_bytes: Option<u64>,
}

impl CheckOptions<'_> {
    /// The sized C struct; it points into the residency document, which
    /// must outlive its use.
    fn to_raw(self) -> sys::eredu_check_options {
        let residency = self.residency_json.unwrap_or_default();
        sys::eredu_check_options {
            struct_size: struct_size::<sys::eredu_check_options>(),
            has_device_budget: flag(self.device_budget_bytes.is_some()),
            residency_json: self
                .residency_json
                .map_or(ptr::null(), |text| text.as_ptr().cast::<c_char>()),
            residency_json_length: residency.len(),
            device_budget_bytes: self.device_budget_bytes.unwrap_or(0),
        }
    }
}

/// What [`fit_json`] searches (`eredu_fit_options`); the default searches
/// worlds of up to [`FitOptions::DEFAULT_MAX_WORLD`] ranks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FitOptions {
    /// The largest world `tp * pp * ep` searched, from 1 to 1024; other
    /// values fail the call with `InvalidArgument`.
    pub max_world: u64,
}

impl FitOptions {
    /// The default largest world, that of `EREDU_FIT_OPTIONS_INIT`.
    pub const DEFAULT_MAX_WORLD: u64 = 64;

    /// The defaults with the largest world `max_world`.
    pub const fn with_max_world(max_world: u64) -> Self {
        Self { max_world }
    }
}

impl Default for FitOptions {
    /// Worlds of up to 64 ranks.
    fn default() -> Self {
        Self::with_max_world(Self::DEFAULT_MAX_WORLD)
    }
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
/// `InvalidArgument` (an unknown policy, more than 2^20 ranks, pipeline
/// layer counts that do not fit the topology or the model, as for
/// [`crate::plan_rank`]); the planning errors of [`crate::plan_rank`] for the
/// lowest failing rank; `Cancelled`
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
    let raw = options.to_raw();
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

/// Which sizes work: plans and admits every topology `tp x pp x ep x 1`
/// with `tp * pp * ep <= options.max_world`, as [`check_json`] would, and
/// returns the canonical `eredu.fit.v1` text: per topology (ordered by world
/// size, then `tp`, then `pp`) whether it plans (else its first error's
/// status name and message), the largest device peak of its ranks and
/// whether every rank fits, then the smallest world with a topology that
/// fits (absent when none does). A topology that does not plan or fit is
/// reported in the text, not an error.
///
/// `plan` is a [`PlanOptions`] or just a
/// [`ShardingPolicy`](crate::ShardingPolicy): its threads plan each
/// topology as for [`plan_world_json`]; its progress callback is called
/// after each topology with (topologies done, topologies in all) and may
/// cancel the call; its pipeline layers must be empty (the search varies
/// the pipeline size). `check` is the residency policy, as for
/// [`check_json`].
///
/// # Errors
/// `InvalidArgument` (unknown policy, pipeline layers given, a
/// `max_world` of 0 or above 1024; after the document: a device budget with
/// a residency kind other than fully resident); the residency document's
/// errors, as for [`check_json`]; `Cancelled` (the progress callback
/// returned `Break`; no text is returned); `OutOfMemory`.
///
/// # Panics
/// Resumes a panic of the progress callback once the library has returned.
pub fn fit_json<'a>(
    model: &ModelDescription,
    plan: impl Into<PlanOptions<'a>>,
    check: &CheckOptions<'_>,
    options: &FitOptions,
) -> Result<String> {
    let check = check.to_raw();
    let raw = sys::eredu_fit_options {
        struct_size: struct_size::<sys::eredu_fit_options>(),
        max_world: options.max_world,
    };
    plan.into().with_raw(|plan| {
        call_text(|text, length, error| {
            // SAFETY: a live model, structs (and the document) alive for the
            // call, and valid out-pointers.
            unsafe { sys::eredu_fit_json(model.as_ptr(), plan, &check, &raw, text, length, error) }
        })
    })
}
