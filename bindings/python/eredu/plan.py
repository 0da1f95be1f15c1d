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


class ShardingPolicy(enum.IntEnum):
    """What the planner does with a member it cannot shard (seed
    ShardingPolicy; EREDU_POLICY_*)."""

    REQUIRE = 0
    REPLICATE_UNSUPPORTED = 1


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


def _placement(struct):
    kind = PlacementKind(struct.kind)
    if kind == PlacementKind.RANK:
        return TensorPlacement(kind, rank=struct.rank)
    if kind == PlacementKind.SHARD:
        return TensorPlacement(kind, axis=struct.axis, index=struct.index, parts=struct.parts)
    if kind == PlacementKind.RANGE:
        return TensorPlacement(kind, axis=struct.axis, start=struct.start, end=struct.end)
    if kind == PlacementKind.INDICES:
        flat = struct.runs[:2 * struct.run_count]
        runs = tuple(range(flat[i], flat[i + 1]) for i in range(0, len(flat), 2))
        return TensorPlacement(kind, axis=struct.axis, runs=runs, count=struct.index_count)
    return TensorPlacement(kind)


@dataclasses.dataclass(frozen=True)
class LocalTensorLayout:
    """One tensor's plan on a rank (seed LocalTensorLayout plus the
    eredu.layout.v1 fields): a snapshot copied out of the layout.

    `logical_units` and `logical_range` (a range of logical units) are None
    when the group has no partition (the range also for an omitted tensor);
    `local_bytes` is None for a materialized tensor without a dtype, 0 when
    omitted; `local_shape` is () when omitted."""

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

    Getters by target raise GeneralError EREDU_E_NOT_FOUND for an unknown
    target; getters by index raise EREDU_E_INVALID_ARGUMENT out of range.
    """

    _FREE = "eredu_layout_free"

    def len(self):
        """The number of tensors (seed LocalModelLayout::len)."""
        out = ctypes.c_size_t()
        call(lib.eredu_layout_tensor_count, self._handle(), ctypes.byref(out))
        return out.value

    def __len__(self):
        return self.len()

    def is_empty(self):
        return self.len() == 0

    def topology(self):
        """The ParallelTopology the layout was planned for."""
        sizes = [ctypes.c_uint64() for _ in range(4)]
        call(lib.eredu_layout_topology, self._handle(), *map(ctypes.byref, sizes))
        return ParallelTopology(*(size.value for size in sizes))

    def rank(self):
        """The global rank."""
        out = ctypes.c_uint64()
        call(lib.eredu_layout_rank, self._handle(), ctypes.byref(out))
        return out.value

    def coordinates(self):
        """The rank's ParallelCoordinates."""
        values = [ctypes.c_uint64() for _ in range(4)]
        call(lib.eredu_layout_coordinates, self._handle(), *map(ctypes.byref, values))
        return ParallelCoordinates(*(value.value for value in values))

    def policy(self):
        """The ShardingPolicy the layout was planned with."""
        out = ctypes.c_uint32()
        call(lib.eredu_layout_policy, self._handle(), ctypes.byref(out))
        return ShardingPolicy(out.value)

    def totals(self):
        """The LayoutTotals."""
        struct = _capi.eredu_layout_totals()
        call(lib.eredu_layout_totals_init, ctypes.byref(struct))
        call(lib.eredu_layout_get_totals, self._handle(), ctypes.byref(struct))
        return LayoutTotals(struct.local_bytes, struct.global_bytes, struct.materialized_tensors,
                            struct.omitted_tensors, struct.unknown_bytes_tensors)

    def index(self, target):
        """The index of `target` (EREDU_E_NOT_FOUND when absent)."""
        out = ctypes.c_size_t()
        call(lib.eredu_layout_find_tensor, self._handle(), convert.text(target, "target"),
             ctypes.byref(out))
        return out.value

    def contains(self, target):
        """Whether `target` was planned (seed LocalModelLayout::contains)."""
        return self.tensor(target) is not None

    def target(self, index):
        """The target of tensor `index`."""
        return self._string(lib.eredu_layout_tensor_target, convert.size(index, "index"))

    def _string(self, function, index):
        text, length = ctypes.c_char_p(), ctypes.c_size_t()
        call(function, self._handle(), index, ctypes.byref(text), ctypes.byref(length))
        return convert.read_text(text, length.value)

    def _shape(self, function, index):
        shape, ndim = ctypes.POINTER(ctypes.c_uint64)(), ctypes.c_size_t()
        call(function, self._handle(), index, ctypes.byref(shape), ctypes.byref(ndim))
        return tuple(shape[:ndim.value]) if ndim.value else ()

    def _optional(self, function, index, ctype=ctypes.c_uint64):
        value, present = ctype(), ctypes.c_bool()
        call(function, self._handle(), index, ctypes.byref(value), ctypes.byref(present))
        return value.value if present.value else None

    def _index(self, key):
        if isinstance(key, str):
            return self.index(key)
        return convert.size(key, "index")

    def placement(self, key):
        """The TensorPlacement of a tensor (by target or index)."""
        struct = _capi.eredu_placement()
        call(lib.eredu_placement_init, ctypes.byref(struct))
        call(lib.eredu_layout_tensor_placement, self._handle(), self._index(key),
             ctypes.byref(struct))
        return _placement(struct)

    def local_shape(self, key):
        """The rank-local shape in elements; () when omitted."""
        return self._shape(lib.eredu_layout_tensor_local_shape, self._index(key))

    def global_shape(self, key):
        """The checkpoint shape in elements."""
        return self._shape(lib.eredu_layout_tensor_global_shape, self._index(key))

    def local_bytes(self, key):
        """Bytes on this rank; None for a materialized tensor without dtype."""
        return self._optional(lib.eredu_layout_tensor_local_bytes, self._index(key))

    def logical_units(self, key):
        """The group's logical-unit count, None when not partitioned."""
        return self._optional(lib.eredu_layout_tensor_logical_units, self._index(key))

    def logical_range(self, key):
        """The logical units this rank owns as a range, or None."""
        index = self._index(key)
        start, end, present = ctypes.c_uint64(), ctypes.c_uint64(), ctypes.c_bool()
        call(lib.eredu_layout_tensor_logical_range, self._handle(), index, ctypes.byref(start),
             ctypes.byref(end), ctypes.byref(present))
        return range(start.value, end.value) if present.value else None

    def tensor_at(self, index):
        """A LocalTensorLayout snapshot of tensor `index`."""
        index = convert.size(index, "index")
        handle = self._handle()
        role, fell_back = ctypes.c_uint32(), ctypes.c_bool()
        call(lib.eredu_layout_tensor_role, handle, index, ctypes.byref(role))
        call(lib.eredu_layout_tensor_fell_back, handle, index, ctypes.byref(fell_back))
        dtype = self._optional(lib.eredu_layout_tensor_dtype, index, ctypes.c_uint32)
        return LocalTensorLayout(
            target=self._string(lib.eredu_layout_tensor_target, index),
            logical_name=self._string(lib.eredu_layout_tensor_logical_name, index),
            role=ParameterRole(role.value),
            dtype=None if dtype is None else Dtype(dtype),
            global_shape=self.global_shape(index),
            local_shape=self.local_shape(index),
            placement=self.placement(index),
            logical_units=self.logical_units(index),
            logical_range=self.logical_range(index),
            fell_back_to_replication=fell_back.value,
            local_bytes=self.local_bytes(index),
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
        call(lib.eredu_layout_to_json, self._handle(), ctypes.byref(buffer), ctypes.byref(length))
        return take_text(buffer, length.value)

    def __repr__(self):
        if self.closed:
            return "<LocalModelLayout closed>"
        return f"<LocalModelLayout rank {self.rank()} of {self.topology()}, {self.len()} tensors>"


def plan_rank(model, topology, rank, policy=ShardingPolicy.REQUIRE):
    """Plans global rank `rank` of `topology` (a ParallelTopology or a
    (tensor, pipeline, expert, data) tuple) for
    `model` (a ModelDescription): seed LocalModelLayout. Pure and atomic.

    Raises, in this order: GeneralError (EREDU_E_INVALID_ARGUMENT, unknown
    policy); TopologyError (EREDU_E_ZERO_AXIS, EREDU_E_WORLD_SIZE_OVERFLOW,
    EREDU_E_RANK_OUT_OF_RANGE, then EREDU_E_MISSING_LAYER_COUNT,
    EREDU_E_MISSING_EXPERT_COUNT, EREDU_E_EMPTY_PARTITION); ParallelPlanError
    (EREDU_E_INVALID_TENSOR, group by group)."""
    handle = handle_of(model, "ModelDescription", "model")
    topology = ParallelTopology.of(topology)
    slot = ctypes.POINTER(_capi.eredu_layout)()
    call(lib.eredu_plan_rank, handle, topology.tensor, topology.pipeline,
         topology.expert, topology.data, convert.u64(rank, "rank"),
         convert.u32(policy, "policy"), ctypes.byref(slot))
    layout = LocalModelLayout.__new__(LocalModelLayout)
    Handle.__init__(layout, slot)
    return layout
