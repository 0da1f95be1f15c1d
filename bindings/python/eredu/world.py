"""Bulk entry points over every rank (eredu/world.h): the whole-world plan
with its coverage proof (eredu.world.v1) and admission under a residency
policy (eredu.check.v1). One call each; the text is canonical and
byte-identical across bindings."""
import ctypes

from . import _capi
from . import _convert as convert
from ._handle import handle_of
from ._library import lib
from .errors import call
from .plan import ParallelTopology, ShardingPolicy, take_text


def plan_world_json(model, topology, policy=ShardingPolicy.REQUIRE, *, threads=0):
    """Plans every rank of `topology` for `model` and proves coverage, as
    `eredu plan --all-ranks --format json`: eredu.world.v1 text. Coverage
    problems are listed in the text, not raised. `threads` 0 uses the
    hardware's concurrency; the text does not depend on it.

    Raises GeneralError (EREDU_E_INVALID_ARGUMENT: unknown policy, more
    than 2**20 ranks), TopologyError and ParallelPlanError (the planning
    errors of plan_rank for the lowest failing rank)."""
    handle = handle_of(model, "ModelDescription", "model")
    topology = ParallelTopology.of(topology)
    buffer, length = ctypes.c_void_p(), ctypes.c_size_t()
    call(lib.eredu_plan_world_json, handle, topology.tensor, topology.pipeline,
         topology.expert, topology.data, convert.u32(policy, "policy"),
         convert.u32(threads, "threads"), ctypes.byref(buffer), ctypes.byref(length))
    return take_text(buffer, length.value)


def check_json(model, topology, policy=ShardingPolicy.REQUIRE, *, residency_json=None,
               device_budget_bytes=None, threads=0):
    """Plans every rank, proves coverage and admits each rank's bytes, as
    `eredu check --format json`: eredu.check.v1 text. `residency_json` is
    an eredu.residency.v1 document (str or bytes; None: fully resident);
    `device_budget_bytes` bounds a fully resident device (None: unbounded).
    A rank that does not fit is reported in the text, not raised.

    Raises GeneralError (EREDU_E_PARSE, EREDU_E_UNSUPPORTED_VERSION,
    EREDU_E_INVALID_ARGUMENT), OffloadError and WeightResidencyPolicyError
    (the residency document, judged before planning), then the planning
    errors of plan_world_json."""
    handle = handle_of(model, "ModelDescription", "model")
    topology = ParallelTopology.of(topology)
    options = _capi.eredu_check_options()
    call(lib.eredu_check_options_init, ctypes.byref(options))
    if residency_json is not None:
        document = convert.document(residency_json, "residency_json")
        options.residency_json = document
        options.residency_json_length = len(document)
    if device_budget_bytes is not None:
        options.has_device_budget = 1
        options.device_budget_bytes = convert.u64(device_budget_bytes, "device_budget_bytes")
    options.threads = convert.u32(threads, "threads")
    buffer, length = ctypes.c_void_p(), ctypes.c_size_t()
    call(lib.eredu_check_json, handle, topology.tensor, topology.pipeline,
         topology.expert, topology.data, convert.u32(policy, "policy"), ctypes.byref(options),
         ctypes.byref(buffer), ctypes.byref(length))
    return take_text(buffer, length.value)
