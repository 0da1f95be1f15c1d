# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The eredu authors

"""The offload core and the seed's weight-residency runtime pieces
(eredu/runtime/residency.h; docs/residency.md):
OffloadConfig, OffloadUnitSpec, OffloadPlan, WeightBinding /
TensorSelection, StaticUnitBindings, DenseTransferSchedule, ParameterBankKey
unit ids and ExpertPass -> ParameterBankAccess. Bytes are bytes; windows,
depths and capacities count units (or transfers)."""
import ctypes
import dataclasses
import enum

from . import _capi
from . import _convert as convert
from ._handle import Handle
from ._library import lib
from .errors import EreduError, call
from .status import EREDU_E_BUFFER_TOO_SMALL

#: Current plus next unit retained by dense streamed execution.
DENSE_TRANSFER_WINDOW = 2
#: Default bound of cached checkpoint shards/readers.
DEFAULT_MAX_CACHED_SHARDS = 4


class MemoryTier(enum.IntEnum):
    """seed MemoryTier, ordered DEVICE < HOST < DISK (EREDU_MEMORY_TIER_*)."""

    DEVICE = 0
    HOST = 1
    DISK = 2


class ResidencyPolicy(enum.IntEnum):
    """Lifetime policy of an offload unit (EREDU_RESIDENCY_POLICY_*)."""

    PINNED = 0
    WINDOWED = 1
    CACHEABLE = 2


class CacheEvictionPolicy(enum.IntEnum):
    """Cache eviction order (EREDU_EVICTION_*)."""

    LEAST_RECENTLY_USED = 0
    LEAST_FREQUENTLY_USED = 1


class SelectionKind(enum.IntEnum):
    """The variant of a TensorSelection (EREDU_SELECTION_*)."""

    FULL = 0
    RANGE = 1
    INDICES = 2
    CONTIGUOUS = 3


class ExpertPass(enum.IntEnum):
    """seed ExpertPass (EREDU_EXPERT_PASS_*)."""

    PREFILL = 0
    DECODE = 1


class ParameterBankAccess(enum.IntEnum):
    """seed ParameterBankAccess (EREDU_PARAMETER_BANK_ACCESS_*)."""

    BULK = 0
    INCREMENTAL = 1


@dataclasses.dataclass(frozen=True)
class OffloadConfig:
    """seed OffloadConfig: optional device and host budgets in bytes (None:
    unbounded), the prefetch depth in units (at least 1) and the eviction."""

    device_budget_bytes: int = None
    host_budget_bytes: int = None
    prefetch_depth: int = 1
    eviction_policy: CacheEvictionPolicy = CacheEvictionPolicy.LEAST_RECENTLY_USED

    def struct(self):
        """As an eredu_offload_config."""
        config = _capi.sized(_capi.eredu_offload_config)
        if self.device_budget_bytes is not None:
            config.has_device_budget = 1
            config.device_budget_bytes = convert.u64(self.device_budget_bytes, "device budget")
        if self.host_budget_bytes is not None:
            config.has_host_budget = 1
            config.host_budget_bytes = convert.u64(self.host_budget_bytes, "host budget")
        config.prefetch_depth = convert.u64(self.prefetch_depth, "prefetch_depth")
        config.eviction_policy = convert.u32(self.eviction_policy, "eviction_policy")
        return config

    @classmethod
    def from_struct(cls, config):
        """From an eredu_offload_config or an eredu_offload_plan_info."""
        return cls(config.device_budget_bytes if config.has_device_budget else None,
                   config.host_budget_bytes if config.has_host_budget else None,
                   config.prefetch_depth, CacheEvictionPolicy(config.eviction_policy))


@dataclasses.dataclass(frozen=True)
class OffloadUnitSpec:
    """seed OffloadUnitSpec: one atomic residency unit of `bytes` bytes."""

    id: str
    bytes: int
    policy: ResidencyPolicy = ResidencyPolicy.PINNED
    tier: MemoryTier = MemoryTier.DEVICE


class OffloadPlan(Handle):
    """seed OffloadPlan: validated units (sorted by id) under budgets;
    immutable, readable from any number of threads.

    Raises OffloadError (EREDU_E_ZERO_PREFETCH_DEPTH, EREDU_E_EMPTY_UNIT_ID,
    EREDU_E_ZERO_SIZED_UNIT, EREDU_E_CONTRADICTORY_ASSIGNMENT,
    EREDU_E_DUPLICATE_UNIT_ID, EREDU_E_BYTE_TOTAL_OVERFLOW,
    EREDU_E_BUDGET_EXCEEDED) in the order of docs/residency.md, "Offload
    plans"."""

    _FREE = "eredu_offload_plan_free"

    def __init__(self, config, units):
        descs = []
        for unit in units:
            desc = _capi.sized(_capi.eredu_offload_unit_desc)
            desc.id = convert.text(unit.id, "unit id")
            desc.bytes = convert.u64(unit.bytes, "unit bytes")
            desc.policy = convert.u32(unit.policy, "unit policy")
            desc.tier = convert.u32(unit.tier, "unit tier")
            descs.append(desc)
        pointer = ctypes.POINTER(_capi.eredu_offload_unit_desc)
        array = (pointer * len(descs))(*map(ctypes.pointer, descs))
        config = None if config is None else ctypes.byref(config.struct())
        slot = ctypes.POINTER(_capi.eredu_offload_plan)()
        call(lib.eredu_offload_plan_new, config, array, len(descs), ctypes.byref(slot))
        super().__init__(slot)

    def validate(self):
        """seed OffloadPlan::validate (a built plan always passes)."""
        call(lib.eredu_offload_plan_validate, self._handle())

    def _info(self):
        info = _capi.sized(_capi.eredu_offload_plan_info)
        call(lib.eredu_offload_plan_get_info, self._handle(), ctypes.byref(info))
        return info

    def config(self):
        """The plan's OffloadConfig."""
        return OffloadConfig.from_struct(self._info())  # the info has the config's fields

    def _unit_at(self, index):
        desc = _capi.sized(_capi.eredu_offload_unit_desc)
        call(lib.eredu_offload_plan_unit, self._handle(), index, ctypes.byref(desc))
        return OffloadUnitSpec(desc.id.decode("utf-8"), desc.bytes, ResidencyPolicy(desc.policy),
                               MemoryTier(desc.tier))

    def units(self):
        """The OffloadUnitSpecs, sorted byte-wise by id."""
        count = lib.eredu_offload_plan_unit_count(self._handle())
        return [self._unit_at(index) for index in range(count)]

    def unit(self, unit_id):
        """The unit with this id (GeneralError EREDU_E_NOT_FOUND)."""
        index = ctypes.c_size_t()
        call(lib.eredu_offload_plan_find_unit, self._handle(), convert.text(unit_id, "id"),
             ctypes.byref(index))
        return self._unit_at(index.value)

    def planned_bytes(self, tier):
        """The bytes planned on a MemoryTier (the sum of its units' bytes)."""
        field = _PLANNED_BYTES[convert.member(MemoryTier, tier, "tier")]
        return getattr(self._info(), field)


_PLANNED_BYTES = {MemoryTier.DEVICE: "planned_device_bytes", MemoryTier.HOST: "planned_host_bytes",
                  MemoryTier.DISK: "planned_disk_bytes"}


@dataclasses.dataclass(frozen=True)
class TensorSelection:
    """Which elements of a checkpoint tensor a binding reads (plain data;
    build with the class methods)."""

    kind: SelectionKind = SelectionKind.FULL
    axis: int = 0
    start: int = 0
    end: int = 0
    indices: tuple = ()
    offset_elements: int = 0
    shape: tuple = ()

    @classmethod
    def full(cls):
        return cls()

    @classmethod
    def range(cls, axis, start, end):
        return cls(SelectionKind.RANGE, axis, start, end)

    @classmethod
    def index_list(cls, axis, indices):
        return cls(SelectionKind.INDICES, axis, indices=tuple(indices))

    @classmethod
    def contiguous(cls, offset_elements, shape):
        return cls(SelectionKind.CONTIGUOUS, offset_elements=offset_elements, shape=tuple(shape))

    def struct(self):
        selection = _capi.sized(_capi.eredu_tensor_selection)
        selection.kind = convert.u32(self.kind, "selection kind")
        selection.axis = convert.u64(self.axis, "selection axis")
        selection.start = convert.u64(self.start, "selection start")
        selection.end = convert.u64(self.end, "selection end")
        selection.indices = convert.u64_array(self.indices, "selection indices")
        selection.index_count = len(self.indices)
        selection.offset_elements = convert.u64(self.offset_elements, "offset_elements")
        selection.shape = convert.u64_array(self.shape, "selection shape")
        selection.ndim = len(self.shape)
        return selection

    @classmethod
    def from_struct(cls, selection):
        return cls(SelectionKind(selection.kind), selection.axis, selection.start, selection.end,
                   tuple(selection.indices[:selection.index_count]) if selection.index_count
                   else (), selection.offset_elements,
                   tuple(selection.shape[:selection.ndim]) if selection.ndim else ())


@dataclasses.dataclass(frozen=True)
class WeightBinding:
    """A named weight read from one checkpoint key (WeightBinding::new, then
    with_logical_target); `selection` None means the whole tensor."""

    name: str
    checkpoint_key: str
    selection: TensorSelection = None
    expected_bytes: int = 0
    logical_target: str = None

    def struct(self):
        desc = _capi.sized(_capi.eredu_weight_binding_desc)
        desc.name = convert.text(self.name, "binding name")
        desc.checkpoint_key = convert.text(self.checkpoint_key, "checkpoint_key")
        if self.selection is not None:
            desc.selection = ctypes.pointer(self.selection.struct())
        desc.expected_bytes = convert.u64(self.expected_bytes, "expected_bytes")
        if self.logical_target is not None:
            desc.logical_target = convert.text(self.logical_target, "logical_target")
        return desc

    def validate(self):
        """The seed's construction rules; raises WeightBindingError."""
        call(lib.eredu_weight_binding_validate, ctypes.byref(self.struct()))


class StaticUnitBindings(Handle):
    """seed StaticUnitBindings: a pinned unit id and its bindings,
    immutable. Raises WeightBindingError, then OffloadError
    (EREDU_E_EMPTY_UNIT_ID)."""

    _FREE = "eredu_static_unit_bindings_free"

    def __init__(self, unit_id, bindings):
        descs = [binding.struct() for binding in bindings]
        pointer = ctypes.POINTER(_capi.eredu_weight_binding_desc)
        array = (pointer * len(descs))(*map(ctypes.pointer, descs))
        slot = ctypes.POINTER(_capi.eredu_static_unit_bindings)()
        call(lib.eredu_static_unit_bindings_new, convert.text(unit_id, "id"), array, len(descs),
             ctypes.byref(slot))
        super().__init__(slot)

    def id(self):
        """The unit id, as given."""
        text, length = ctypes.c_char_p(), ctypes.c_size_t()
        call(lib.eredu_static_unit_bindings_id, self._handle(), ctypes.byref(text),
             ctypes.byref(length))
        return convert.read_text(text, length.value)

    def bindings(self):
        """The WeightBindings, in order."""
        handle = self._handle()
        result = []
        for index in range(lib.eredu_static_unit_bindings_count(handle)):
            desc = _capi.sized(_capi.eredu_weight_binding_desc)
            call(lib.eredu_static_unit_bindings_binding, handle, index, ctypes.byref(desc))
            result.append(WeightBinding(
                desc.name.decode("utf-8"), desc.checkpoint_key.decode("utf-8"),
                TensorSelection.from_struct(desc.selection.contents), desc.expected_bytes,
                desc.logical_target.decode("utf-8") if desc.logical_target else None))
        return result


class DenseTransferSchedule(Handle):
    """seed DenseTransferSchedule: transfers admitted strictly in pending
    order into a ready window of `capacity`, popped oldest first. Tokens are
    integers in [0, 2**64) (e.g. indices into the caller's own table). A
    single-threaded cursor: calls must not overlap.

    Raises DenseTransferScheduleError (EREDU_E_ZERO_CAPACITY,
    EREDU_E_UNORDERED_PENDING, EREDU_E_CAPACITY_EXCEEDED,
    EREDU_E_NO_PENDING_UNIT, EREDU_E_OUT_OF_ORDER)."""

    _FREE = "eredu_dense_transfer_schedule_free"

    def __init__(self, pending, capacity):
        """`pending`: strictly increasing unit indices, or a range (O(1)
        memory whatever its length)."""
        slot = ctypes.POINTER(_capi.eredu_dense_transfer_schedule)()
        capacity = convert.size(capacity, "capacity")
        if isinstance(pending, range) and pending.step == 1:
            call(lib.eredu_dense_transfer_schedule_new_range, convert.u64(pending.start, "start"),
                 convert.u64(pending.stop, "end"), capacity, ctypes.byref(slot))
        else:
            pending = list(pending)
            call(lib.eredu_dense_transfer_schedule_new, convert.u64_array(pending, "pending"),
                 len(pending), capacity, ctypes.byref(slot))
        super().__init__(slot)

    def admit(self, index, token=0):
        """Commits the submitted transfer of the next pending unit."""
        call(lib.eredu_dense_transfer_schedule_admit, self._handle(), convert.u64(index, "index"),
             convert.u64(token, "token"))

    def pop_ready(self):
        """(index, token) of the oldest ready transfer, or None."""
        index, token, popped = ctypes.c_uint64(), ctypes.c_uint64(), ctypes.c_bool()
        call(lib.eredu_dense_transfer_schedule_pop_ready, self._handle(), ctypes.byref(index),
             ctypes.byref(token), ctypes.byref(popped))
        return (index.value, token.value) if popped.value else None

    def desired_indices(self, lookahead):
        """Ready indices (oldest first) then pending ones, at most
        `lookahead`."""
        handle, lookahead = self._handle(), convert.size(lookahead, "lookahead")
        function, count = lib.eredu_dense_transfer_schedule_desired_indices, ctypes.c_size_t()
        try:
            call(function, handle, lookahead, None, 0, ctypes.byref(count))
            return []
        except EreduError as error:
            if error.code != EREDU_E_BUFFER_TOO_SMALL:
                raise
        buffer = (ctypes.c_uint64 * count.value)()
        call(function, handle, lookahead, buffer, count.value, ctypes.byref(count))
        return list(buffer[:count.value])

    def can_admit(self):
        """Whether the ready window has room for the next pending unit."""
        return lib.eredu_dense_transfer_schedule_can_admit(self._handle())

    def has_ready(self):
        return lib.eredu_dense_transfer_schedule_has_ready(self._handle())

    def is_exhausted(self):
        return lib.eredu_dense_transfer_schedule_is_exhausted(self._handle())

    def next_pending(self):
        """The next unit that must be submitted, or None."""
        index, present = ctypes.c_uint64(), ctypes.c_bool()
        call(lib.eredu_dense_transfer_schedule_next_pending, self._handle(), ctypes.byref(index),
             ctypes.byref(present))
        return index.value if present.value else None


def parameter_bank_unit_id(unit, member):
    """seed ParameterBankKey::new(unit, member).unit_id():
    "bank.unit.00003.member.00007"."""
    unit, member = convert.u64(unit, "unit"), convert.u64(member, "member")
    required = ctypes.c_size_t()
    buffer = ctypes.create_string_buffer(64)
    call(lib.eredu_parameter_bank_key_unit_id, unit, member, buffer, len(buffer),
         ctypes.byref(required))
    return buffer.value.decode("ascii")


def parameter_bank_access(expert_pass):
    """seed ExpertPass::parameter_bank_access."""
    out = ctypes.c_uint32()
    call(lib.eredu_expert_pass_parameter_bank_access, convert.u32(expert_pass, "pass"),
         ctypes.byref(out))
    return ParameterBankAccess(out.value)
