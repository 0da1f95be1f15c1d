// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

//! How to plan (`eredu_plan_options` of `eredu/plan.h`: the policy, the
//! threads, a progress callback and the pipeline stages' layer counts) and
//! the rank planner.

use std::fmt;
use std::ops::ControlFlow;
use std::ptr;

use eredu_sys as sys;

use crate::enums::c_enum;
use crate::error::Result;
use crate::ffi::{call, struct_size};
use crate::layout::LocalModelLayout;
use crate::model::ModelDescription;
use crate::progress::{with_progress, ProgressFn};
use crate::topology::ParallelTopology;

c_enum! {
    /// Behavior when a requested shard is not legal for the current TP size
    /// (seed `ShardingPolicy`).
    #[derive(Default)]
    pub enum ShardingPolicy: sys::eredu_policy {
        /// Reject the complete plan with a precise shape/alignment error.
        #[default]
        Require = EREDU_POLICY_REQUIRE,
        /// Replicate the complete logical parameter group.
        ReplicateUnsupported = EREDU_POLICY_REPLICATE_UNSUPPORTED,
        /// `Require`, and every split must be exact (no uneven shards).
        RequireEven = EREDU_POLICY_REQUIRE_EVEN,
    }
}

/// How a planning call plans (`eredu_plan_options`): the sharding policy,
/// the threads the library may use, an optional progress callback and
/// optional pipeline stages of chosen sizes.
///
/// A [`ShardingPolicy`] converts into the options with that policy and the
/// defaults otherwise, so `plan_rank(&model, topology, 0,
/// ShardingPolicy::Require)` reads as before.
///
/// ```
/// use std::ops::ControlFlow;
/// use eredu::{plan_world_json, ErrorCode, ModelDescription, ParallelTopology, PlanOptions};
///
/// # fn main() -> eredu::Result<()> {
/// let model = ModelDescription::from_groups(&[])?;
/// let mut reports = Vec::new();
/// let options = PlanOptions::new().with_threads(1).with_progress(|done, total| {
///     reports.push((done, total));
///     if done == 2 { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
/// });
/// let error = plan_world_json(&model, ParallelTopology::tensor_parallel(4), options).unwrap_err();
/// assert_eq!(error.code(), ErrorCode::Cancelled);
/// assert_eq!(reports, [(1, 4), (2, 4)]);
/// # Ok(())
/// # }
/// ```
#[derive(Default)]
pub struct PlanOptions<'a> {
    policy: ShardingPolicy,
    threads: u32,
    progress: Option<Box<ProgressFn<'a>>>,
    pipeline_layers: Vec<u64>,
}

impl<'a> PlanOptions<'a> {
    /// The defaults: [`ShardingPolicy::Require`], the library's choice of
    /// threads, no progress callback, balanced pipeline stages.
    pub fn new() -> Self {
        Self::default()
    }

    /// The same options with another sharding policy.
    pub fn with_policy(mut self, policy: ShardingPolicy) -> Self {
        self.policy = policy;
        self
    }

    /// The same options with a thread count: the threads a call may use,
    /// the calling one included. 1 runs on the calling thread only (no
    /// helper thread is started); 0, the default, lets the library choose
    /// (for [`plan_rank`] two threads on a model of 16384 tensors or more,
    /// one below; for [`plan_world_json`](crate::plan_world_json),
    /// [`check_json`](crate::check_json) and [`fit_json`](crate::fit_json)
    /// one per hardware thread). Results never depend on it.
    pub fn with_threads(mut self, threads: u32) -> Self {
        self.threads = threads;
        self
    }

    /// The same options with a progress callback, called after each rank
    /// that [`plan_world_json`](crate::plan_world_json) and
    /// [`check_json`](crate::check_json) plan, with the ranks planned so
    /// far and the world size, and after each topology that
    /// [`fit_json`](crate::fit_json) searches, with the topologies searched
    /// so far and their number ([`plan_rank`] does not call it).
    ///
    /// Returning [`ControlFlow::Break`] cancels the call, which then fails
    /// with [`ErrorCode::Cancelled`](crate::ErrorCode::Cancelled) and returns
    /// no text; the callback is not called again. Calls never overlap but
    /// may come from the library's worker threads, hence `Send`. A panic in
    /// the callback is caught before it reaches the library, cancels the
    /// call, and is resumed on the calling thread once the call returns.
    pub fn with_progress(
        mut self,
        progress: impl FnMut(u64, u64) -> ControlFlow<()> + Send + 'a,
    ) -> Self {
        self.progress = Some(Box::new(progress));
        self
    }

    /// The same options with pipeline stages of chosen sizes: stage `s`
    /// owns `layers[s]` consecutive decoder layers (one count per pipeline
    /// stage, each at least 1, summing to the model's layers;
    /// docs/planning.md, "Pipeline stages of chosen sizes"). An empty list,
    /// the default, is the balanced split. The layout, world and check JSON
    /// then carry the counts as `topology.pipeline_layers`.
    ///
    /// The counts are checked by the planning call: a count of counts other
    /// than the pipeline size, a 0 entry, a sum that overflows or a sum
    /// other than the model's decoder layers fails it with
    /// [`ErrorCode::InvalidArgument`](crate::ErrorCode::InvalidArgument).
    pub fn with_pipeline_layers(mut self, layers: impl Into<Vec<u64>>) -> Self {
        self.pipeline_layers = layers.into();
        self
    }

    /// The sharding policy.
    pub const fn policy(&self) -> ShardingPolicy {
        self.policy
    }

    /// The thread count (0: the library's choice).
    pub const fn threads(&self) -> u32 {
        self.threads
    }

    /// Whether a progress callback is set.
    pub const fn has_progress(&self) -> bool {
        self.progress.is_some()
    }

    /// The decoder layers of each pipeline stage (empty: balanced stages).
    pub fn pipeline_layers(&self) -> &[u64] {
        &self.pipeline_layers
    }

    /// Runs `f` with the C options. A progress callback is reached through
    /// the shared trampoline ([`with_progress`]); a panic it caught is
    /// resumed here, after `f` (the C call) has returned. The pipeline
    /// layer counts are borrowed from `self`, alive until `f` returns; none
    /// is passed as NULL and 0.
    pub(crate) fn with_raw<R>(mut self, f: impl FnOnce(&sys::eredu_plan_options) -> R) -> R {
        let pipeline_layers = if self.pipeline_layers.is_empty() {
            ptr::null()
        } else {
            self.pipeline_layers.as_ptr()
        };
        with_progress(self.progress.as_deref_mut(), |progress, progress_data| {
            f(&sys::eredu_plan_options {
                struct_size: struct_size::<sys::eredu_plan_options>(),
                policy: self.policy.to_raw(),
                threads: self.threads,
                progress,
                progress_data,
                pipeline_layers,
                pipeline_layer_count: self.pipeline_layers.len(),
            })
        })
    }
}

impl From<ShardingPolicy> for PlanOptions<'_> {
    /// The options with this policy and the defaults otherwise.
    fn from(policy: ShardingPolicy) -> Self {
        Self::new().with_policy(policy)
    }
}

impl fmt::Debug for PlanOptions<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PlanOptions")
            .field("policy", &self.policy)
            .field("threads", &self.threads)
            .field("progress", &self.has_progress())
            .field("pipeline_layers", &self.pipeline_layers)
            .finish()
    }
}

/// Plans global rank `rank` of `topology` for `model` (seed
/// `LocalModelLayout`): which slice of every tensor the rank materializes,
/// its local shape, logical range and bytes. Pure and atomic. The layout
/// keeps the description alive, so `model` may be dropped first.
///
/// `options` is a [`PlanOptions`] or just a [`ShardingPolicy`]; its
/// progress callback is not called.
///
/// # Errors
/// In this order: `InvalidArgument` (an unknown policy); `ZeroAxis`,
/// `WorldSizeOverflow`; `InvalidArgument` (pipeline layer counts other than
/// one per stage, a 0 count, a sum that overflows); `RankOutOfRange`;
/// `MissingLayerCount`, `MissingExpertCount`, `EmptyPartition`,
/// `InvalidArgument` (pipeline layer counts that do not sum to the model's
/// decoder layers); then `InvalidTensor` group by group in document order
/// (docs/planning.md); `OutOfMemory`.
pub fn plan_rank<'a>(
    model: &ModelDescription,
    topology: ParallelTopology,
    rank: u64,
    options: impl Into<PlanOptions<'a>>,
) -> Result<LocalModelLayout> {
    let topology = topology.to_raw();
    let mut out = ptr::null_mut();
    options.into().with_raw(|options| {
        call(|error| {
            // SAFETY: a live model, structs alive for the call and a valid
            // out-pointer.
            unsafe {
                sys::eredu_plan_rank(model.as_ptr(), &topology, rank, options, &mut out, error)
            }
        })
    })?;
    // SAFETY: on success `out` is a new layout owned by the caller.
    unsafe { LocalModelLayout::from_raw(out) }
}
