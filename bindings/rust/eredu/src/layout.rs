// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

//! The plan of one rank (seed `LocalModelLayout` of `LocalTensorLayout`
//! entries with a `TensorPlacement`), read through borrowed views: one
//! `eredu_layout_get_tensor_info` call per view.

use std::ffi::CString;
use std::marker::PhantomData;
use std::ops::Range;
use std::ptr::NonNull;

use eredu_sys as sys;

use crate::error::{ErrorCode, Result};
use crate::ffi::{borrowed_slice, borrowed_str, call, call_text, OutputStruct};
use crate::group::{Dtype, ParameterRole};
use crate::offload::option;
use crate::plan::ShardingPolicy;
use crate::topology::{ParallelCoordinates, ParallelTopology};

/// The immutable plan of one rank (`eredu_layout`), freed on drop. Tensors
/// are addressed by index in byte-wise ascending order of target, or by
/// target; every view borrows the layout. The layout's own figures (its
/// topology, rank, policy and totals: `eredu_layout_topology` and
/// `eredu_layout_get_info`) are read once, when it is planned.
pub struct LocalModelLayout {
    raw: NonNull<sys::eredu_layout>,
    topology: ParallelTopology,
    info: sys::eredu_layout_info,
}

// SAFETY: an eredu_layout is immutable; any number of threads may read it at
// once and the handle may move between threads (eredu/layout.h). Only
// eredu_layout_free needs exclusive access, which Drop has. The cached info
// holds integers only.
unsafe impl Send for LocalModelLayout {}
// SAFETY: as above: every call through &self only reads the layout.
unsafe impl Sync for LocalModelLayout {}

/// Byte and tensor totals of a layout (`eredu.layout.v1` `totals`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct LayoutTotals {
    /// Bytes this rank materializes (tensors with a dtype).
    pub local_bytes: u64,
    /// Bytes of the whole model (tensors with a dtype).
    pub global_bytes: u64,
    /// Tensors this rank materializes.
    pub materialized_tensors: u64,
    /// Tensors this rank omits.
    pub omitted_tensors: u64,
    /// Tensors of the whole description without a dtype.
    pub unknown_bytes_tensors: u64,
}

impl LocalModelLayout {
    /// Takes ownership of a layout handle and reads its figures.
    ///
    /// # Safety
    /// `raw` is a non-NULL layout the caller owns and does not free.
    pub(crate) unsafe fn from_raw(raw: *mut sys::eredu_layout) -> Result<Self> {
        let raw = NonNull::new(raw).expect("liberedu returned a NULL layout on success");
        let mut layout = Self {
            raw,
            topology: ParallelTopology::default(),
            info: sys::eredu_layout_info::empty(),
        };
        let mut topology = sys::eredu_topology::empty();
        call(|error| {
            // SAFETY: a live layout and a struct with its struct_size.
            unsafe { sys::eredu_layout_topology(layout.as_ptr(), &mut topology, error) }
        })?;
        layout.topology = ParallelTopology::from_raw(&topology);
        let mut info = sys::eredu_layout_info::empty();
        call(|error| {
            // SAFETY: a live layout and a struct with its struct_size.
            unsafe { sys::eredu_layout_get_info(layout.as_ptr(), &mut info, error) }
        })?;
        layout.info = info;
        Ok(layout)
    }

    /// The handle, for calls that borrow it.
    pub fn as_ptr(&self) -> *const sys::eredu_layout {
        self.raw.as_ptr()
    }

    /// The number of planned physical tensors (materialized or omitted).
    pub const fn len(&self) -> usize {
        self.info.tensor_count
    }

    /// Whether no physical tensors were planned.
    pub const fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The topology the layout was planned for.
    pub const fn topology(&self) -> ParallelTopology {
        self.topology
    }

    /// The global rank the layout was planned for.
    pub const fn rank(&self) -> u64 {
        self.info.rank
    }

    /// The rank's coordinate on every axis.
    pub const fn coordinates(&self) -> ParallelCoordinates {
        ParallelCoordinates {
            tensor: self.info.tensor_rank,
            pipeline: self.info.pipeline_rank,
            expert: self.info.expert_rank,
            data: self.info.data_rank,
        }
    }

    /// The policy the layout was planned with.
    pub const fn policy(&self) -> ShardingPolicy {
        ShardingPolicy::from_raw(self.info.policy)
    }

    /// The byte and tensor totals.
    pub const fn totals(&self) -> LayoutTotals {
        LayoutTotals {
            local_bytes: self.info.local_bytes,
            global_bytes: self.info.global_bytes,
            materialized_tensors: self.info.materialized_tensors,
            omitted_tensors: self.info.omitted_tensors,
            unknown_bytes_tensors: self.info.unknown_bytes_tensors,
        }
    }

    /// Tensor `index` (0-based, in target order), or `None` past the end.
    ///
    /// # Panics
    /// If the library refuses an index below [`LocalModelLayout::len`],
    /// which it cannot unless it is broken.
    pub fn get(&self, index: usize) -> Option<LocalTensorLayout<'_>> {
        (index < self.len()).then(|| self.tensor_at(index))
    }

    /// The view of tensor `index < len()`: one library call.
    fn tensor_at(&self, index: usize) -> LocalTensorLayout<'_> {
        let mut info = sys::eredu_layout_tensor_info::empty();
        call(|error| {
            // SAFETY: a live layout, an index below its count and a struct
            // with its struct_size.
            unsafe { sys::eredu_layout_get_tensor_info(self.as_ptr(), index, &mut info, error) }
        })
        .expect("liberedu refused a tensor index below the layout's tensor count");
        // SAFETY: the strings and arrays of `info` are borrowed from this
        // layout, valid as long as the returned view borrows it.
        unsafe { LocalTensorLayout::from_info(index, &info) }
    }

    /// One physical tensor layout by checkpoint target (binary search).
    pub fn tensor(&self, target: &str) -> Option<LocalTensorLayout<'_>> {
        // A target with a NUL byte cannot name a tensor.
        let target = CString::new(target).ok()?;
        let mut index = 0;
        match call(|error| {
            // SAFETY: a live layout, a NUL-terminated target and a valid
            // out-pointer.
            unsafe {
                sys::eredu_layout_find_tensor(self.as_ptr(), target.as_ptr(), &mut index, error)
            }
        }) {
            Ok(()) => Some(self.tensor_at(index)),
            Err(error) if error.code() == ErrorCode::NotFound => None,
            Err(error) if error.code() == ErrorCode::InvalidArgument => None,
            Err(error) => {
                panic!("liberedu rejected a valid eredu_layout_find_tensor call: {error}")
            }
        }
    }

    /// Whether a physical target was planned.
    pub fn contains(&self, target: &str) -> bool {
        let Ok(target) = CString::new(target) else {
            return false;
        };
        let mut index = 0;
        call(|error| {
            // SAFETY: a live layout, a NUL-terminated target and a valid
            // out-pointer.
            unsafe {
                sys::eredu_layout_find_tensor(self.as_ptr(), target.as_ptr(), &mut index, error)
            }
        })
        .is_ok()
    }

    /// The physical layouts with their targets, in target order (seed
    /// `LocalModelLayout::tensors`).
    pub fn tensors(&self) -> impl ExactSizeIterator<Item = (&str, LocalTensorLayout<'_>)> + '_ {
        (0..self.len()).map(move |index| {
            let tensor = self.tensor_at(index);
            (tensor.target(), tensor)
        })
    }

    /// The canonical `eredu.layout.v1` JSON text (compact, one trailing
    /// newline), byte-identical across bindings.
    ///
    /// # Errors
    /// `OutOfMemory`.
    pub fn to_json(&self) -> Result<String> {
        call_text(|text, length, error| {
            // SAFETY: a live layout and valid out-pointers.
            unsafe { sys::eredu_layout_to_json(self.as_ptr(), text, length, error) }
        })
    }
}

impl Drop for LocalModelLayout {
    fn drop(&mut self) {
        // SAFETY: the handle is owned, live, and freed exactly once.
        unsafe { sys::eredu_layout_free(self.raw.as_ptr()) }
    }
}

impl std::fmt::Debug for LocalModelLayout {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LocalModelLayout")
            .field("topology", &self.topology())
            .field("rank", &self.rank())
            .field("policy", &self.policy())
            .field("len", &self.len())
            .finish()
    }
}

/// Rank-local shape and placement of one planned physical tensor (seed
/// `LocalTensorLayout`): a view borrowing its layout, filled by one
/// `eredu_layout_get_tensor_info` call; strings and shapes are borrowed from
/// the layout, the accessors read fields.
#[derive(Clone, Copy)]
pub struct LocalTensorLayout<'a> {
    index: usize,
    target: &'a str,
    logical_name: &'a str,
    role: ParameterRole,
    dtype: Option<Dtype>,
    global_shape: &'a [u64],
    local_shape: &'a [u64],
    placement: TensorPlacement<'a>,
    logical_units: Option<u64>,
    logical_range: Option<(u64, u64)>,
    fell_back_to_replication: bool,
    local_bytes: Option<u64>,
    kv_head_copies: u64,
    padding_rows: u64,
    expert_range: Option<ExpertRange>,
    _layout: PhantomData<&'a LocalModelLayout>,
}

/// The routed experts a rank holds of a member that stacks them
/// (`eredu.layout.v1` `expert_range`, docs/planning.md, "Stacked experts"):
/// experts `start..end` of axis `axis`, on top of the tensor's placement.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ExpertRange {
    /// The member's expert axis.
    pub axis: u64,
    /// The first expert held.
    pub start: u64,
    /// One past the last expert held.
    pub end: u64,
}

impl<'a> LocalTensorLayout<'a> {
    /// The view of a tensor record the library filled.
    ///
    /// # Safety
    /// The strings and arrays `info` points to stay valid and unchanged for
    /// `'a`.
    unsafe fn from_info(index: usize, info: &sys::eredu_layout_tensor_info) -> Self {
        let placement = match info.placement as i32 {
            sys::EREDU_PLACEMENT_REPLICATED => TensorPlacement::Replicated,
            sys::EREDU_PLACEMENT_LOCAL => TensorPlacement::Local,
            sys::EREDU_PLACEMENT_OMIT => TensorPlacement::Omit,
            sys::EREDU_PLACEMENT_RANK => TensorPlacement::Rank {
                rank: info.owner_rank,
            },
            sys::EREDU_PLACEMENT_SHARD => TensorPlacement::Shard {
                axis: info.axis,
                index: info.shard_index,
                parts: info.shard_parts,
            },
            sys::EREDU_PLACEMENT_RANGE => TensorPlacement::Range {
                axis: info.axis,
                start: info.start,
                end: info.end,
            },
            sys::EREDU_PLACEMENT_INDICES => TensorPlacement::Indices {
                axis: info.axis,
                indices: IndexRuns {
                    // SAFETY: `run_count` {start, end} pairs valid for 'a
                    // (the caller's promise); [u64; 2] has the layout of two
                    // consecutive u64.
                    runs: unsafe { borrowed_slice(info.runs.cast::<[u64; 2]>(), info.run_count) },
                    count: info.index_count,
                },
            },
            _ => TensorPlacement::Unknown {
                kind: info.placement,
            },
        };
        // SAFETY: valid for 'a, the caller's promise.
        let (target, logical_name, global_shape, local_shape) = unsafe {
            (
                borrowed_str(info.target, info.target_length),
                borrowed_str(info.logical_name, info.logical_name_length),
                borrowed_slice(info.global_shape, info.global_ndim),
                borrowed_slice(info.local_shape, info.local_ndim),
            )
        };
        Self {
            index,
            target,
            logical_name,
            role: ParameterRole::from_raw(info.role),
            dtype: (info.has_dtype != 0).then(|| Dtype::from_raw(info.dtype)),
            global_shape,
            local_shape,
            placement,
            logical_units: option(info.has_logical_units, info.logical_units),
            logical_range: (info.has_logical_range != 0)
                .then_some((info.logical_start, info.logical_end)),
            fell_back_to_replication: info.fell_back_to_replication != 0,
            local_bytes: option(info.has_local_bytes, info.local_bytes),
            kv_head_copies: info.kv_head_copies,
            padding_rows: info.padding_rows,
            expert_range: (info.has_expert_range != 0).then_some(ExpertRange {
                axis: info.expert_axis,
                start: info.expert_start,
                end: info.expert_end,
            }),
            _layout: PhantomData,
        }
    }

    /// The position of the tensor in the layout (target order).
    pub const fn index(&self) -> usize {
        self.index
    }

    /// The checkpoint target.
    pub const fn target(&self) -> &'a str {
        self.target
    }

    /// The logical parameter group name.
    pub const fn logical_name(&self) -> &'a str {
        self.logical_name
    }

    /// The semantic parameter role.
    pub const fn role(&self) -> ParameterRole {
        self.role
    }

    /// The element type, when the member has one.
    pub const fn dtype(&self) -> Option<Dtype> {
        self.dtype
    }

    /// The checkpoint-global shape, in elements.
    pub const fn global_shape(&self) -> &'a [u64] {
        self.global_shape
    }

    /// The shape materialized on this rank, in elements (empty when
    /// omitted).
    pub const fn local_shape(&self) -> &'a [u64] {
        self.local_shape
    }

    /// The placement decision.
    pub const fn placement(&self) -> TensorPlacement<'a> {
        self.placement
    }

    /// The size of the complete semantic partition domain, when the group is
    /// partitioned (also after a fallback or when omitted).
    pub const fn logical_units(&self) -> Option<u64> {
        self.logical_units
    }

    /// The logical units this rank owns, in the group's semantic domain.
    pub fn logical_range(&self) -> Option<Range<u64>> {
        self.logical_range.map(|(start, end)| start..end)
    }

    /// Whether permissive planning replicated an unsupported shard.
    pub const fn fell_back_to_replication(&self) -> bool {
        self.fell_back_to_replication
    }

    /// The bytes the tensor occupies on this rank: 0 when omitted, `None`
    /// for a materialized tensor without a dtype.
    pub const fn local_bytes(&self) -> Option<u64> {
        self.local_bytes
    }

    /// The tensor ranks holding this same selection (`eredu.layout.v1`
    /// `kv_head_copies`): T / H for a per-KV-head member
    /// ([`ParameterMemberSpec::with_per_kv_head`](crate::ParameterMemberSpec::with_per_kv_head))
    /// of a group with H KV heads planned at a tensor size T above H
    /// (KV-head replication), else 1.
    pub const fn kv_head_copies(&self) -> u64 {
        self.kv_head_copies
    }

    /// Rows of [`LocalTensorLayout::local_shape`] past the checkpoint's under
    /// vocabulary padding (`eredu.layout.v1` `padding_rows`; see
    /// [`ParameterGroupSpec::padded_vocabulary`](crate::ParameterGroupSpec::padded_vocabulary)):
    /// allocated on this rank, not read; the logical range is the rows read,
    /// empty on a rank holding only padding. Else 0.
    pub const fn padding_rows(&self) -> u64 {
        self.padding_rows
    }

    /// The routed experts this rank holds of a member stacking them (see
    /// [`ParameterMemberSpec::with_expert_axis`](crate::ParameterMemberSpec::with_expert_axis)),
    /// on top of [`LocalTensorLayout::placement`]; a member the tensor ranks
    /// replicate has the range placement of the same experts. `None` for
    /// other members and when the rank omits it.
    pub const fn expert_range(&self) -> Option<ExpertRange> {
        self.expert_range
    }
}

impl std::fmt::Debug for LocalTensorLayout<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LocalTensorLayout")
            .field("target", &self.target())
            .field("logical_name", &self.logical_name())
            .field("role", &self.role())
            .field("dtype", &self.dtype())
            .field("global_shape", &self.global_shape())
            .field("local_shape", &self.local_shape())
            .field("placement", &self.placement())
            .field("logical_units", &self.logical_units())
            .field("logical_range", &self.logical_range())
            .field("fell_back_to_replication", &self.fell_back_to_replication())
            .field("local_bytes", &self.local_bytes())
            .field("kv_head_copies", &self.kv_head_copies())
            .field("padding_rows", &self.padding_rows())
            .field("expert_range", &self.expert_range())
            .finish()
    }
}

/// Placement decision for one physical tensor (seed `TensorPlacement`);
/// axes, offsets and indices are in elements.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TensorPlacement<'a> {
    /// Materialize the complete tensor on every rank.
    Replicated,
    /// Materialize the complete tensor on this rank.
    Local,
    /// Intentionally omit this tensor on this rank.
    Omit,
    /// Materialize the complete tensor only on one global rank.
    Rank {
        /// Owning global rank.
        rank: u64,
    },
    /// Materialize an equal contiguous source-tensor slice.
    Shard {
        /// Source tensor axis being sharded.
        axis: u64,
        /// Shard index.
        index: u64,
        /// Total shard count.
        parts: u64,
    },
    /// Materialize an explicit contiguous source-tensor range.
    Range {
        /// Source tensor axis being sliced.
        axis: u64,
        /// Inclusive element offset on `axis`.
        start: u64,
        /// Exclusive element offset on `axis`.
        end: u64,
    },
    /// Materialize selected source-tensor indices in the given order.
    Indices {
        /// Source tensor axis being selected.
        axis: u64,
        /// The indices, as runs borrowed from the layout.
        indices: IndexRuns<'a>,
    },
    /// A placement kind this crate does not know (from a newer library).
    Unknown {
        /// The `EREDU_PLACEMENT_*` value.
        kind: u32,
    },
}

/// An ordered index selection as half-open runs (adjacent runs merged),
/// borrowed from the layout; their concatenation is the seed's index list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct IndexRuns<'a> {
    runs: &'a [[u64; 2]],
    count: u64,
}

impl<'a> IndexRuns<'a> {
    /// The runs, in selection order.
    pub fn runs(&self) -> impl ExactSizeIterator<Item = Range<u64>> + 'a {
        self.runs.iter().map(|run| run[0]..run[1])
    }

    /// The selected indices, in order.
    pub fn iter(&self) -> impl Iterator<Item = u64> + 'a {
        self.runs.iter().flat_map(|run| run[0]..run[1])
    }

    /// The number of selected indices (the local extent of the axis).
    pub const fn len(&self) -> u64 {
        self.count
    }

    /// Whether no index is selected.
    pub const fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The indices as a vector (seed `TensorPlacement::Indices::indices`).
    pub fn to_vec(&self) -> Vec<u64> {
        self.iter().collect()
    }
}
