//! The plan of one rank (seed `LocalModelLayout` of `LocalTensorLayout`
//! entries with a `TensorPlacement`), read through borrowed views.

use std::ffi::{c_char, CString};
use std::ops::Range;
use std::ptr::{self, NonNull};

use eredu_sys as sys;

use crate::error::{ErrorCode, Result};
use crate::ffi::{borrowed_slice, borrowed_str, call, call_text, infallible, struct_size};
use crate::group::{Dtype, ParameterRole};
use crate::plan::{ParallelCoordinates, ParallelTopology, ShardingPolicy};

/// A layout getter writing one value.
type LayoutGetter<T> = unsafe extern "C" fn(
    *const sys::eredu_layout,
    *mut T,
    *mut *mut sys::eredu_error,
) -> sys::eredu_status;

/// A per-tensor getter writing one value.
type TensorGetter<T> = unsafe extern "C" fn(
    *const sys::eredu_layout,
    usize,
    *mut T,
    *mut *mut sys::eredu_error,
) -> sys::eredu_status;

/// A per-tensor getter writing a value and whether it is present.
type OptionalTensorGetter<T> = unsafe extern "C" fn(
    *const sys::eredu_layout,
    usize,
    *mut T,
    *mut bool,
    *mut *mut sys::eredu_error,
) -> sys::eredu_status;

/// A per-tensor getter lending an array of `T` (pointer and length).
type BorrowedTensorGetter<T> = unsafe extern "C" fn(
    *const sys::eredu_layout,
    usize,
    *mut *const T,
    *mut usize,
    *mut *mut sys::eredu_error,
) -> sys::eredu_status;

/// The immutable plan of one rank (`eredu_layout`), freed on drop. Tensors
/// are addressed by index in byte-wise ascending order of target, or by
/// target; every view borrows the layout.
pub struct LocalModelLayout {
    raw: NonNull<sys::eredu_layout>,
}

// SAFETY: an eredu_layout is immutable; any number of threads may read it at
// once and the handle may move between threads (eredu/layout.h). Only
// eredu_layout_free needs exclusive access, which Drop has.
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
    /// Takes ownership of a layout handle.
    ///
    /// # Safety
    /// `raw` is a non-NULL layout the caller owns and does not free.
    pub(crate) unsafe fn from_raw(raw: *mut sys::eredu_layout) -> Self {
        Self {
            raw: NonNull::new(raw).expect("liberedu returned a NULL layout on success"),
        }
    }

    /// The handle, for calls that borrow it.
    pub fn as_ptr(&self) -> *const sys::eredu_layout {
        self.raw.as_ptr()
    }

    /// Reads one value of the layout through a getter that cannot fail.
    fn value<T: Default>(&self, what: &str, getter: LayoutGetter<T>) -> T {
        let mut value = T::default();
        infallible(
            call(|error| {
                // SAFETY: a live layout and a valid out-pointer.
                unsafe { getter(self.as_ptr(), &mut value, error) }
            }),
            what,
        );
        value
    }

    /// The number of planned physical tensors (materialized or omitted).
    pub fn len(&self) -> usize {
        self.value("eredu_layout_tensor_count", sys::eredu_layout_tensor_count)
    }

    /// Whether no physical tensors were planned.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The topology the layout was planned for.
    pub fn topology(&self) -> ParallelTopology {
        let mut topology = ParallelTopology::default();
        infallible(
            call(|error| {
                // SAFETY: a live layout and valid out-pointers.
                unsafe {
                    sys::eredu_layout_topology(
                        self.as_ptr(),
                        &mut topology.tensor,
                        &mut topology.pipeline,
                        &mut topology.expert,
                        &mut topology.data,
                        error,
                    )
                }
            }),
            "eredu_layout_topology",
        );
        topology
    }

    /// The global rank the layout was planned for.
    pub fn rank(&self) -> u64 {
        self.value("eredu_layout_rank", sys::eredu_layout_rank)
    }

    /// The rank's coordinate on every axis.
    pub fn coordinates(&self) -> ParallelCoordinates {
        let mut at = ParallelCoordinates::default();
        infallible(
            call(|error| {
                // SAFETY: a live layout and valid out-pointers.
                unsafe {
                    sys::eredu_layout_coordinates(
                        self.as_ptr(),
                        &mut at.tensor,
                        &mut at.pipeline,
                        &mut at.expert,
                        &mut at.data,
                        error,
                    )
                }
            }),
            "eredu_layout_coordinates",
        );
        at
    }

    /// The policy the layout was planned with.
    pub fn policy(&self) -> ShardingPolicy {
        ShardingPolicy::from_raw(self.value("eredu_layout_policy", sys::eredu_layout_policy))
    }

    /// The byte and tensor totals.
    pub fn totals(&self) -> LayoutTotals {
        let mut totals = sys::eredu_layout_totals {
            struct_size: struct_size::<sys::eredu_layout_totals>(),
            local_bytes: 0,
            global_bytes: 0,
            materialized_tensors: 0,
            omitted_tensors: 0,
            unknown_bytes_tensors: 0,
        };
        infallible(
            call(|error| {
                // SAFETY: a live layout and a struct with its struct_size.
                unsafe { sys::eredu_layout_get_totals(self.as_ptr(), &mut totals, error) }
            }),
            "eredu_layout_get_totals",
        );
        LayoutTotals {
            local_bytes: totals.local_bytes,
            global_bytes: totals.global_bytes,
            materialized_tensors: totals.materialized_tensors,
            omitted_tensors: totals.omitted_tensors,
            unknown_bytes_tensors: totals.unknown_bytes_tensors,
        }
    }

    /// Tensor `index` (0-based, in target order), or `None` past the end.
    pub fn get(&self, index: usize) -> Option<LocalTensorLayout<'_>> {
        (index < self.len()).then_some(LocalTensorLayout {
            layout: self,
            index,
        })
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
            Ok(()) => Some(LocalTensorLayout {
                layout: self,
                index,
            }),
            Err(error) if error.code() == ErrorCode::NotFound => None,
            Err(error) if error.code() == ErrorCode::InvalidArgument => None,
            Err(error) => {
                panic!("liberedu rejected a valid eredu_layout_find_tensor call: {error}")
            }
        }
    }

    /// Whether a physical target was planned.
    pub fn contains(&self, target: &str) -> bool {
        self.tensor(target).is_some()
    }

    /// The physical layouts with their targets, in target order (seed
    /// `LocalModelLayout::tensors`).
    pub fn tensors(&self) -> impl ExactSizeIterator<Item = (&str, LocalTensorLayout<'_>)> + '_ {
        (0..self.len()).map(move |index| {
            let tensor = LocalTensorLayout {
                layout: self,
                index,
            };
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
/// `LocalTensorLayout`): a view borrowing its layout. Every accessor reads
/// the layout; strings and shapes are borrowed from it.
#[derive(Clone, Copy)]
pub struct LocalTensorLayout<'a> {
    layout: &'a LocalModelLayout,
    index: usize,
}

impl<'a> LocalTensorLayout<'a> {
    /// Reads one value of the tensor through a getter that cannot fail.
    fn value<T: Default>(&self, what: &str, getter: TensorGetter<T>) -> T {
        let mut value = T::default();
        infallible(
            call(|error| {
                // SAFETY: a live layout, an index below its count and a valid
                // out-pointer.
                unsafe { getter(self.layout.as_ptr(), self.index, &mut value, error) }
            }),
            what,
        );
        value
    }

    /// Reads one value of the tensor that may be absent.
    fn optional<T: Default>(&self, what: &str, getter: OptionalTensorGetter<T>) -> Option<T> {
        let mut value = T::default();
        let mut present = false;
        infallible(
            call(|error| {
                // SAFETY: a live layout, an index below its count and valid
                // out-pointers.
                unsafe {
                    getter(
                        self.layout.as_ptr(),
                        self.index,
                        &mut value,
                        &mut present,
                        error,
                    )
                }
            }),
            what,
        );
        present.then_some(value)
    }

    /// The pointer and length of an array of `T` the layout lends.
    fn borrowed<T>(&self, what: &str, getter: BorrowedTensorGetter<T>) -> (*const T, usize) {
        let mut data = ptr::null();
        let mut length = 0;
        infallible(
            call(|error| {
                // SAFETY: a live layout, an index below its count and valid
                // out-pointers.
                unsafe {
                    getter(
                        self.layout.as_ptr(),
                        self.index,
                        &mut data,
                        &mut length,
                        error,
                    )
                }
            }),
            what,
        );
        (data, length)
    }

    fn string(&self, what: &str, getter: BorrowedTensorGetter<c_char>) -> &'a str {
        let (text, length) = self.borrowed(what, getter);
        // SAFETY: borrowed from the layout, valid for 'a.
        unsafe { borrowed_str(text, length) }
    }

    fn shape(&self, what: &str, getter: BorrowedTensorGetter<u64>) -> &'a [u64] {
        let (shape, ndim) = self.borrowed(what, getter);
        // SAFETY: borrowed from the layout, valid for 'a.
        unsafe { borrowed_slice(shape, ndim) }
    }

    /// The position of the tensor in the layout (target order).
    pub const fn index(&self) -> usize {
        self.index
    }

    /// The checkpoint target.
    pub fn target(&self) -> &'a str {
        self.string(
            "eredu_layout_tensor_target",
            sys::eredu_layout_tensor_target,
        )
    }

    /// The logical parameter group name.
    pub fn logical_name(&self) -> &'a str {
        self.string(
            "eredu_layout_tensor_logical_name",
            sys::eredu_layout_tensor_logical_name,
        )
    }

    /// The semantic parameter role.
    pub fn role(&self) -> ParameterRole {
        ParameterRole::from_raw(
            self.value("eredu_layout_tensor_role", sys::eredu_layout_tensor_role),
        )
    }

    /// The element type, when the member has one.
    pub fn dtype(&self) -> Option<Dtype> {
        self.optional("eredu_layout_tensor_dtype", sys::eredu_layout_tensor_dtype)
            .map(Dtype::from_raw)
    }

    /// The checkpoint-global shape, in elements.
    pub fn global_shape(&self) -> &'a [u64] {
        self.shape(
            "eredu_layout_tensor_global_shape",
            sys::eredu_layout_tensor_global_shape,
        )
    }

    /// The shape materialized on this rank, in elements (empty when
    /// omitted).
    pub fn local_shape(&self) -> &'a [u64] {
        self.shape(
            "eredu_layout_tensor_local_shape",
            sys::eredu_layout_tensor_local_shape,
        )
    }

    /// The placement decision.
    pub fn placement(&self) -> TensorPlacement<'a> {
        let mut p = sys::eredu_placement {
            struct_size: struct_size::<sys::eredu_placement>(),
            kind: 0,
            axis: 0,
            rank: 0,
            index: 0,
            parts: 0,
            start: 0,
            end: 0,
            runs: ptr::null(),
            run_count: 0,
            index_count: 0,
        };
        infallible(
            call(|error| {
                // SAFETY: a live layout, a valid index and a struct with its
                // struct_size.
                unsafe {
                    sys::eredu_layout_tensor_placement(
                        self.layout.as_ptr(),
                        self.index,
                        &mut p,
                        error,
                    )
                }
            }),
            "eredu_layout_tensor_placement",
        );
        match p.kind as i32 {
            sys::EREDU_PLACEMENT_REPLICATED => TensorPlacement::Replicated,
            sys::EREDU_PLACEMENT_LOCAL => TensorPlacement::Local,
            sys::EREDU_PLACEMENT_OMIT => TensorPlacement::Omit,
            sys::EREDU_PLACEMENT_RANK => TensorPlacement::Rank { rank: p.rank },
            sys::EREDU_PLACEMENT_SHARD => TensorPlacement::Shard {
                axis: p.axis,
                index: p.index,
                parts: p.parts,
            },
            sys::EREDU_PLACEMENT_RANGE => TensorPlacement::Range {
                axis: p.axis,
                start: p.start,
                end: p.end,
            },
            sys::EREDU_PLACEMENT_INDICES => TensorPlacement::Indices {
                axis: p.axis,
                indices: IndexRuns {
                    // SAFETY: `run_count` {start, end} pairs borrowed from the
                    // layout, valid for 'a; [u64; 2] has the layout of two
                    // consecutive u64.
                    runs: unsafe { borrowed_slice(p.runs.cast::<[u64; 2]>(), p.run_count) },
                    count: p.index_count,
                },
            },
            _ => TensorPlacement::Unknown { kind: p.kind },
        }
    }

    /// The size of the complete semantic partition domain, when the group is
    /// partitioned (also after a fallback or when omitted).
    pub fn logical_units(&self) -> Option<u64> {
        self.optional(
            "eredu_layout_tensor_logical_units",
            sys::eredu_layout_tensor_logical_units,
        )
    }

    /// The logical units this rank owns, in the group's semantic domain.
    pub fn logical_range(&self) -> Option<Range<u64>> {
        let mut start = 0;
        let mut end = 0;
        let mut present = false;
        infallible(
            call(|error| {
                // SAFETY: a live layout, a valid index and out-pointers.
                unsafe {
                    sys::eredu_layout_tensor_logical_range(
                        self.layout.as_ptr(),
                        self.index,
                        &mut start,
                        &mut end,
                        &mut present,
                        error,
                    )
                }
            }),
            "eredu_layout_tensor_logical_range",
        );
        present.then_some(start..end)
    }

    /// Whether permissive planning replicated an unsupported shard.
    pub fn fell_back_to_replication(&self) -> bool {
        self.value(
            "eredu_layout_tensor_fell_back",
            sys::eredu_layout_tensor_fell_back,
        )
    }

    /// The bytes the tensor occupies on this rank: 0 when omitted, `None`
    /// for a materialized tensor without a dtype.
    pub fn local_bytes(&self) -> Option<u64> {
        self.optional(
            "eredu_layout_tensor_local_bytes",
            sys::eredu_layout_tensor_local_bytes,
        )
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
