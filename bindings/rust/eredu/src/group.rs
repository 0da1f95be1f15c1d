// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

//! Logical parameter groups (seed `ParameterRole`, `MemberSharding`,
//! `ParameterMemberSpec`, `ParameterGroupSpec`) plus the member dtype and the
//! group scope of `eredu.groups.v1` (`eredu/group.h`; docs/planning.md).

use std::ffi::CString;
use std::marker::PhantomData;
use std::ops::Range;
use std::ptr::{self, NonNull};

use eredu_sys as sys;

use crate::enums::c_enum;
use crate::error::{Error, ErrorCode, Result};
use crate::ffi::{borrowed_slice, borrowed_str, c_string, call, flag, struct_size, OutputStruct};
use crate::offload::option;
use crate::version::ensure_compatible;

c_enum! {
    /// Semantic role of a logical parameter group (seed `ParameterRole`).
    pub enum ParameterRole: sys::eredu_role {
        /// Small or otherwise non-partitioned state.
        Replicated = EREDU_ROLE_REPLICATED,
        /// Projection whose output features are rank-local.
        ColumnProjection = EREDU_ROLE_COLUMN_PROJECTION,
        /// Projection whose input features are rank-local.
        RowProjection = EREDU_ROLE_ROW_PROJECTION,
        /// Token embedding or output projection partitioned by vocabulary.
        Vocabulary = EREDU_ROLE_VOCABULARY,
        /// Query, key, or value heads.
        AttentionHeads = EREDU_ROLE_ATTENTION_HEADS,
        /// Dense feed-forward intermediate channels.
        FeedForwardIntermediate = EREDU_ROLE_FEED_FORWARD_INTERMEDIATE,
        /// Routed or shared expert intermediate channels.
        ExpertIntermediate = EREDU_ROLE_EXPERT_INTERMEDIATE,
        /// State-space, convolution, or recurrent channels.
        Channels = EREDU_ROLE_CHANNELS,
        /// A fused tensor containing independently partitioned segments.
        Segmented = EREDU_ROLE_SEGMENTED,
    }
}

c_enum! {
    /// Safetensors element type of a member (`eredu.groups.v1` `dtype`).
    pub enum Dtype: sys::eredu_dtype {
        /// `BOOL`.
        Bool = EREDU_DTYPE_BOOL,
        /// `U8`.
        U8 = EREDU_DTYPE_U8,
        /// `I8`.
        I8 = EREDU_DTYPE_I8,
        /// `I16`.
        I16 = EREDU_DTYPE_I16,
        /// `U16`.
        U16 = EREDU_DTYPE_U16,
        /// `F16`.
        F16 = EREDU_DTYPE_F16,
        /// `BF16`.
        BF16 = EREDU_DTYPE_BF16,
        /// `I32`.
        I32 = EREDU_DTYPE_I32,
        /// `U32`.
        U32 = EREDU_DTYPE_U32,
        /// `F32`.
        F32 = EREDU_DTYPE_F32,
        /// `F64`.
        F64 = EREDU_DTYPE_F64,
        /// `I64`.
        I64 = EREDU_DTYPE_I64,
        /// `U64`.
        U64 = EREDU_DTYPE_U64,
        /// `F8_E4M3`.
        F8E4M3 = EREDU_DTYPE_F8_E4M3,
        /// `F8_E5M2`.
        F8E5M2 = EREDU_DTYPE_F8_E5M2,
        /// `F8_E8M0`.
        F8E8M0 = EREDU_DTYPE_F8_E8M0,
    }
}

/// Rank-local selection rule for one physical checkpoint tensor (seed
/// `MemberSharding`). Axes and segment bounds are in elements.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum MemberSharding {
    /// Materialize the complete member on every tensor-parallel rank.
    Replicated,
    /// Split an axis into equal contiguous shards.
    Equal {
        /// Source tensor axis to partition.
        axis: u64,
    },
    /// Split an axis into balanced, potentially uneven contiguous ranges.
    Balanced {
        /// Source tensor axis to partition.
        axis: u64,
    },
    /// Map the group's logical partition onto one physical tensor axis.
    Partitioned {
        /// Source tensor axis to partition.
        axis: u64,
    },
    /// Map the same group-level logical range into each supplied segment.
    PartitionedSegments {
        /// Source tensor axis containing the fused segments.
        axis: u64,
        /// Ordered, non-overlapping physical source ranges.
        segments: Vec<Range<u64>>,
    },
    /// Partition each supplied source range independently.
    Segmented {
        /// Source tensor axis containing the fused segments.
        axis: u64,
        /// Ordered, non-overlapping source ranges.
        segments: Vec<Range<u64>>,
    },
}

impl MemberSharding {
    /// The C kind, axis and segments.
    fn parts(&self) -> (sys::eredu_sharding_kind, u64, &[Range<u64>]) {
        let kind = |constant: i32| constant as sys::eredu_sharding_kind;
        match self {
            Self::Replicated => (kind(sys::EREDU_SHARDING_REPLICATED), 0, &[]),
            Self::Equal { axis } => (kind(sys::EREDU_SHARDING_EQUAL), *axis, &[]),
            Self::Balanced { axis } => (kind(sys::EREDU_SHARDING_BALANCED), *axis, &[]),
            Self::Partitioned { axis } => (kind(sys::EREDU_SHARDING_PARTITIONED), *axis, &[]),
            Self::PartitionedSegments { axis, segments } => (
                kind(sys::EREDU_SHARDING_PARTITIONED_SEGMENTS),
                *axis,
                segments,
            ),
            Self::Segmented { axis, segments } => {
                (kind(sys::EREDU_SHARDING_SEGMENTED), *axis, segments)
            }
        }
    }

    fn from_parts(
        kind: sys::eredu_sharding_kind,
        axis: u64,
        segments: Vec<Range<u64>>,
    ) -> Option<Self> {
        Some(match kind as i32 {
            sys::EREDU_SHARDING_REPLICATED => Self::Replicated,
            sys::EREDU_SHARDING_EQUAL => Self::Equal { axis },
            sys::EREDU_SHARDING_BALANCED => Self::Balanced { axis },
            sys::EREDU_SHARDING_PARTITIONED => Self::Partitioned { axis },
            sys::EREDU_SHARDING_PARTITIONED_SEGMENTS => {
                Self::PartitionedSegments { axis, segments }
            }
            sys::EREDU_SHARDING_SEGMENTED => Self::Segmented { axis, segments },
            _ => return None,
        })
    }
}

/// One physical tensor belonging to a logical parameter group (seed
/// `ParameterMemberSpec`, plus an optional dtype for byte accounting). A
/// plain value: it is checked when a group is built from it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ParameterMemberSpec {
    target: String,
    global_shape: Vec<u64>,
    sharding: MemberSharding,
    dtype: Option<Dtype>,
    per_kv_head: bool,
    expert_axis: Option<u64>,
}

impl ParameterMemberSpec {
    /// A member with an exact pre-selection checkpoint shape (elements per
    /// axis, outermost first) and no dtype.
    pub fn new(
        target: impl Into<String>,
        global_shape: impl Into<Vec<u64>>,
        sharding: MemberSharding,
    ) -> Self {
        Self {
            target: target.into(),
            global_shape: global_shape.into(),
            sharding,
            dtype: None,
            per_kv_head: false,
            expert_axis: None,
        }
    }

    /// The same member with an element type, so its bytes are known.
    pub fn with_dtype(mut self, dtype: Dtype) -> Self {
        self.dtype = Some(dtype);
        self
    }

    /// The same member marked per KV head (`eredu_member_desc.per_kv_head`):
    /// the k and v projections of a grouped-query group, their biases and
    /// companions. Under KV-head replication (a tensor size above the
    /// group's KV heads, see [`ParameterGroupSpec::grouped_query`]) each of
    /// its units, one KV head, is held whole by T / H tensor ranks; the
    /// other partitioned members split their query heads. Only for
    /// [`MemberSharding::Partitioned`] and
    /// [`MemberSharding::PartitionedSegments`] members of a group with query
    /// units; building any other group with it is
    /// [`ErrorCode::InvalidGroup`].
    pub fn with_per_kv_head(mut self) -> Self {
        self.per_kv_head = true;
        self
    }

    /// The same member stacking its layer's routed experts on `axis`
    /// (`eredu_member_desc.expert_axis`, docs/planning.md, "Stacked
    /// experts"): its extent there is the model's routed experts, one index
    /// per expert, and each expert rank holds its balanced range of them
    /// (reported as
    /// [`LocalTensorLayout::expert_range`](crate::LocalTensorLayout::expert_range))
    /// on top of the sharding's tensor-parallel split of another axis.
    /// An axis equal to the sharding's axis, or a group scoped to an
    /// expert, is [`ErrorCode::InvalidGroup`]; an axis outside the shape or
    /// an extent other than the model's experts is
    /// [`ErrorCode::InvalidTensor`] when a rank is planned.
    pub fn with_expert_axis(mut self, axis: u64) -> Self {
        self.expert_axis = Some(axis);
        self
    }

    /// The checkpoint target.
    pub fn target(&self) -> &str {
        &self.target
    }

    /// The complete source shape, in elements.
    pub fn global_shape(&self) -> &[u64] {
        &self.global_shape
    }

    /// The requested rank-local selection.
    pub const fn sharding(&self) -> &MemberSharding {
        &self.sharding
    }

    /// The element type, when known.
    pub const fn dtype(&self) -> Option<Dtype> {
        self.dtype
    }

    /// Whether the member is per KV head: its units (the group's KV heads)
    /// are held whole under KV-head replication rather than following the
    /// query heads (see [`ParameterMemberSpec::with_per_kv_head`]).
    pub const fn per_kv_head(&self) -> bool {
        self.per_kv_head
    }

    /// The axis on which the member stacks routed experts, if it does (see
    /// [`ParameterMemberSpec::with_expert_axis`]).
    pub const fn expert_axis(&self) -> Option<u64> {
        self.expert_axis
    }

    /// Reads a descriptor the library filled (borrowed strings and arrays).
    ///
    /// # Safety
    /// The descriptor's pointers are valid for the counts it gives.
    pub(crate) unsafe fn from_desc(desc: &sys::eredu_member_desc) -> Result<Self> {
        // SAFETY: guaranteed by the caller; the values are copied at once.
        let (target, shape, segments) = unsafe {
            let target = if desc.target.is_null() {
                ""
            } else {
                let target = std::ffi::CStr::from_ptr(desc.target);
                borrowed_str(target.as_ptr(), target.to_bytes().len())
            };
            let shape = borrowed_slice(desc.shape, desc.ndim);
            let segments = borrowed_slice(desc.segments.cast::<[u64; 2]>(), desc.segment_count);
            (target, shape, segments)
        };
        let segments = segments.iter().map(|pair| pair[0]..pair[1]).collect();
        let sharding =
            MemberSharding::from_parts(desc.sharding, desc.axis, segments).ok_or_else(|| {
                Error::binding(
                    ErrorCode::InvalidArgument,
                    format!(
                        "member {target:?} has sharding kind {}, unknown to this crate",
                        desc.sharding
                    ),
                )
            })?;
        Ok(Self {
            target: target.to_owned(),
            global_shape: shape.to_vec(),
            sharding,
            dtype: (desc.has_dtype != 0).then(|| Dtype::from_raw(desc.dtype)),
            per_kv_head: desc.per_kv_head != 0,
            expert_axis: option(desc.has_expert_axis, desc.expert_axis),
        })
    }
}

/// Members as C descriptors, borrowing the members' shapes for `'a`.
pub(crate) struct MemberDescs<'a> {
    _targets: Vec<CString>,
    _segments: Vec<Vec<u64>>,
    descs: Vec<sys::eredu_member_desc>,
    pointers: Vec<*const sys::eredu_member_desc>,
    _members: PhantomData<&'a [ParameterMemberSpec]>,
}

impl<'a> MemberDescs<'a> {
    pub(crate) fn new<'m>(
        members: impl IntoIterator<Item = &'m ParameterMemberSpec>,
    ) -> Result<Self>
    where
        'm: 'a,
    {
        let mut targets = Vec::new();
        let mut all_segments = Vec::new();
        let mut descs = Vec::new();
        for member in members {
            let target = c_string("member target", &member.target)?;
            let (sharding, axis, segments) = member.sharding.parts();
            let flat: Vec<u64> = segments.iter().flat_map(|s| [s.start, s.end]).collect();
            descs.push(sys::eredu_member_desc {
                struct_size: struct_size::<sys::eredu_member_desc>(),
                // The CString's and the Vec's heap buffers do not move when
                // they are moved into the vectors below.
                target: target.as_ptr(),
                shape: member.global_shape.as_ptr(),
                ndim: member.global_shape.len(),
                has_dtype: flag(member.dtype.is_some()),
                dtype: member.dtype.map_or(0, Dtype::to_raw),
                sharding,
                axis,
                segments: if flat.is_empty() {
                    ptr::null()
                } else {
                    flat.as_ptr()
                },
                segment_count: segments.len(),
                per_kv_head: flag(member.per_kv_head),
                has_expert_axis: flag(member.expert_axis.is_some()),
                expert_axis: member.expert_axis.unwrap_or(0),
            });
            targets.push(target);
            all_segments.push(flat);
        }
        let pointers = descs.iter().map(|desc| desc as *const _).collect();
        Ok(Self {
            _targets: targets,
            _segments: all_segments,
            descs,
            pointers,
            _members: PhantomData,
        })
    }

    pub(crate) fn one(&self) -> &sys::eredu_member_desc {
        &self.descs[0]
    }

    pub(crate) fn as_ptr(&self) -> *const *const sys::eredu_member_desc {
        self.pointers.as_ptr()
    }

    pub(crate) fn len(&self) -> usize {
        self.pointers.len()
    }
}

/// Which pipeline stages and expert ranks own a group (`eredu.groups.v1`
/// `scope`); ranks outside it get [`crate::TensorPlacement::Omit`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum GroupScope {
    /// All pipeline stages and expert ranks (the default).
    #[default]
    All,
    /// The first pipeline stage.
    Embedding,
    /// The last pipeline stage.
    OutputHead,
    /// The first and the last pipeline stage.
    TiedEmbedding,
    /// The stage owning `layer` and/or the expert rank owning `expert` (at
    /// least one must be given).
    Indexed {
        /// The decoder layer (0-based) whose pipeline stage owns the group.
        layer: Option<u64>,
        /// The routed expert (0-based) whose expert rank owns the group.
        expert: Option<u64>,
    },
    /// A scope kind this crate does not know (from a newer library), kept as
    /// is; passed in, the library rejects it with `InvalidArgument`.
    Unknown(sys::eredu_scope_kind),
}

impl GroupScope {
    pub(crate) fn to_raw(self) -> sys::eredu_group_scope {
        let kind = |constant: i32| constant as sys::eredu_scope_kind;
        let (kind, layer, expert) = match self {
            Self::All => (kind(sys::EREDU_SCOPE_ALL), None, None),
            Self::Embedding => (kind(sys::EREDU_SCOPE_EMBEDDING), None, None),
            Self::OutputHead => (kind(sys::EREDU_SCOPE_OUTPUT_HEAD), None, None),
            Self::TiedEmbedding => (kind(sys::EREDU_SCOPE_TIED_EMBEDDING), None, None),
            Self::Indexed { layer, expert } => (kind(sys::EREDU_SCOPE_INDEXED), layer, expert),
            Self::Unknown(raw) => (raw, None, None),
        };
        sys::eredu_group_scope {
            struct_size: struct_size::<sys::eredu_group_scope>(),
            kind,
            has_layer: flag(layer.is_some()),
            layer: layer.unwrap_or(0),
            has_expert: flag(expert.is_some()),
            expert: expert.unwrap_or(0),
        }
    }

    /// The scope a group's info reports.
    fn from_info(info: &sys::eredu_group_info) -> Self {
        match info.scope_kind as i32 {
            sys::EREDU_SCOPE_ALL => Self::All,
            sys::EREDU_SCOPE_EMBEDDING => Self::Embedding,
            sys::EREDU_SCOPE_OUTPUT_HEAD => Self::OutputHead,
            sys::EREDU_SCOPE_TIED_EMBEDDING => Self::TiedEmbedding,
            sys::EREDU_SCOPE_INDEXED => Self::Indexed {
                layer: option(info.has_layer, info.layer),
                expert: option(info.has_expert, info.expert),
            },
            _ => Self::Unknown(info.scope_kind),
        }
    }
}

/// An atomic logical parameter and all of its physical checkpoint
/// companions (seed `ParameterGroupSpec`): an immutable, validated
/// `eredu_group` handle, freed on drop. Its name, role, units, member count
/// and scope (`eredu_group_get_info`) are read once, when it is built.
pub struct ParameterGroupSpec {
    raw: NonNull<sys::eredu_group>,
    info: sys::eredu_group_info,
}

// SAFETY: an eredu_group is immutable once built and may be read from any
// number of threads at once; the handle may move between threads
// (eredu/group.h). Only eredu_group_free needs exclusive access, which
// Drop has. The cached info's name points into the immutable group.
unsafe impl Send for ParameterGroupSpec {}
// SAFETY: as above: every call through &self only reads the group.
unsafe impl Sync for ParameterGroupSpec {}

impl ParameterGroupSpec {
    /// A non-empty, unpartitioned logical group (seed
    /// `ParameterGroupSpec::new`).
    ///
    /// # Errors
    /// [`ErrorCode::InvalidGroup`] with the seed's message (blank name, no
    /// members, a blank or repeated target, a partitioned member without
    /// partition units); [`ErrorCode::InvalidArgument`] for a NUL byte in a
    /// string or an unknown enum value.
    pub fn new(
        logical_name: impl AsRef<str>,
        role: ParameterRole,
        members: impl IntoIterator<Item = ParameterMemberSpec>,
    ) -> Result<Self> {
        Self::scoped(logical_name, role, None, GroupScope::All, members)
    }

    /// A group whose partitioned members share one logical domain of `units`
    /// units (seed `ParameterGroupSpec::partitioned`).
    ///
    /// # Errors
    /// As [`ParameterGroupSpec::new`]; 0 units is [`ErrorCode::InvalidGroup`].
    pub fn partitioned(
        logical_name: impl AsRef<str>,
        role: ParameterRole,
        units: u64,
        members: impl IntoIterator<Item = ParameterMemberSpec>,
    ) -> Result<Self> {
        Self::scoped(logical_name, role, Some(units), GroupScope::All, members)
    }

    /// A group with an optional partition and an ownership scope
    /// (`eredu_group_new` with an `eredu_group_desc`).
    ///
    /// # Errors
    /// As [`ParameterGroupSpec::new`]; an `Indexed` scope with neither layer
    /// nor expert is [`ErrorCode::InvalidArgument`].
    pub fn scoped(
        logical_name: impl AsRef<str>,
        role: ParameterRole,
        partition_units: Option<u64>,
        scope: GroupScope,
        members: impl IntoIterator<Item = ParameterMemberSpec>,
    ) -> Result<Self> {
        Self::build(
            logical_name,
            role,
            partition_units,
            None,
            None,
            scope,
            members,
        )
    }

    /// A grouped-query attention group: its partition units are its
    /// `kv_heads` KV heads and it has `query_heads` query heads
    /// (`eredu_group_desc.query_units`), a positive multiple of `kv_heads`.
    /// At a tensor size T up to `kv_heads` it plans as
    /// [`ParameterGroupSpec::scoped`] with `Some(kv_heads)`; above, T must be
    /// a multiple of `kv_heads` that divides `query_heads` (KV-head
    /// replication, docs/planning.md): tensor rank t then holds KV head
    /// t / (T / kv_heads) whole in its per-KV-head members
    /// ([`ParameterMemberSpec::with_per_kv_head`], reported with
    /// [`LocalTensorLayout::kv_head_copies`](crate::LocalTensorLayout::kv_head_copies)
    /// = T / `kv_heads`) and query heads
    /// [t * `query_heads` / T, (t + 1) * `query_heads` / T) in the other
    /// partitioned members; any other T is [`ErrorCode::InvalidTensor`] when
    /// a rank is planned.
    ///
    /// # Errors
    /// As [`ParameterGroupSpec::scoped`]; `query_heads` that is not a
    /// positive multiple of `kv_heads` is [`ErrorCode::InvalidGroup`].
    pub fn grouped_query(
        logical_name: impl AsRef<str>,
        role: ParameterRole,
        kv_heads: u64,
        query_heads: u64,
        scope: GroupScope,
        members: impl IntoIterator<Item = ParameterMemberSpec>,
    ) -> Result<Self> {
        Self::build(
            logical_name,
            role,
            Some(kv_heads),
            Some(query_heads),
            None,
            scope,
            members,
        )
    }

    /// A vocabulary group ([`ParameterRole::Vocabulary`]) whose balanced
    /// members' V rows are padded to a multiple of `vocab_pad_multiple` M
    /// (`eredu_group_desc.vocab_pad_multiple`, docs/planning.md, "Vocabulary
    /// padding"): at tensor size T they are padded to
    /// P = ceil(V / (M * T)) * M * T rows and each tensor rank allocates
    /// P / T of them, reading its part of the checkpoint's V and reporting
    /// the rest as
    /// [`LocalTensorLayout::padding_rows`](crate::LocalTensorLayout::padding_rows).
    ///
    /// # Errors
    /// As [`ParameterGroupSpec::scoped`]; an M of 0, no balanced member, or
    /// balanced members with different extents on their axes is
    /// [`ErrorCode::InvalidGroup`].
    pub fn padded_vocabulary(
        logical_name: impl AsRef<str>,
        vocab_pad_multiple: u64,
        scope: GroupScope,
        members: impl IntoIterator<Item = ParameterMemberSpec>,
    ) -> Result<Self> {
        Self::build(
            logical_name,
            ParameterRole::Vocabulary,
            None,
            None,
            Some(vocab_pad_multiple),
            scope,
            members,
        )
    }

    /// `eredu_group_new` with every field of an `eredu_group_desc`.
    fn build(
        logical_name: impl AsRef<str>,
        role: ParameterRole,
        partition_units: Option<u64>,
        query_units: Option<u64>,
        vocab_pad_multiple: Option<u64>,
        scope: GroupScope,
        members: impl IntoIterator<Item = ParameterMemberSpec>,
    ) -> Result<Self> {
        ensure_compatible()?;
        let name = c_string("group name", logical_name.as_ref())?;
        let members: Vec<ParameterMemberSpec> = members.into_iter().collect();
        let descs = MemberDescs::new(&members)?;
        let scope = scope.to_raw();
        let desc = sys::eredu_group_desc {
            struct_size: struct_size::<sys::eredu_group_desc>(),
            role: role.to_raw(),
            name: name.as_ptr(),
            has_partition_units: flag(partition_units.is_some()),
            partition_units: partition_units.unwrap_or(0),
            scope: &scope,
            has_query_units: flag(query_units.is_some()),
            query_units: query_units.unwrap_or(0),
            has_vocab_pad_multiple: flag(vocab_pad_multiple.is_some()),
            vocab_pad_multiple: vocab_pad_multiple.unwrap_or(0),
        };
        let mut out = ptr::null_mut();
        call(|error| {
            // SAFETY: every pointer is valid for the call; the library copies
            // everything it keeps.
            unsafe { sys::eredu_group_new(&desc, descs.as_ptr(), descs.len(), &mut out, error) }
        })?;
        // SAFETY: on success `out` is a new group owned by the caller.
        unsafe { Self::from_raw(out) }
    }

    /// Takes ownership of a group handle and reads its info.
    ///
    /// # Safety
    /// `raw` is a non-NULL group the caller owns and does not free.
    pub(crate) unsafe fn from_raw(raw: *mut sys::eredu_group) -> Result<Self> {
        let mut group = Self {
            raw: NonNull::new(raw).expect("liberedu returned a NULL group on success"),
            info: sys::eredu_group_info::empty(),
        };
        let mut info = sys::eredu_group_info::empty();
        call(|error| {
            // SAFETY: a live group and a struct with its struct_size.
            unsafe { sys::eredu_group_get_info(group.as_ptr(), &mut info, error) }
        })?;
        group.info = info;
        Ok(group)
    }

    /// The handle, for calls that borrow it.
    pub fn as_ptr(&self) -> *const sys::eredu_group {
        self.raw.as_ptr()
    }

    /// The stable logical name.
    pub fn logical_name(&self) -> &str {
        // SAFETY: borrowed from the group, valid while `self` lives.
        unsafe { borrowed_str(self.info.name, self.info.name_length) }
    }

    /// The semantic role.
    pub const fn role(&self) -> ParameterRole {
        ParameterRole::from_raw(self.info.role)
    }

    /// The shared logical-unit count, when the group is partitioned.
    pub const fn partition_units(&self) -> Option<u64> {
        option(self.info.has_partition_units, self.info.partition_units)
    }

    /// The query heads of a grouped-query group (whose partition units are
    /// its KV heads), when it has them
    /// ([`ParameterGroupSpec::grouped_query`]).
    pub const fn query_units(&self) -> Option<u64> {
        option(self.info.has_query_units, self.info.query_units)
    }

    /// The vocabulary padding multiple, when the group's vocabulary rows are
    /// padded ([`ParameterGroupSpec::padded_vocabulary`]).
    pub const fn vocab_pad_multiple(&self) -> Option<u64> {
        option(
            self.info.has_vocab_pad_multiple,
            self.info.vocab_pad_multiple,
        )
    }

    /// The pipeline/expert ownership scope.
    pub fn scope(&self) -> GroupScope {
        GroupScope::from_info(&self.info)
    }

    /// The number of physical members.
    pub const fn member_count(&self) -> usize {
        self.info.member_count
    }

    /// The physical members, copied (seed `ParameterGroupSpec::members`):
    /// one `eredu_group_member` call each.
    ///
    /// # Errors
    /// [`ErrorCode::InvalidArgument`] for a sharding kind from a newer
    /// library.
    pub fn members(&self) -> Result<Vec<ParameterMemberSpec>> {
        (0..self.member_count())
            .map(|index| {
                let mut desc = sys::eredu_member_desc::empty();
                call(|error| {
                    // SAFETY: a live group, an index below its member count
                    // and a descriptor with its struct_size.
                    unsafe { sys::eredu_group_member(self.as_ptr(), index, &mut desc, error) }
                })?;
                // SAFETY: the descriptor borrows from the group, alive here.
                unsafe { ParameterMemberSpec::from_desc(&desc) }
            })
            .collect()
    }
}

impl Drop for ParameterGroupSpec {
    fn drop(&mut self) {
        // SAFETY: the handle is owned, live, and freed exactly once.
        unsafe { sys::eredu_group_free(self.raw.as_ptr()) }
    }
}

impl std::fmt::Debug for ParameterGroupSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ParameterGroupSpec")
            .field("logical_name", &self.logical_name())
            .field("role", &self.role())
            .field("partition_units", &self.partition_units())
            .field("query_units", &self.query_units())
            .field("vocab_pad_multiple", &self.vocab_pad_multiple())
            .field("member_count", &self.member_count())
            .finish()
    }
}

/// An owned `eredu_member_list`, read into [`ParameterMemberSpec`] values.
pub(crate) struct MemberList {
    raw: NonNull<sys::eredu_member_list>,
}

impl MemberList {
    /// # Safety
    /// `raw` is a non-NULL member list the caller owns and does not free.
    pub(crate) unsafe fn from_raw(raw: *mut sys::eredu_member_list) -> Self {
        Self {
            raw: NonNull::new(raw).expect("liberedu returned a NULL member list on success"),
        }
    }

    pub(crate) fn to_vec(&self) -> Result<Vec<ParameterMemberSpec>> {
        // SAFETY: a live list.
        let count = unsafe { sys::eredu_member_list_count(self.raw.as_ptr()) };
        (0..count)
            .map(|index| {
                let mut desc = sys::eredu_member_desc::empty();
                call(|error| {
                    // SAFETY: a live list, an index below its count and a
                    // descriptor with its struct_size set.
                    unsafe {
                        sys::eredu_member_list_get(self.raw.as_ptr(), index, &mut desc, error)
                    }
                })?;
                // SAFETY: the descriptor borrows from the list, alive here.
                unsafe { ParameterMemberSpec::from_desc(&desc) }
            })
            .collect()
    }
}

impl Drop for MemberList {
    fn drop(&mut self) {
        // SAFETY: the handle is owned, live, and freed exactly once.
        unsafe { sys::eredu_member_list_free(self.raw.as_ptr()) }
    }
}
