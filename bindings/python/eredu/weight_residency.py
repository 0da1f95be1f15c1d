# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The eredu authors

"""The seed's immutable-weight residency policies (eredu/runtime/residency_policy.h;
docs/residency.md):
WeightResidency over fully resident / layerwise host / dense disk stream
layers, with an optional independent parameter-bank cache, validated by
the library into a ResidencySummary. Options are plain values whose None
fields take the library's defaults (the seed's Default impls)."""
import ctypes
import dataclasses
import enum

from . import _capi
from . import _convert as convert
from ._library import lib
from .errors import call
from .residency import CacheEvictionPolicy, OffloadConfig


class ExecutionResidency(enum.IntEnum):
    """Placement of ordinary units (EREDU_EXECUTION_RESIDENCY_*)."""

    FULLY_RESIDENT = 0
    LAYERWISE_HOST = 1
    DENSE_DISK_STREAM = 2


class ResidencyRequest(enum.IntEnum):
    """The residency a preparation asks for (EREDU_RESIDENCY_REQUEST_*)."""

    FULLY_RESIDENT = 0
    LAYERWISE_HOST = 1
    DENSE_DISK_STREAM = 2
    ADDRESSABLE_PARAMETER_BANKS = 3


def _set(struct, field, value, converter=convert.u64):
    if value is not None:
        setattr(struct, field, converter(value, field))


@dataclasses.dataclass(frozen=True)
class LayerwiseLoadOptions:
    """seed LayerwiseLoadOptions: tier budgets and device window (an
    OffloadConfig), shard-reader cache bound, memory sampling."""

    offload: OffloadConfig = None
    max_cached_shards: int = None
    sample_backend_memory: bool = False
    sample_process_memory: bool = False

    def struct(self):
        options = _capi.defaults(_capi.eredu_layerwise_options)
        if self.offload is not None:
            options.offload = ctypes.pointer(self.offload.struct())
        _set(options, "max_cached_shards", self.max_cached_shards)
        options.sample_backend_memory = convert.flag(self.sample_backend_memory)
        options.sample_process_memory = convert.flag(self.sample_process_memory)
        return options


@dataclasses.dataclass(frozen=True)
class DenseDiskStreamLoadOptions:
    """seed DenseDiskStreamLoadOptions: finite device and host budgets in
    bytes, host lookahead and background queue capacity in units (both 0
    with a zero host budget), eviction, shard-reader bound, sampling."""

    device_budget_bytes: int = None
    host_budget_bytes: int = None
    host_lookahead: int = None
    background_queue_capacity: int = None
    eviction_policy: CacheEvictionPolicy = None
    max_cached_shards: int = None
    sample_backend_memory: bool = False
    sample_process_memory: bool = False

    def struct(self):
        options = _capi.defaults(_capi.eredu_dense_stream_options)
        for field in ("device_budget_bytes", "host_budget_bytes", "host_lookahead",
                      "background_queue_capacity", "max_cached_shards"):
            _set(options, field, getattr(self, field))
        _set(options, "eviction_policy", self.eviction_policy, convert.u32)
        options.sample_backend_memory = convert.flag(self.sample_backend_memory)
        options.sample_process_memory = convert.flag(self.sample_process_memory)
        return options


@dataclasses.dataclass(frozen=True)
class ParameterBankLoadOptions:
    """seed ParameterBankLoadOptions: the bank members' OffloadConfig, the
    hard compact-bank bound and the soft prefill target, in bytes."""

    members: OffloadConfig = None
    compact_bank_scratch_bytes: int = None
    prefill_compact_bank_target_bytes: int = None

    def struct(self):
        options = _capi.defaults(_capi.eredu_parameter_bank_options)
        if self.members is not None:
            options.members = ctypes.pointer(self.members.struct())
        _set(options, "compact_bank_scratch_bytes", self.compact_bank_scratch_bytes)
        _set(options, "prefill_compact_bank_target_bytes",
             self.prefill_compact_bank_target_bytes)
        return options


@dataclasses.dataclass(frozen=True)
class ResidencySummary:
    """What a valid WeightResidency derives for a unit count, and every
    option it holds (eredu_residency_summary, field for field)."""

    execution_residency: ExecutionResidency
    offload: OffloadConfig
    device_depth: int
    max_cached_shards: int
    preparation_residency: ResidencyRequest
    is_fully_resident: bool
    ordinary_is_fully_resident: bool
    sample_backend_memory: bool
    sample_process_memory: bool
    dense_host_lookahead: int
    dense_background_queue_capacity: int
    parameter_bank_cache: ParameterBankLoadOptions

    @classmethod
    def from_struct(cls, s):
        offload = OffloadConfig(
            s.offload_device_budget_bytes if s.offload_has_device_budget else None,
            s.offload_host_budget_bytes if s.offload_has_host_budget else None,
            s.offload_prefetch_depth, CacheEvictionPolicy(s.offload_eviction_policy))
        bank = None
        if s.has_parameter_bank_cache:
            members = OffloadConfig(
                s.parameter_bank_device_budget_bytes if s.parameter_bank_has_device_budget
                else None,
                s.parameter_bank_host_budget_bytes if s.parameter_bank_has_host_budget else None,
                s.parameter_bank_prefetch_depth,
                CacheEvictionPolicy(s.parameter_bank_eviction_policy))
            bank = ParameterBankLoadOptions(members, s.parameter_bank_compact_scratch_bytes,
                                            s.parameter_bank_prefill_target_bytes)
        return cls(ExecutionResidency(s.execution_residency), offload, s.device_depth,
                   s.max_cached_shards, ResidencyRequest(s.preparation_residency),
                   bool(s.is_fully_resident), bool(s.ordinary_is_fully_resident),
                   bool(s.sample_backend_memory), bool(s.sample_process_memory),
                   s.dense_host_lookahead, s.dense_background_queue_capacity, bank)


@dataclasses.dataclass(frozen=True)
class WeightResidency:
    """seed WeightResidency: the ordinary layers' placement with its options,
    plus an optional independent parameter-bank cache."""

    layers: ExecutionResidency = ExecutionResidency.FULLY_RESIDENT
    layerwise: LayerwiseLoadOptions = None
    dense: DenseDiskStreamLoadOptions = None
    parameter_bank_cache: ParameterBankLoadOptions = None

    @classmethod
    def fully_resident(cls):
        return cls()

    @classmethod
    def layerwise_host(cls, options=None):
        return cls(ExecutionResidency.LAYERWISE_HOST, layerwise=options)

    @classmethod
    def dense_disk_stream(cls, options=None):
        return cls(ExecutionResidency.DENSE_DISK_STREAM, dense=options)

    def with_independent_parameter_banks(self, cache):
        """seed WeightResidency::with_independent_parameter_banks(self's
        layers, cache)."""
        return dataclasses.replace(self, parameter_bank_cache=cache)

    def struct(self):
        """As an eredu_weight_residency_desc (keeping its options alive)."""
        desc = _capi.defaults(_capi.eredu_weight_residency_desc)
        desc.layers = convert.u32(self.layers, "layers")
        if self.layerwise is not None:
            desc.layerwise = ctypes.pointer(self.layerwise.struct())
        if self.dense is not None:
            desc.dense = ctypes.pointer(self.dense.struct())
        if self.parameter_bank_cache is not None:
            desc.parameter_bank_cache = ctypes.pointer(self.parameter_bank_cache.struct())
        return desc

    def validate(self, unit_count=0):
        """Checks the policy as the seed's constructors do and returns its
        ResidencySummary for `unit_count` ordinary units. Raises OffloadError
        (EREDU_E_ZERO_PREFETCH_DEPTH) and WeightResidencyPolicyError
        (EREDU_E_HOST_DISABLED_CONTROLS, EREDU_E_ZERO_HOST_LOOKAHEAD, ...)."""
        summary = _capi.sized(_capi.eredu_residency_summary)
        call(lib.eredu_residency_validate, ctypes.byref(self.struct()),
             convert.u64(unit_count, "unit_count"), ctypes.byref(summary))
        return ResidencySummary.from_struct(summary)


def residency_from_json(text, unit_count=0):
    """Validates an eredu.residency.v1 document (str or UTF-8 bytes;
    docs/residency.md, "Policies as JSON") and returns its ResidencySummary
    for `unit_count` ordinary units, as WeightResidency.validate does.
    Raises GeneralError (EREDU_E_PARSE, EREDU_E_UNSUPPORTED_VERSION),
    OffloadError, WeightResidencyPolicyError, in the documented order."""
    data = convert.document(text, "text")
    summary = _capi.sized(_capi.eredu_residency_summary)
    call(lib.eredu_residency_from_json, data, len(data), convert.u64(unit_count, "unit_count"),
         ctypes.byref(summary))
    return ResidencySummary.from_struct(summary)
