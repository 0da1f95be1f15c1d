// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

//! The tensor × pipeline × expert × data parallel topology (`eredu_topology`
//! of `eredu/topology.h`), the one value every planning call takes, and a
//! rank's coordinates in it.

use eredu_sys as sys;

use crate::ffi::struct_size;

/// The sizes of a tensor × pipeline × expert × data parallel topology
/// (`eredu_topology`; docs/planning.md, "Topology"). A plain value: the
/// library checks it (`ZeroAxis`, `WorldSizeOverflow`, `RankOutOfRange`)
/// when it is used.
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

    /// The C struct, with this crate's `struct_size`.
    pub(crate) const fn to_raw(self) -> sys::eredu_topology {
        sys::eredu_topology {
            struct_size: struct_size::<sys::eredu_topology>(),
            tensor: self.tensor,
            pipeline: self.pipeline,
            expert: self.expert,
            data: self.data,
        }
    }

    /// The sizes of a C struct the library filled.
    pub(crate) const fn from_raw(raw: &sys::eredu_topology) -> Self {
        Self::new(raw.tensor, raw.pipeline, raw.expert, raw.data)
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
