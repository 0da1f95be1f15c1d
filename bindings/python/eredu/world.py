# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The eredu authors

"""Bulk entry points over every rank (eredu/world.h): the whole-world plan
with its coverage proof (eredu.world.v1), admission under a residency
policy (eredu.check.v1) and the search of every topology up to a world
size (eredu.fit.v1). One call each; the text is canonical and
byte-identical across bindings.

All take `threads` (0: one per hardware thread; 1: the calling thread
only; the text never depends on it) and an optional `progress(done, total)`
callable, called after each planned rank (`done` ranks of `total`, the
world size; for fit_json after each topology, `done` topologies of `total`;
calls are serialized but may come from any of the library's
threads). A true result cancels the call, which raises GeneralError
EREDU_E_CANCELLED; an exception raised by `progress` cancels it too and
propagates from the call (with the library's EREDU_E_CANCELLED error as
its __context__).

plan_world_json and check_json also take `pipeline_layers`, the decoder
layers of each pipeline stage (as eredu.plan_rank; None: balanced stages);
the text's topology then carries them as `"pipeline_layers":[1,3]`. Counts
that do not fit the topology or the model raise GeneralError
EREDU_E_INVALID_ARGUMENT. fit_json, which searches every pipeline size,
refuses any (GeneralError EREDU_E_INVALID_ARGUMENT).
"""
import ctypes

from . import _capi
from . import _convert as convert
from ._handle import handle_of
from ._library import lib
from .errors import EreduError, call
from .plan import ParallelTopology, ShardingPolicy, plan_options, take_text

_byref = ctypes.byref

#: The largest world fit_json searches by default (EREDU_FIT_OPTIONS_INIT).
DEFAULT_MAX_WORLD = 64


def _run(function, model, topology, policy, threads, progress, pipeline_layers, *more):
    """Calls a bulk entry point (model, topology, plan options, *more, out,
    length; no topology argument when `topology` is None) and returns its
    text; raises what `progress` raised, if it did."""
    handle = handle_of(model, "ModelDescription", "model")
    head = () if topology is None else (_byref(ParallelTopology.of(topology).struct()),)
    progress = None if progress is None else _capi.Progress(progress)
    options = plan_options(policy, threads, progress, pipeline_layers)
    buffer, length = ctypes.c_void_p(), ctypes.c_size_t()
    try:
        call(function, handle, *head, _byref(options), *more, _byref(buffer),
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
                    progress=None, pipeline_layers=None):
    """Plans every rank of `topology` for `model` and proves coverage, as
    `eredu plan --all-ranks --format json`: eredu.world.v1 text. Coverage
    problems are listed in the text, not raised. `threads`, `progress` and
    `pipeline_layers`: see the module's help.

    Raises GeneralError (EREDU_E_INVALID_ARGUMENT: unknown policy, more
    than 2**20 ranks, pipeline_layers that do not fit as for plan_rank;
    EREDU_E_CANCELLED), TopologyError and
    ParallelPlanError (the planning errors of plan_rank for the lowest
    failing rank)."""
    return _run(lib.eredu_plan_world_json, model, topology, policy, threads, progress,
                pipeline_layers)


def check_json(model, topology, policy=ShardingPolicy.REQUIRE, *, residency_json=None,
               device_budget_bytes=None, threads=0, progress=None, pipeline_layers=None):
    """Plans every rank, proves coverage and admits each rank's bytes, as
    `eredu check --format json`: eredu.check.v1 text. `residency_json` is
    an eredu.residency.v1 document (str or bytes; None: fully resident);
    `device_budget_bytes` bounds a fully resident device (None: unbounded).
    A rank that does not fit is reported in the text, not raised. `threads`,
    `progress` and `pipeline_layers`: see the module's help.

    Raises GeneralError (EREDU_E_PARSE, EREDU_E_UNSUPPORTED_VERSION,
    EREDU_E_INVALID_ARGUMENT), OffloadError and WeightResidencyPolicyError
    (the residency document, judged before planning), then the errors of
    plan_world_json."""
    handle_of(model, "ModelDescription", "model")  # checked first, as in plan_world_json
    options = _check_options(residency_json, device_budget_bytes)
    return _run(lib.eredu_check_json, model, topology, policy, threads, progress,
                pipeline_layers, _byref(options))


def fit_json(model, policy=ShardingPolicy.REQUIRE, *, residency_json=None,
             device_budget_bytes=None, max_world=DEFAULT_MAX_WORLD, threads=0, progress=None,
             pipeline_layers=None):
    """Which sizes work: plans and admits every topology T x P x E x 1 with
    T * P * E <= `max_world` (1 to 1024), as check_json would, and returns
    eredu.fit.v1 text: per topology (ordered by world size, then T, then P)
    whether it plans (else its first error's status name and message), the
    largest device peak of its ranks and whether every rank fits; then the
    smallest world with a topology that fits (absent when none does). A
    topology that does not plan or fit is reported in the text, not raised.
    `residency_json` and `device_budget_bytes`: as for check_json.
    `threads` plans each topology as for plan_world_json; `progress` is
    called after each topology (`done` topologies of `total`);
    `pipeline_layers` must be None or empty, as the search varies the
    pipeline size: see the module's help.

    Raises GeneralError (EREDU_E_INVALID_ARGUMENT: unknown policy,
    pipeline_layers given, max_world 0 or above 1024, a device budget with
    a residency kind other than fully resident; EREDU_E_PARSE,
    EREDU_E_UNSUPPORTED_VERSION; EREDU_E_CANCELLED), OffloadError and
    WeightResidencyPolicyError (the residency document, as for
    check_json)."""
    handle_of(model, "ModelDescription", "model")  # checked first, as in plan_world_json
    check = _check_options(residency_json, device_budget_bytes)
    options = _capi.sized(_capi.eredu_fit_options)
    options.max_world = convert.u64(max_world, "max_world")
    return _run(lib.eredu_fit_json, model, None, policy, threads, progress, pipeline_layers,
                _byref(check), _byref(options))


def _check_options(residency_json, device_budget_bytes):
    """The eredu_check_options of check_json and fit_json; the struct holds
    the document, alive as long as it is."""
    options = _capi.sized(_capi.eredu_check_options)
    if residency_json is not None:
        document = convert.document(residency_json, "residency_json")
        options.residency_json = document
        options.residency_json_length = len(document)
    if device_budget_bytes is not None:
        options.has_device_budget = 1
        options.device_budget_bytes = convert.u64(device_budget_bytes, "device_budget_bytes")
    return options
