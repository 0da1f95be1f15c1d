# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The eredu authors

"""Errors: `EreduError` carries what a failing C call reported (status code,
stable name, message, and every `Problem` it lists); a subclass per code
block mirrors the seed's Rust error enum of that block. `ClosedError` is use
of a closed handle, caught before any C call.
"""
import collections
import ctypes

from . import _capi_gen
from ._library import lib


class Problem(collections.namedtuple("Problem", "code name group tensor message")):
    """One problem of an EreduError (eredu_error_entry).

    Attributes:
        code: its eredu_status value.
        name: the code's stable name ("EREDU_E_INVALID_TENSOR").
        group: the logical group it concerns; None for a topology problem
            (and for an error that is not about a group).
        tensor: the tensor (member target) it concerns; None when the
            problem is the group's as a whole.
        message: its message, as a single problem's error gives it.
    """

    __slots__ = ()


class EreduError(Exception):
    """A failing liberedu call.

    Attributes:
        code: the eredu_status value (see eredu.status).
        name: its stable name from eredu_status_name ("EREDU_E_INVALID_GROUP";
            "EREDU_E_UNKNOWN" for a code this library does not know).
        message: the library's message (the seed's text where it has one).
        problems: a non-empty tuple of Problem. A planning failure
            (plan_rank, plan_world_json, check_json) lists every violation
            found: the groups in document order, then the topology
            preflight; code and message stay the problem a planner stopping
            at the first one reported (the preflight's when it failed, else
            the first group's). Any other error holds one problem equal to
            the error (group and tensor None).
    """

    def __init__(self, code, name, message, problems=None):
        super().__init__(code, name, message)
        self.code = code
        self.name = name
        self.message = message
        self.problems = tuple(problems) if problems else (
            Problem(code, name, None, None, message),)

    def __str__(self):
        return f"{self.name} ({self.code}): {self.message}"


class GeneralError(EreduError):
    """Codes 1-99: API misuse, memory, parse, version, I/O, cancellation,
    internal errors."""


class ParallelPlanError(EreduError):
    """Codes 100-199: seed ParallelPlanError (InvalidGroup, InvalidTensor)."""


class TopologyError(EreduError):
    """Codes 200-299: TopologyError (zero axis, rank out of range, ...)."""


class OffloadError(EreduError):
    """Codes 300-399: OffloadError (unit ids, sizes, budgets, prefetch depth)."""


class WeightResidencyPolicyError(EreduError):
    """Codes 400-499: seed WeightResidencyPolicyError."""


class DenseTransferScheduleError(EreduError):
    """Codes 500-599: seed DenseTransferScheduleError."""


class NormalizedLoadRequestError(EreduError):
    """Codes 600-699: seed NormalizedLoadRequestError."""


class LinearFormatError(EreduError):
    """Codes 700-799: checkpoint-format construction errors."""


class WeightBindingError(EreduError):
    """Codes 800-899: WeightBinding construction errors."""


class CompletionPolicyError(EreduError):
    """Codes 900-999: CommunicationCompletionPolicy construction errors."""


_FAMILIES = [
    GeneralError,
    ParallelPlanError,
    TopologyError,
    OffloadError,
    WeightResidencyPolicyError,
    DenseTransferScheduleError,
    NormalizedLoadRequestError,
    LinearFormatError,
    WeightBindingError,
    CompletionPolicyError,
]


def error_class(code):
    """The EreduError subclass of a status code's block; EreduError itself
    for a code outside every known block (e.g. from a newer library)."""
    block = code // 100
    return _FAMILIES[block] if 0 < code and block < len(_FAMILIES) else EreduError


def status_name(code):
    """The library's stable name of a status code (eredu_status_name)."""
    return lib.eredu_status_name(code).decode("ascii")


class ClosedError(ValueError):
    """A handle was used after close(); nothing reached the library."""


def _entry_text(entry, field, length):
    """A borrowed string field of an eredu_error_entry, read by its length;
    None for NULL."""
    offset = getattr(_capi_gen.eredu_error_entry, field).offset
    address = ctypes.c_void_p.from_buffer(entry, offset).value
    if not address:
        return None
    return ctypes.string_at(address, length).decode("utf-8", "replace")


def _problems(slot):
    """Copies every problem of a live error object; () when it lists none
    or one cannot be read."""
    problems = []
    for index in range(lib.eredu_error_count(slot)):
        entry = _capi_gen.eredu_error_entry(ctypes.sizeof(_capi_gen.eredu_error_entry))
        if lib.eredu_error_get_entry(slot, index, ctypes.byref(entry), None):
            return ()
        problems.append(Problem(entry.code, status_name(entry.code),
                                _entry_text(entry, "group", entry.group_length),
                                _entry_text(entry, "tensor", entry.tensor_length),
                                _entry_text(entry, "message", entry.message_length) or ""))
    return tuple(problems)


def take_error(code, slot):
    """Builds the exception of a failed call, copying its message and
    problems, and frees its error object."""
    try:
        message = lib.eredu_error_message(slot).decode("utf-8", "replace") if slot else ""
        problems = _problems(slot) if slot else ()
    finally:
        lib.eredu_error_free(slot)
    return error_class(code)(code, status_name(code), message, problems)


_ErrorPointer = ctypes.POINTER(_capi_gen.eredu_error)
_byref = ctypes.byref


def call(function, *args):
    """Calls a fallible C function with a trailing error slot; raises the
    EreduError it reports."""
    slot = _ErrorPointer()
    code = function(*args, _byref(slot))
    if code:
        raise take_error(code, slot)
