# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The eredu authors

"""Logical parameter groups (seed ParameterRole, MemberSharding,
ParameterMemberSpec, ParameterGroupSpec, partitioned_group_with_preferred_units;
eredu/group.h, eredu/runtime/projection.h; docs/planning.md).

Members, shardings and scopes are plain Python values; a ParameterGroupSpec
owns a validated, immutable library group built in one atomic call.
"""
import ctypes
import dataclasses
import enum

from . import _capi
from . import _convert as convert
from ._handle import Handle, handle_of
from ._library import lib
from .errors import call


#: The most axes a member's shape may have.
MAX_NDIM = 1024


class ParameterRole(enum.IntEnum):
    """Semantic role of a group (seed ParameterRole; EREDU_ROLE_*)."""

    REPLICATED = 0
    COLUMN_PROJECTION = 1
    ROW_PROJECTION = 2
    VOCABULARY = 3
    ATTENTION_HEADS = 4
    FEED_FORWARD_INTERMEDIATE = 5
    EXPERT_INTERMEDIATE = 6
    CHANNELS = 7
    SEGMENTED = 8


class ShardingKind(enum.IntEnum):
    """The variant of a MemberSharding (EREDU_SHARDING_*)."""

    REPLICATED = 0
    EQUAL = 1
    BALANCED = 2
    PARTITIONED = 3
    PARTITIONED_SEGMENTS = 4
    SEGMENTED = 5


class Dtype(enum.IntEnum):
    """Safetensors element type of a member (EREDU_DTYPE_*); Dtype["BF16"]
    looks one up by its safetensors name."""

    BOOL = 0
    U8 = 1
    I8 = 2
    I16 = 3
    U16 = 4
    F16 = 5
    BF16 = 6
    I32 = 7
    U32 = 8
    F32 = 9
    F64 = 10
    I64 = 11
    U64 = 12
    F8_E4M3 = 13
    F8_E5M2 = 14
    F8_E8M0 = 15


class ScopeKind(enum.IntEnum):
    """Which pipeline stages / expert ranks own a group (EREDU_SCOPE_*)."""

    ALL = 0
    EMBEDDING = 1
    OUTPUT_HEAD = 2
    TIED_EMBEDDING = 3
    INDEXED = 4


_WITH_SEGMENTS = (ShardingKind.PARTITIONED_SEGMENTS, ShardingKind.SEGMENTED)


def _ranges(pairs):
    return tuple(range(start, stop) for start, stop in
                 ((p.start, p.stop) if isinstance(p, range) else p for p in pairs))


@dataclasses.dataclass(frozen=True)
class MemberSharding:
    """Rank-local selection rule of one member (seed MemberSharding). Build
    with the class methods; `segments` are half-open element ranges."""

    kind: ShardingKind
    axis: int = 0
    segments: tuple = ()

    def __post_init__(self):
        object.__setattr__(self, "kind", convert.member(ShardingKind, self.kind, "sharding kind"))
        object.__setattr__(self, "segments", _ranges(self.segments))

    @classmethod
    def replicated(cls):
        return cls(ShardingKind.REPLICATED)

    @classmethod
    def equal(cls, axis):
        return cls(ShardingKind.EQUAL, axis)

    @classmethod
    def balanced(cls, axis):
        return cls(ShardingKind.BALANCED, axis)

    @classmethod
    def partitioned(cls, axis):
        return cls(ShardingKind.PARTITIONED, axis)

    @classmethod
    def partitioned_segments(cls, axis, segments):
        return cls(ShardingKind.PARTITIONED_SEGMENTS, axis, segments)

    @classmethod
    def segmented(cls, axis, segments):
        return cls(ShardingKind.SEGMENTED, axis, segments)


@dataclasses.dataclass(frozen=True)
class ParameterMemberSpec:
    """One physical checkpoint tensor of a group (seed ParameterMemberSpec):
    target, global shape in elements (outermost first), sharding, and this
    project's optional dtype (a Dtype or its name) for byte accounting.

    `per_kv_head` (eredu_member_desc.per_kv_head) marks a member per KV head:
    the k and v projections of a grouped-query group, their biases and
    companions. Under KV-head replication (a tensor size T above the group's
    H KV heads, see ParameterGroupSpec `query_units`) each of its units, one
    KV head, is held whole by T / H tensor ranks; the other partitioned
    members split their query heads. Only for PARTITIONED and
    PARTITIONED_SEGMENTS members of a group with query units; any other
    group with it raises ParallelPlanError (EREDU_E_INVALID_GROUP).

    `expert_axis` (eredu_member_desc.expert_axis) is the axis on which the
    member stacks its layer's routed experts, or None (Stacked experts,
    docs/planning.md): its extent there is the model's routed experts, and
    each expert rank holds its balanced range of them (LocalTensorLayout
    `expert_range`) on top of the sharding's split of another axis. The
    sharding's own axis, or a group scoped to an expert, raises
    ParallelPlanError (EREDU_E_INVALID_GROUP); an axis outside the shape or
    an extent other than the model's experts raises it
    (EREDU_E_INVALID_TENSOR) when a rank is planned."""

    target: str
    global_shape: tuple
    sharding: MemberSharding
    dtype: Dtype = None
    per_kv_head: bool = False
    expert_axis: int = None

    def __post_init__(self):
        object.__setattr__(self, "global_shape", tuple(self.global_shape))
        object.__setattr__(self, "per_kv_head", bool(self.per_kv_head))
        if self.dtype is not None:
            object.__setattr__(self, "dtype", convert.member(Dtype, self.dtype,
                                                             f"member {self.target!r} dtype",
                                                             by_name=True))


@dataclasses.dataclass(frozen=True)
class GroupScope:
    """The pipeline/expert ownership of a group (eredu.groups.v1 `scope`,
    docs/interchange.md); the default owns everything."""

    kind: ScopeKind = ScopeKind.ALL
    layer: int = None
    expert: int = None

    @classmethod
    def all(cls):
        return cls()

    @classmethod
    def embedding(cls):
        return cls(ScopeKind.EMBEDDING)

    @classmethod
    def output_head(cls):
        return cls(ScopeKind.OUTPUT_HEAD)

    @classmethod
    def tied_embedding(cls):
        return cls(ScopeKind.TIED_EMBEDDING)

    @classmethod
    def indexed(cls, layer=None, expert=None):
        return cls(ScopeKind.INDEXED, layer, expert)


def scope_struct(scope):
    """A GroupScope (or None) as a pointer to an eredu_group_scope (None for
    None), for an argument or an eredu_group_desc field."""
    if scope is None:
        return None
    convert.instance(scope, GroupScope, "scope")
    struct = _capi.sized(_capi.eredu_group_scope)
    struct.kind = convert.u32(scope.kind, "scope kind")
    if scope.layer is not None:
        struct.has_layer, struct.layer = 1, convert.u64(scope.layer, "scope layer")
    if scope.expert is not None:
        struct.has_expert, struct.expert = 1, convert.u64(scope.expert, "scope expert")
    return ctypes.pointer(struct)


def member_struct(member):
    """A ParameterMemberSpec as an eredu_member_desc (which keeps its arrays
    and strings alive)."""
    desc = _capi.sized(_capi.eredu_member_desc)
    what = f"member {member.target!r}"
    desc.target = convert.text(member.target, "member target")
    desc.shape = convert.u64_array(member.global_shape, f"{what} shape")
    desc.ndim = len(member.global_shape)
    if member.dtype is not None:
        desc.has_dtype, desc.dtype = 1, member.dtype
    sharding = member.sharding
    desc.sharding = convert.u32(sharding.kind, f"{what} sharding kind")
    desc.axis = convert.u64(sharding.axis, f"{what} sharding axis")
    desc.segments, desc.segment_count = convert.ranges(sharding.segments, f"{what} segments")
    desc.per_kv_head = convert.flag(member.per_kv_head)
    if member.expert_axis is not None:
        desc.has_expert_axis = 1
        desc.expert_axis = convert.u64(member.expert_axis, f"{what} expert axis")
    return desc


def member_array(members):
    """ParameterMemberSpecs as a C array of descriptor pointers (the array
    keeps the descriptors, their arrays and strings alive)."""
    descs = [member_struct(convert.instance(member, ParameterMemberSpec, f"members[{i}]"))
             for i, member in enumerate(members)]
    array = (ctypes.POINTER(_capi.eredu_member_desc) * len(descs))(*map(ctypes.pointer, descs))
    return array, len(descs)


def member_from_struct(desc):
    """An eredu_member_desc filled by the library as a ParameterMemberSpec."""
    kind = ShardingKind(desc.sharding)
    segments = ()
    if kind in _WITH_SEGMENTS:
        flat = desc.segments[:2 * desc.segment_count]
        segments = tuple(range(flat[i], flat[i + 1]) for i in range(0, len(flat), 2))
    return ParameterMemberSpec(
        desc.target.decode("utf-8"),
        tuple(desc.shape[:desc.ndim]),
        MemberSharding(kind, desc.axis, segments),
        Dtype(desc.dtype) if desc.has_dtype else None,
        bool(desc.per_kv_head),
        desc.expert_axis if desc.has_expert_axis else None,
    )


class MemberList(Handle):
    """A library member list, read into ParameterMemberSpecs."""

    _FREE = "eredu_member_list_free"

    def members(self):
        handle = self._handle()
        result = []
        for index in range(lib.eredu_member_list_count(handle)):
            desc = _capi.sized(_capi.eredu_member_desc)
            call(lib.eredu_member_list_get, handle, index, ctypes.byref(desc))
            result.append(member_from_struct(desc))
        return result


def read_members(function, *args):
    """Calls a C function producing an eredu_member_list and returns its
    members as ParameterMemberSpecs, the list freed."""
    slot = ctypes.POINTER(_capi.eredu_member_list)()
    call(function, *args, ctypes.byref(slot))
    with MemberList(slot) as members:
        return members.members()


class ParameterGroupSpec(Handle):
    """An atomic logical parameter and all its physical members (seed
    ParameterGroupSpec), validated and immutable; safe to read from any
    number of threads. Built by eredu_group_new: ParameterGroupSpec.new
    (no partition) or ParameterGroupSpec.partitioned(units).

    `query_units` (eredu_group_desc.query_units) is the query-head count of
    a grouped-query attention group whose partition units are its KV heads:
    a positive multiple of `partition_units`, which it needs. At a tensor
    size T up to the H KV heads the group plans as without it; above, T must
    be a multiple of H that divides query_units (KV-head replication,
    docs/planning.md): tensor rank t then holds KV head t // (T // H) whole
    in its per_kv_head members and query heads
    [t * query_units // T, (t + 1) * query_units // T) in the other
    partitioned members; any other T raises ParallelPlanError
    (EREDU_E_INVALID_TENSOR) when a rank is planned.

    `vocab_pad_multiple` (eredu_group_desc.vocab_pad_multiple) pads the
    vocabulary rows of a VOCABULARY group's BALANCED members to a multiple M
    (Vocabulary padding, docs/planning.md): at tensor size T the V rows are
    padded to P = ceil(V / (M * T)) * M * T and each tensor rank allocates
    P // T of them, reading its part of the checkpoint's V and reporting the
    rest as LocalTensorLayout `padding_rows`. An M of 0, another role, no
    BALANCED member or BALANCED members with different extents on their
    axes raises ParallelPlanError (EREDU_E_INVALID_GROUP).

    Raises ParallelPlanError (EREDU_E_INVALID_GROUP) for the seed's rules,
    GeneralError (EREDU_E_INVALID_ARGUMENT, ...) for bad arguments.
    """

    _FREE = "eredu_group_free"

    def __init__(self, logical_name, role, members, *, partition_units=None, scope=None,
                 query_units=None, vocab_pad_multiple=None):
        desc = _capi.sized(_capi.eredu_group_desc)
        desc.name = convert.text(logical_name, "logical_name")
        desc.role = convert.u32(role, "role")
        if partition_units is not None:
            desc.has_partition_units = 1
            desc.partition_units = convert.u64(partition_units, "units")
        desc.scope = scope_struct(scope)
        if query_units is not None:
            desc.has_query_units = 1
            desc.query_units = convert.u64(query_units, "query_units")
        if vocab_pad_multiple is not None:
            desc.has_vocab_pad_multiple = 1
            desc.vocab_pad_multiple = convert.u64(vocab_pad_multiple, "vocab_pad_multiple")
        array, count = member_array(members)
        slot = ctypes.POINTER(_capi.eredu_group)()
        call(lib.eredu_group_new, ctypes.byref(desc), array, count, ctypes.byref(slot))
        super().__init__(slot)

    @classmethod
    def new(cls, logical_name, role, members, *, scope=None, vocab_pad_multiple=None):
        """seed ParameterGroupSpec::new: a group without logical partition
        (a padded vocabulary when `vocab_pad_multiple` is given)."""
        return cls(logical_name, role, members, scope=scope,
                   vocab_pad_multiple=vocab_pad_multiple)

    @classmethod
    def partitioned(cls, logical_name, role, units, members, *, scope=None, query_units=None):
        """seed ParameterGroupSpec::partitioned: partitioned members share
        `units` logical units (the KV heads when `query_units` is given)."""
        return cls(logical_name, role, members, partition_units=units, scope=scope,
                   query_units=query_units)

    @classmethod
    def _adopt(cls, slot):
        group = cls.__new__(cls)
        Handle.__init__(group, slot)
        return group

    def _info(self):
        info = _capi.sized(_capi.eredu_group_info)
        call(lib.eredu_group_get_info, self._handle(), ctypes.byref(info))
        return info

    def logical_name(self):
        """The group's logical name."""
        info = self._info()
        return _capi.text(info, "name", info.name_length)

    def role(self):
        """The ParameterRole."""
        return ParameterRole(self._info().role)

    def partition_units(self):
        """The shared logical-unit count, or None when not partitioned."""
        info = self._info()
        return info.partition_units if info.has_partition_units else None

    def query_units(self):
        """The query-head count of a grouped-query group, or None."""
        info = self._info()
        return info.query_units if info.has_query_units else None

    def vocab_pad_multiple(self):
        """The vocabulary padding multiple of a padded vocabulary group, or
        None."""
        info = self._info()
        return info.vocab_pad_multiple if info.has_vocab_pad_multiple else None

    def scope(self):
        """The GroupScope."""
        info = self._info()
        return GroupScope(ScopeKind(info.scope_kind), info.layer if info.has_layer else None,
                          info.expert if info.has_expert else None)

    def member_count(self):
        """The number of members."""
        return self._info().member_count

    def _member(self, index):
        desc = _capi.sized(_capi.eredu_member_desc)
        call(lib.eredu_group_member, self._handle(), index, ctypes.byref(desc))
        return desc

    def member_target(self, index):
        """The target of member `index` (0-based, member order)."""
        return self._member(convert.size(index, "index")).target.decode("utf-8")

    def members(self):
        """The members as ParameterMemberSpecs, in member order."""
        return [member_from_struct(self._member(index)) for index in range(self.member_count())]

    def __repr__(self):
        if self.closed:
            return "<ParameterGroupSpec closed>"
        return f"<ParameterGroupSpec {self.logical_name()!r} {self.role().name}>"


def group_array(groups):
    """ParameterGroupSpecs as a C array of handles."""
    handles = [handle_of(group, "ParameterGroupSpec", f"groups[{i}]")
               for i, group in enumerate(groups)]
    return (ctypes.POINTER(_capi.eredu_group) * len(handles))(*handles), len(handles)


def partitioned_group_with_preferred_units(logical_name, role, preferred_units, members, *,
                                           scope=None):
    """seed partitioned_group_with_preferred_units: the units are
    `preferred_units` reduced by gcd with every partitioned dimension and
    segment length, in member order."""
    name = convert.text(logical_name, "logical_name")
    array, count = member_array(members)
    slot = ctypes.POINTER(_capi.eredu_group)()
    call(lib.eredu_partitioned_group_with_preferred_units, name, convert.u32(role, "role"),
         convert.u64(preferred_units, "preferred_units"), scope_struct(scope), array, count,
         ctypes.byref(slot))
    return ParameterGroupSpec._adopt(slot)


def aligned_partition_units(logical_name, semantic_units, elements_per_unit, required_alignment):
    """seed aligned_partition_units: the finest unit count whose partitions
    hold whole blocks of `required_alignment` elements."""
    out = ctypes.c_uint64()
    call(lib.eredu_aligned_partition_units, convert.text(logical_name, "logical_name"),
         convert.u64(semantic_units, "semantic_units"),
         convert.u64(elements_per_unit, "elements_per_unit"),
         convert.u64(required_alignment, "required_alignment"), ctypes.byref(out))
    return out.value
