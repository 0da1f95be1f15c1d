# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The eredu authors

"""The seed's normalized cold-load request (eredu/runtime/request.h;
docs/residency.md, "Load requests"):
NormalizedLoadRequest with its parallel request, completion policy,
drafting intent, quantization, weight and state residency, validated into
a PreparationPolicy. Errors are NormalizedLoadRequestError (600-608),
TopologyError, CompletionPolicyError and the residency errors."""
import ctypes
import dataclasses
import enum

from . import _capi
from . import _convert as convert
from ._handle import Handle
from ._library import lib
from .errors import call
from .plan import ParallelTopology
from .weight_residency import ResidencyRequest, ResidencySummary

#: The bits a session-capabilities set may hold (bit i: the seed's i-th
#: positional boolean of SessionCapabilities::new).
SESSION_CAPABILITIES_MASK = 7


class CompletionCancellationMode(enum.IntEnum):
    """EREDU_CANCELLATION_*."""

    NATIVE_CANCEL = 0
    QUARANTINE_UNTIL_COMPLETE = 1


class PipelineActivationDtype(enum.IntEnum):
    """EREDU_ACTIVATION_DTYPE_*."""

    FLOAT16 = 0
    BFLOAT16 = 1
    FLOAT32 = 2


class QuantizationKind(enum.IntEnum):
    """EREDU_QUANTIZATION_*."""

    AFFINE = 0
    MXFP4 = 1


class DraftingPlanKind(enum.IntEnum):
    """EREDU_DRAFTING_PLAN_*."""

    DISABLED = 0
    EMBEDDED = 1
    EXTERNAL = 2


class DraftingKind(enum.IntEnum):
    """The variant of seed DraftingLoadRequest (EREDU_DRAFTING_*)."""

    ARCHITECTURE_DEFAULT = 0
    DISABLED = 1
    EMBEDDED = 2
    EXTERNAL_TARGET = 3


class CacheResidency(enum.IntEnum):
    """Mutable-state residency (EREDU_CACHE_RESIDENCY_*)."""

    DEVICE = 0
    PAGED = 1


@dataclasses.dataclass(frozen=True)
class CommunicationCompletionPolicy:
    """A bounded completion deadline in milliseconds and its cancellation."""

    timeout_millis: int
    cancellation: CompletionCancellationMode = CompletionCancellationMode.QUARANTINE_UNTIL_COMPLETE

    def validate(self):
        """seed CommunicationCompletionPolicy::new; raises
        CompletionPolicyError for a zero deadline."""
        call(lib.eredu_completion_policy_validate, convert.u64(self.timeout_millis, "timeout"),
             convert.u32(self.cancellation, "cancellation"))


@dataclasses.dataclass(frozen=True)
class QuantizationRequest:
    """seed QuantizationRequest: AFFINE(group_size, bits) or MXFP4; checked
    when a request is validated."""

    kind: QuantizationKind = QuantizationKind.AFFINE
    group_size: int = 64
    bits: int = 4

    @classmethod
    def affine(cls, group_size=64, bits=4):
        return cls(QuantizationKind.AFFINE, group_size, bits)

    @classmethod
    def mxfp4(cls):
        return cls(QuantizationKind.MXFP4, 0, 0)

    def struct(self):
        request = _capi.sized(_capi.eredu_quantization_request)
        request.kind = convert.u32(self.kind, "kind")
        request.group_size = convert.u32(self.group_size, "group_size")
        request.bits = convert.u8(self.bits, "bits")
        return request


@dataclasses.dataclass(frozen=True)
class ParallelLoadRequest:
    """seed ParallelLoadRequest: rank `rank` of `topology`, the pipeline
    wire's activation dtype, the invocation limits (batch, sequence) and
    the completion policy."""

    topology: ParallelTopology
    rank: int
    maximum_batch_size: int
    maximum_sequence_length: int
    activation_dtype: PipelineActivationDtype = PipelineActivationDtype.FLOAT32
    completion: CommunicationCompletionPolicy = CommunicationCompletionPolicy(30000)

    def struct(self):
        """As an eredu_parallel_load_desc (keeping its topology alive)."""
        desc = _capi.sized(_capi.eredu_parallel_load_desc)
        desc.topology = ctypes.pointer(ParallelTopology.of(self.topology).struct())
        desc.rank = convert.u64(self.rank, "rank")
        desc.activation_dtype = convert.u32(self.activation_dtype, "activation_dtype")
        desc.maximum_batch_size = convert.i32(self.maximum_batch_size, "maximum_batch_size")
        desc.maximum_sequence_length = convert.i32(self.maximum_sequence_length,
                                                   "maximum_sequence_length")
        desc.completion_timeout_millis = convert.u64(self.completion.timeout_millis, "timeout")
        desc.completion_cancellation = convert.u32(self.completion.cancellation, "cancellation")
        return desc

    @classmethod
    def from_struct(cls, d):
        """From an eredu_parallel_load_desc the library filled (its topology
        borrowed from the request: read at once)."""
        return cls(ParallelTopology.from_struct(d.topology.contents), d.rank,
                   d.maximum_batch_size, d.maximum_sequence_length,
                   PipelineActivationDtype(d.activation_dtype),
                   CommunicationCompletionPolicy(
                       d.completion_timeout_millis,
                       CompletionCancellationMode(d.completion_cancellation)))


@dataclasses.dataclass(frozen=True)
class DraftingPlan:
    """An execution plan's drafting mode (seed DraftingPlan)."""

    kind: DraftingPlanKind = DraftingPlanKind.DISABLED
    max_draft_tokens: int = 0


@dataclasses.dataclass(frozen=True)
class PreparationPolicy:
    """The portable preparation policy of a validated request."""

    quantization: QuantizationRequest
    residency: ResidencyRequest
    topology: ParallelTopology
    required_session_capabilities: int


class NormalizedLoadRequest(Handle):
    """seed NormalizedLoadRequest: a single-threaded builder (calls must not
    overlap). Each with_* method applies the seed's method in place,
    atomically (a failure changes nothing), and returns self for chaining.
    Order matters as in the seed: a completion policy set before
    with_parallel_execution makes it fail (ConflictingCompletionPolicy)."""

    _FREE = "eredu_load_request_free"

    def __init__(self, quantization=None):
        """NormalizedLoadRequest::default(), or ::with_quantization."""
        slot = ctypes.POINTER(_capi.eredu_load_request)()
        struct = None if quantization is None else ctypes.byref(quantization.struct())
        call(lib.eredu_load_request_new, struct, ctypes.byref(slot))
        super().__init__(slot)

    @classmethod
    def with_quantization(cls, quantization):
        return cls(quantization)

    def with_parallel_execution(self, parallel):
        call(lib.eredu_load_request_set_parallel_execution, self._handle(),
             ctypes.byref(parallel.struct()))
        return self

    def with_communication_completion_policy(self, policy):
        """seed set_communication_completion_policy: into the parallel
        request when attached, else the local slot."""
        call(lib.eredu_load_request_set_communication_completion_policy, self._handle(),
             convert.u64(policy.timeout_millis, "timeout"),
             convert.u32(policy.cancellation, "cancellation"))
        return self

    def with_drafting_plan(self, plan):
        struct = _capi.sized(_capi.eredu_drafting_plan)
        struct.kind = convert.u32(plan.kind, "kind")
        struct.max_draft_tokens = convert.u64(plan.max_draft_tokens, "max_draft_tokens")
        call(lib.eredu_load_request_set_drafting_plan, self._handle(), ctypes.byref(struct))
        return self

    def with_drafting(self, kind, max_draft_tokens=0):
        call(lib.eredu_load_request_set_drafting, self._handle(), convert.u32(kind, "kind"),
             convert.u64(max_draft_tokens, "max_draft_tokens"))
        return self

    def with_max_cached_shards(self, maximum):
        call(lib.eredu_load_request_set_max_cached_shards, self._handle(),
             convert.u64(maximum, "maximum"))
        return self

    def with_weight_residency(self, residency):
        call(lib.eredu_load_request_set_weight_residency, self._handle(),
             ctypes.byref(residency.struct()))
        return self

    def with_required_session_capabilities(self, capabilities):
        call(lib.eredu_load_request_set_required_session_capabilities, self._handle(),
             convert.u32(capabilities, "capabilities"))
        return self

    def with_state_residency(self, residency):
        call(lib.eredu_load_request_set_state_residency, self._handle(),
             convert.u32(residency, "residency"))
        return self

    def with_prompt_cache_persistence(self, required):
        call(lib.eredu_load_request_set_prompt_cache_persistence, self._handle(),
             convert.flag(required))
        return self

    def _info(self):
        info = _capi.sized(_capi.eredu_load_request_info)
        call(lib.eredu_load_request_get_info, self._handle(), ctypes.byref(info))
        return info

    def max_cached_shards(self):
        """The reader-cache bound: the explicit override, else the weight
        residency's."""
        return self._info().max_cached_shards

    def required_session_capabilities(self):
        return self._info().required_session_capabilities

    def state_residency(self):
        return CacheResidency(self._info().state_residency)

    def prompt_cache_persistence(self):
        return bool(self._info().prompt_cache_persistence)

    def quantization(self):
        """The requested QuantizationRequest, or None."""
        out, present = _capi.sized(_capi.eredu_quantization_request), ctypes.c_bool()
        call(lib.eredu_load_request_quantization, self._handle(), ctypes.byref(out),
             ctypes.byref(present))
        if not present.value:
            return None
        known = out.kind in QuantizationKind._value2member_map_
        # An unknown kind is kept as given (the seed's catch-all, rejected on validation).
        return QuantizationRequest(QuantizationKind(out.kind) if known else out.kind,
                                   out.group_size, out.bits)

    def parallel_execution(self):
        """The attached ParallelLoadRequest, or None."""
        out, present = _capi.sized(_capi.eredu_parallel_load_desc), ctypes.c_bool()
        call(lib.eredu_load_request_parallel_execution, self._handle(), ctypes.byref(out),
             ctypes.byref(present))
        return ParallelLoadRequest.from_struct(out) if present.value else None

    def communication_completion_policy(self):
        """The model-preparation completion policy, or None; raises
        NormalizedLoadRequestError (OrphanedModelCompletion) for a local
        policy without parallel execution."""
        millis, mode, present = ctypes.c_uint64(), ctypes.c_uint32(), ctypes.c_bool()
        call(lib.eredu_load_request_communication_completion_policy, self._handle(),
             ctypes.byref(millis), ctypes.byref(mode), ctypes.byref(present))
        if not present.value:
            return None
        return CommunicationCompletionPolicy(millis.value, CompletionCancellationMode(mode.value))

    def realtime_completion_policy(self):
        """The parallel request's policy, else the local one, else 30 s
        quarantine."""
        info = self._info()
        return CommunicationCompletionPolicy(
            info.realtime_completion_timeout_millis,
            CompletionCancellationMode(info.realtime_completion_cancellation))

    def drafting(self):
        """(DraftingKind, embedded capacity or 0)."""
        info = self._info()
        return DraftingKind(info.drafting), info.max_draft_tokens

    def weight_residency(self, unit_count=0):
        """The weight residency's ResidencySummary for `unit_count` units."""
        summary = _capi.sized(_capi.eredu_residency_summary)
        call(lib.eredu_load_request_weight_residency, self._handle(),
             convert.u64(unit_count, "unit_count"), ctypes.byref(summary))
        return ResidencySummary.from_struct(summary)

    def validate_model_preparation(self):
        """Validates the whole request; returns its PreparationPolicy."""
        out = _capi.sized(_capi.eredu_preparation_policy)
        call(lib.eredu_load_request_validate_model_preparation, self._handle(),
             ctypes.byref(out))
        quantization = None
        if out.has_quantization:
            quantization = QuantizationRequest(QuantizationKind(out.quantization_kind),
                                               out.quantization_group_size,
                                               out.quantization_bits)
        # The topology is borrowed from the request: read at once.
        topology = ParallelTopology.from_struct(out.topology.contents) if out.topology else None
        return PreparationPolicy(quantization, ResidencyRequest(out.residency), topology,
                                 out.required_session_capabilities)
