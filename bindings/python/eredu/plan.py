# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The eredu authors

"""The rank planner and its result (seed ShardingPolicy, plan_rank,
LocalModelLayout, LocalTensorLayout, TensorPlacement; eredu/plan.h,
eredu/layout.h).

Units: shapes, axes, offsets, ranges and index counts are in elements
(logical units for logical ranges); bytes are bytes.
"""
import ctypes
import dataclasses
import enum

from . import _capi
from . import _convert as convert
from ._handle import Handle, handle_of
from ._library import lib
from .errors import EreduError, call
from .group import Dtype, ParameterRole
from .status import EREDU_E_NOT_FOUND

_byref = ctypes.byref
_TOPOLOGY_SIZE = ctypes.sizeof(_capi.eredu_topology)
_SIZE_MAX = 2 ** (8 * ctypes.sizeof(ctypes.c_size_t)) - 1
_text = _capi.text
_TensorInfo = _capi.eredu_layout_tensor_info
_TENSOR_INFO_SIZE = ctypes.sizeof(_TensorInfo)


class ShardingPolicy(enum.IntEnum):
    """What the planner does with a member it cannot shard (seed
    ShardingPolicy; EREDU_POLICY_*)."""

    REQUIRE = 0
    REPLICATE_UNSUPPORTED = 1
    #: REQUIRE, and every split must be exact (no uneven shards).
    REQUIRE_EVEN = 2


class PlacementKind(enum.IntEnum):
    """The variant of a TensorPlacement (EREDU_PLACEMENT_*)."""

    REPLICATED = 0
    LOCAL = 1
    OMIT = 2
    RANK = 3
    SHARD = 4
    RANGE = 5
    INDICES = 6


@dataclasses.dataclass(frozen=True)
class ParallelTopology:
    """Axis sizes tensor x pipeline x expert x data (seed ParallelTopology).
    A plain value: the library checks it when a rank is planned
    (EREDU_E_ZERO_AXIS, EREDU_E_WORLD_SIZE_OVERFLOW). Ranks enumerate
    expert fastest, then tensor, then pipeline, data outermost."""

    tensor: int = 1
    pipeline: int = 1
    expert: int = 1
    data: int = 1

    def __post_init__(self):
        for axis in ("tensor", "pipeline", "expert", "data"):
            convert.u64(getattr(self, axis), f"ParallelTopology.{axis}")

    @classmethod
    def of(cls, value):
        """A ParallelTopology, or one from a (tensor, pipeline, expert, data)
        sequence of exactly four sizes (a shorter one would be ambiguous)."""
        if isinstance(value, cls):
            return value
        if isinstance(value, (str, bytes)) or not hasattr(value, "__len__") or len(value) != 4:
            raise TypeError("topology must be a ParallelTopology or a (tensor, pipeline, expert, "
                            f"data) sequence of four sizes, got {value!r}")
        return cls(*value)

    @property
    def world_size(self):
        """T * P * E * D."""
        return self.tensor * self.pipeline * self.expert * self.data

    def struct(self):
        """As an eredu_topology (struct_size = its ctypes size)."""
        return _capi.eredu_topology(_TOPOLOGY_SIZE, self.tensor, self.pipeline,
                                    self.expert, self.data)

    @classmethod
    def from_struct(cls, struct):
        return cls(struct.tensor, struct.pipeline, struct.expert, struct.data)


@dataclasses.dataclass(frozen=True)
class ParallelCoordinates:
    """A rank's coordinate on every axis."""

    tensor: int
    pipeline: int
    expert: int
    data: int


@dataclasses.dataclass(frozen=True, repr=False)
class TensorPlacement:
    """How a rank selects one tensor (seed TensorPlacement). Only the fields
    of `kind` are set, the others are None:

    - REPLICATED, LOCAL, OMIT: none;
    - RANK: `rank`;
    - SHARD: `axis`, `index`, `parts` (equal part index of parts);
    - RANGE: `axis`, `start`, `end` (elements [start, end));
    - INDICES: `axis`, `runs` (half-open ranges whose concatenation is the
      seed's index list, adjacent runs merged) and `count`.
    """

    kind: PlacementKind
    axis: int = None
    rank: int = None
    index: int = None
    parts: int = None
    start: int = None
    end: int = None
    runs: tuple = None
    count: int = None

    def __repr__(self):
        fields = ", ".join(f"{field.name}={getattr(self, field.name)!r}"
                           for field in dataclasses.fields(self)[1:]
                           if getattr(self, field.name) is not None)
        return f"TensorPlacement.{self.kind.name}({fields})"

    def indices(self):
        """INDICES: the seed's ordered index list."""
        if self.kind != PlacementKind.INDICES:
            raise ValueError(f"a {self.kind.name} placement has no indices")
        return [i for run in self.runs for i in run]


def _frozen(cls, **values):
    """What cls(**values) makes for a frozen dataclass without __post_init__
    (the fields left out keep their class defaults), without the generated
    __init__, which sets each field through object.__setattr__: this is the
    per-tensor path of a layout, where that costs more than the library
    call."""
    made = _new(cls)
    made.__dict__.update(values)
    return made


_new = object.__new__
_placement_kind = convert.member_lookup(PlacementKind)
_role = convert.member_lookup(ParameterRole)
_dtype = convert.member_lookup(Dtype)
_RANGE, _SHARD, _INDICES, _RANK = (PlacementKind.RANGE, PlacementKind.SHARD,
                                   PlacementKind.INDICES, PlacementKind.RANK)


def _placement(info):
    """The TensorPlacement of an eredu_layout_tensor_info."""
    kind = _placement_kind(info.placement)
    if kind is _RANGE:
        return _frozen(TensorPlacement, kind=kind, axis=info.axis, start=info.start,
                       end=info.end)
    if kind is _SHARD:
        return _frozen(TensorPlacement, kind=kind, axis=info.axis, index=info.shard_index,
                       parts=info.shard_parts)
    if kind is _INDICES:
        flat = info.runs[:2 * info.run_count]
        runs = tuple(range(flat[i], flat[i + 1]) for i in range(0, len(flat), 2))
        return _frozen(TensorPlacement, kind=kind, axis=info.axis, runs=runs,
                       count=info.index_count)
    if kind is _RANK:
        return _frozen(TensorPlacement, kind=kind, rank=info.owner_rank)
    return _frozen(TensorPlacement, kind=kind)


def _shape(pointer, ndim):
    return tuple(pointer[:ndim]) if ndim else ()


def _expert_range(info):
    if not info.has_expert_range:
        return None
    return ExpertRange(info.expert_axis, info.expert_start, info.expert_end)


def _logical_range(info):
    return range(info.logical_start, info.logical_end) if info.has_logical_range else None


@dataclasses.dataclass(frozen=True)
class ExpertRange:
    """The routed experts [start, end) a rank holds on axis `axis` of a
    member stacking them (eredu.layout.v1 `expert_range`, Stacked experts,
    docs/planning.md)."""

    axis: int
    start: int
    end: int


@dataclasses.dataclass(frozen=True)
class LocalTensorLayout:
    """One tensor's plan on a rank (seed LocalTensorLayout plus the
    eredu.layout.v1 fields): a snapshot copied out of the layout.

    `logical_units` and `logical_range` (a range of logical units) are None
    when the group has no partition (the range also for an omitted tensor);
    `local_bytes` is None for a materialized tensor without a dtype, 0 when
    omitted; `local_shape` is () when omitted. `kv_head_copies`
    (eredu.layout.v1 `kv_head_copies`) is the number of tensor ranks holding
    this same selection: T / H for a per_kv_head member of a group with H KV
    heads planned at a tensor size T above H (KV-head replication), else
    1. `padding_rows` (eredu.layout.v1 `padding_rows`) are the rows of
    `local_shape` past the checkpoint's under vocabulary padding (see
    ParameterGroupSpec `vocab_pad_multiple`): allocated on this rank, not
    read; the range is the rows read, empty on a rank holding only padding.
    Else 0. `expert_range` is the ExpertRange this rank holds of a member
    stacking routed experts (ParameterMemberSpec `expert_axis`), on top of
    `placement` (a member the tensor ranks replicate has the range placement
    of the same experts); None for other members and when omitted."""

    target: str
    logical_name: str
    role: ParameterRole
    dtype: Dtype
    global_shape: tuple
    local_shape: tuple
    placement: TensorPlacement
    logical_units: int
    logical_range: range
    fell_back_to_replication: bool
    local_bytes: int
    kv_head_copies: int
    padding_rows: int
    expert_range: ExpertRange = None


@dataclasses.dataclass(frozen=True)
class LayoutTotals:
    """Byte and tensor totals of a layout (eredu.layout.v1 `totals`)."""

    local_bytes: int
    global_bytes: int
    materialized_tensors: int
    omitted_tensors: int
    unknown_bytes_tensors: int


def take_text(buffer, length):
    """A library-allocated buffer as str; the buffer is freed."""
    try:
        return ctypes.string_at(buffer, length).decode("utf-8")
    finally:
        lib.eredu_buffer_free(buffer)


class LocalModelLayout(Handle):
    """The immutable plan of one rank (seed LocalModelLayout): every tensor
    of the model in byte-wise ascending target order, addressed by index
    (0 .. len()-1) or target. Any number of threads may read it at once; it
    keeps its model description alive.

    A tensor is read with one library call (eredu_layout_get_tensor_info,
    every field at once): tensor_at() and tensor() return the whole record;
    placement(), local_shape() and the other per-field getters read it
    too, so use tensor_at() when more than one field is needed.

    Getters by target raise GeneralError EREDU_E_NOT_FOUND for an unknown
    target; getters by index raise EREDU_E_INVALID_ARGUMENT out of range.
    """

    _FREE = "eredu_layout_free"

    def len(self):
        """The number of tensors (seed LocalModelLayout::len)."""
        return lib.eredu_layout_tensor_count(self._handle())

    def __len__(self):
        return self.len()

    def is_empty(self):
        return self.len() == 0

    def topology(self):
        """The ParallelTopology the layout was planned for."""
        out = _capi.sized(_capi.eredu_topology)
        call(lib.eredu_layout_topology, self._handle(), _byref(out))
        return ParallelTopology.from_struct(out)

    def _info(self):
        info = _capi.sized(_capi.eredu_layout_info)
        call(lib.eredu_layout_get_info, self._handle(), _byref(info))
        return info

    def rank(self):
        """The global rank."""
        return self._info().rank

    def coordinates(self):
        """The rank's ParallelCoordinates."""
        info = self._info()
        return ParallelCoordinates(info.tensor_rank, info.pipeline_rank, info.expert_rank,
                                   info.data_rank)

    def policy(self):
        """The ShardingPolicy the layout was planned with."""
        return ShardingPolicy(self._info().policy)

    def totals(self):
        """The LayoutTotals."""
        info = self._info()
        return LayoutTotals(info.local_bytes, info.global_bytes, info.materialized_tensors,
                            info.omitted_tensors, info.unknown_bytes_tensors)

    def index(self, target):
        """The index of `target` (EREDU_E_NOT_FOUND when absent)."""
        out = ctypes.c_size_t()
        call(lib.eredu_layout_find_tensor, self._handle(), convert.text(target, "target"),
             _byref(out))
        return out.value

    def contains(self, target):
        """Whether `target` was planned (seed LocalModelLayout::contains)."""
        return self.tensor(target) is not None

    def _index(self, key):
        return self.index(key) if isinstance(key, str) else convert.size(key, "index")

    def _tensor_info(self, index):
        """The eredu_layout_tensor_info of tensor `index` (checked): one
        library call for every field. Its strings and shapes are borrowed
        from the layout: read them before the layout is closed."""
        info = _TensorInfo(_TENSOR_INFO_SIZE)
        function, handle = lib.eredu_layout_get_tensor_info, self._handle()
        if function(handle, index, _byref(info), None):
            # A pure read: called again with an error slot for the message.
            call(function, handle, index, _byref(info))
        return info

    def target(self, index):
        """The target of tensor `index`."""
        info = self._tensor_info(convert.size(index, "index"))
        return _text(info, "target", info.target_length)

    def placement(self, key):
        """The TensorPlacement of a tensor (by target or index)."""
        return _placement(self._tensor_info(self._index(key)))

    def local_shape(self, key):
        """The rank-local shape in elements; () when omitted."""
        info = self._tensor_info(self._index(key))
        return _shape(info.local_shape, info.local_ndim)

    def global_shape(self, key):
        """The checkpoint shape in elements."""
        info = self._tensor_info(self._index(key))
        return _shape(info.global_shape, info.global_ndim)

    def local_bytes(self, key):
        """Bytes on this rank; None for a materialized tensor without dtype."""
        info = self._tensor_info(self._index(key))
        return info.local_bytes if info.has_local_bytes else None

    def logical_units(self, key):
        """The group's logical-unit count, None when not partitioned."""
        info = self._tensor_info(self._index(key))
        return info.logical_units if info.has_logical_units else None

    def kv_head_copies(self, key):
        """The tensor ranks holding this same selection (T / H for a
        per_kv_head member under KV-head replication, else 1)."""
        return self._tensor_info(self._index(key)).kv_head_copies

    def padding_rows(self, key):
        """The allocated rows past the checkpoint's under vocabulary padding
        (else 0)."""
        return self._tensor_info(self._index(key)).padding_rows

    def expert_range(self, key):
        """The ExpertRange this rank holds of a member stacking routed
        experts, or None."""
        return _expert_range(self._tensor_info(self._index(key)))

    def logical_range(self, key):
        """The logical units this rank owns as a range, or None."""
        return _logical_range(self._tensor_info(self._index(key)))

    def tensor_at(self, index):
        """A LocalTensorLayout snapshot of tensor `index` (one library call)."""
        if type(index) is not int or not 0 <= index <= _SIZE_MAX:
            index = convert.size(index, "index")
        info = self._tensor_info(index)
        return _frozen(
            LocalTensorLayout,
            target=_text(info, "target", info.target_length),
            logical_name=_text(info, "logical_name", info.logical_name_length),
            role=_role(info.role),
            dtype=_dtype(info.dtype) if info.has_dtype else None,
            global_shape=_shape(info.global_shape, info.global_ndim),
            local_shape=_shape(info.local_shape, info.local_ndim),
            placement=_placement(info),
            logical_units=info.logical_units if info.has_logical_units else None,
            logical_range=_logical_range(info),
            fell_back_to_replication=bool(info.fell_back_to_replication),
            local_bytes=info.local_bytes if info.has_local_bytes else None,
            kv_head_copies=info.kv_head_copies,
            padding_rows=info.padding_rows,
            expert_range=_expert_range(info),
        )

    def tensor(self, target):
        """The LocalTensorLayout of `target`, or None (seed
        LocalModelLayout::tensor)."""
        try:
            return self.tensor_at(self.index(target))
        except EreduError as error:
            if error.code == EREDU_E_NOT_FOUND:
                return None
            raise

    def tensors(self):
        """(target, LocalTensorLayout) pairs in target order (seed
        LocalModelLayout::tensors)."""
        for index in range(self.len()):
            layout = self.tensor_at(index)
            yield layout.target, layout

    def to_json(self):
        """Canonical eredu.layout.v1 text (compact, one trailing newline),
        byte-identical across bindings."""
        buffer, length = ctypes.c_void_p(), ctypes.c_size_t()
        call(lib.eredu_layout_to_json, self._handle(), _byref(buffer), _byref(length))
        return take_text(buffer, length.value)

    def __repr__(self):
        if self.closed:
            return "<LocalModelLayout closed>"
        return f"<LocalModelLayout rank {self.rank()} of {self.topology()}, {self.len()} tensors>"


def plan_options(policy, threads, progress=None, pipeline_layers=None):
    """An eredu_plan_options: the policy, the threads the library may use
    (0: its own choice; 1: the calling thread only), an optional
    _capi.Progress (None: no callback) and the optional decoder layers of
    each pipeline stage (an iterable of integers; None or empty: balanced
    stages). The counts are copied into a C array the struct keeps alive
    (ctypes holds it in the struct's _objects), so the struct is complete
    for as long as it is referenced."""
    options = _capi.sized(_capi.eredu_plan_options)
    options.policy = convert.u32(policy, "policy")
    options.threads = convert.u32(threads, "threads")
    if progress is not None:
        options.progress = progress.pointer
    if pipeline_layers is not None:
        if isinstance(pipeline_layers, (str, bytes)) or not hasattr(pipeline_layers, "__iter__"):
            raise TypeError("pipeline_layers must be an iterable of layer counts, got "
                            f"{type(pipeline_layers).__name__}")
        counts = tuple(pipeline_layers)
        options.pipeline_layers = convert.u64_array(counts, "pipeline_layers")
        options.pipeline_layer_count = len(counts)
    return options


def plan_rank(model, topology, rank, policy=ShardingPolicy.REQUIRE, *, threads=0,
              pipeline_layers=None):
    """Plans global rank `rank` of `topology` (a ParallelTopology or a
    (tensor, pipeline, expert, data) tuple) for `model` (a
    ModelDescription): seed LocalModelLayout. Pure and atomic.

    `threads` bounds the threads the library may use, the calling one
    included: 0 (the default) lets it choose (two for a model of 16384
    tensors or more, else one), 1 plans on the calling thread only. The
    layout never depends on it.

    `pipeline_layers` chooses the pipeline stages' sizes: stage s owns
    pipeline_layers[s] consecutive decoder layers (one count per pipeline
    stage, each at least 1, summing to the model's layers; docs/planning.md,
    "Pipeline stages of chosen sizes"), e.g. `pipeline_layers=(1, 3)`. None
    (the default) or empty is the balanced split. The layout JSON then
    carries the counts as topology.pipeline_layers.

    Raises, in this order: GeneralError (EREDU_E_INVALID_ARGUMENT, unknown
    policy); TopologyError (EREDU_E_ZERO_AXIS, EREDU_E_WORLD_SIZE_OVERFLOW);
    GeneralError (EREDU_E_INVALID_ARGUMENT: pipeline_layers not one count
    per stage, a 0 count, a sum that overflows); TopologyError
    (EREDU_E_RANK_OUT_OF_RANGE, then EREDU_E_MISSING_LAYER_COUNT,
    EREDU_E_MISSING_EXPERT_COUNT, EREDU_E_EMPTY_PARTITION); GeneralError
    (EREDU_E_INVALID_ARGUMENT: pipeline_layers not summing to the model's
    decoder layers); ParallelPlanError (EREDU_E_INVALID_TENSOR, group by
    group). A pipeline_layers that is not an iterable of integers in
    [0, 2**64) raises TypeError or ValueError before the library is
    called."""
    handle = handle_of(model, "ModelDescription", "model")
    topology = ParallelTopology.of(topology).struct()
    options = plan_options(policy, threads, pipeline_layers=pipeline_layers)
    slot = ctypes.POINTER(_capi.eredu_layout)()
    call(lib.eredu_plan_rank, handle, _byref(topology), convert.u64(rank, "rank"),
         _byref(options), _byref(slot))
    layout = LocalModelLayout.__new__(LocalModelLayout)
    Handle.__init__(layout, slot)
    return layout
