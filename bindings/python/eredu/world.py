# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The eredu authors

"""Bulk entry points over every rank (eredu/world.h): the whole-world plan
with its coverage proof (eredu.world.v1) and admission under a residency
policy (eredu.check.v1). One call each; the text is canonical and
byte-identical across bindings.

Both take `threads` (0: one per hardware thread; 1: the calling thread
only; the text never depends on it) and an optional `progress(done, total)`
callable, called after each planned rank (`done` ranks of `total`, the
world size; calls are serialized but may come from any of the library's
threads). A true result cancels the call, which raises GeneralError
EREDU_E_CANCELLED; an exception raised by `progress` cancels it too and
propagates from the call (with the library's EREDU_E_CANCELLED error as
its __context__).
"""
import ctypes

from . import _capi
from . import _convert as convert
from ._handle import handle_of
from ._library import lib
from .errors import EreduError, call
from .plan import ParallelTopology, ShardingPolicy, plan_options, take_text

_byref = ctypes.byref


def _run(function, model, topology, policy, threads, progress, *more):
    """Calls a bulk entry point (model, topology, plan options, *more, out,
    length) and returns its text; raises what `progress` raised, if it did."""
    handle = handle_of(model, "ModelDescription", "model")
    topology = ParallelTopology.of(topology).struct()
    progress = None if progress is None else _capi.Progress(progress)
    options = plan_options(policy, threads, progress)
    buffer, length = ctypes.c_void_p(), ctypes.c_size_t()
    try:
        call(function, handle, _byref(topology), _byref(options), *more, _byref(buffer),
             _byref(length))
    except EreduError:
        if progress is not None:
            progress.raise_error()
        raise
    text = take_text(buffer, length.value)
    if progress is not None:  # `progress` raised, yet the call completed
        progress.raise_error()
    return text


def plan_world_json(model, topology, policy=ShardingPolicy.REQUIRE, *, threads=0,
                    progress=None):
    """Plans every rank of `topology` for `model` and proves coverage, as
    `eredu plan --all-ranks --format json`: eredu.world.v1 text. Coverage
    problems are listed in the text, not raised. `threads` and `progress`:
    see the module's help.

    Raises GeneralError (EREDU_E_INVALID_ARGUMENT: unknown policy, more
    than 2**20 ranks; EREDU_E_CANCELLED), TopologyError and
    ParallelPlanError (the planning errors of plan_rank for the lowest
    failing rank)."""
    return _run(lib.eredu_plan_world_json, model, topology, policy, threads, progress)


def check_json(model, topology, policy=ShardingPolicy.REQUIRE, *, residency_json=None,
               device_budget_bytes=None, threads=0, progress=None):
    """Plans every rank, proves coverage and admits each rank's bytes, as
    `eredu check --format json`: eredu.check.v1 text. `residency_json` is
    an eredu.residency.v1 document (str or bytes; None: fully resident);
    `device_budget_bytes` bounds a fully resident device (None: unbounded).
    A rank that does not fit is reported in the text, not raised. `threads`
    and `progress`: see the module's help.

    Raises GeneralError (EREDU_E_PARSE, EREDU_E_UNSUPPORTED_VERSION,
    EREDU_E_INVALID_ARGUMENT), OffloadError and WeightResidencyPolicyError
    (the residency document, judged before planning), then the errors of
    plan_world_json."""
    handle_of(model, "ModelDescription", "model")  # checked first, as in plan_world_json
    options = _capi.sized(_capi.eredu_check_options)
    if residency_json is not None:
        document = convert.document(residency_json, "residency_json")
        options.residency_json = document
        options.residency_json_length = len(document)
    if device_budget_bytes is not None:
        options.has_device_budget = 1
        options.device_budget_bytes = convert.u64(device_budget_bytes, "device_budget_bytes")
    return _run(lib.eredu_check_json, model, topology, policy, threads, progress,
                _byref(options))
