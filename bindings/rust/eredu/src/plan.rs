//! The rank planner: topology, policy and `plan_rank`.

use std::ptr;

use eredu_sys as sys;

use crate::enums::c_enum;
use crate::error::Result;
use crate::ffi::call;
use crate::layout::LocalModelLayout;
use crate::model::ModelDescription;

/// The sizes of a tensor × pipeline × expert × data parallel topology
/// (semantics `ParallelTopology`). A plain value: the planner checks it
/// (`ZeroAxis`, `WorldSizeOverflow`, `RankOutOfRange`) when a rank is planned.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ParallelTopology {
    /// Tensor-parallel size T.
    pub tensor: u64,
    /// Pipeline-parallel size P.
    pub pipeline: u64,
    /// Expert-parallel size E.
    pub expert: u64,
    /// Data-parallel size D.
    pub data: u64,
}

impl ParallelTopology {
    /// A topology of the given axis sizes.
    pub const fn new(tensor: u64, pipeline: u64, expert: u64, data: u64) -> Self {
        Self {
            tensor,
            pipeline,
            expert,
            data,
        }
    }

    /// Tensor parallelism only: `new(tensor, 1, 1, 1)`.
    pub const fn tensor_parallel(tensor: u64) -> Self {
        Self::new(tensor, 1, 1, 1)
    }

    /// T × P × E × D, or `None` when it overflows 64 bits.
    pub const fn world_size(&self) -> Option<u64> {
        match self.tensor.checked_mul(self.pipeline) {
            Some(tp) => match tp.checked_mul(self.expert) {
                Some(tpe) => tpe.checked_mul(self.data),
                None => None,
            },
            None => None,
        }
    }
}

impl Default for ParallelTopology {
    /// One rank: every axis 1.
    fn default() -> Self {
        Self::new(1, 1, 1, 1)
    }
}

/// A rank's coordinate on every axis (`eredu.layout.v1` `coordinates`).
/// Ranks enumerate expert fastest, then tensor, then pipeline, data
/// outermost: `rank = ((d * P + p) * T + t) * E + e`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct ParallelCoordinates {
    /// Tensor-parallel coordinate.
    pub tensor: u64,
    /// Pipeline stage.
    pub pipeline: u64,
    /// Expert-parallel coordinate.
    pub expert: u64,
    /// Data-parallel replica.
    pub data: u64,
}

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
    }
}

/// Plans global rank `rank` of `topology` for `model` (seed
/// `LocalModelLayout`): which slice of every tensor the rank materializes,
/// its local shape, logical range and bytes. Pure and atomic. The layout
/// keeps the description alive, so `model` may be dropped first.
///
/// # Errors
/// In this order: `InvalidArgument` (an unknown policy); `ZeroAxis`,
/// `WorldSizeOverflow`, `RankOutOfRange`; `MissingLayerCount`,
/// `MissingExpertCount`, `EmptyPartition`; then `InvalidTensor` group by
/// group in document order; `OutOfMemory`.
pub fn plan_rank(
    model: &ModelDescription,
    topology: ParallelTopology,
    rank: u64,
    policy: ShardingPolicy,
) -> Result<LocalModelLayout> {
    let mut out = ptr::null_mut();
    call(|error| {
        // SAFETY: a live model and a valid out-pointer.
        unsafe {
            sys::eredu_plan_rank(
                model.as_ptr(),
                topology.tensor,
                topology.pipeline,
                topology.expert,
                topology.data,
                rank,
                policy.to_raw(),
                &mut out,
                error,
            )
        }
    })?;
    // SAFETY: on success `out` is a new layout owned by the caller.
    Ok(unsafe { LocalModelLayout::from_raw(out) })
}
