# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The eredu authors

"""Errors: `EreduError` carries what a failing C call reported (status code,
stable name, message); a subclass per code block mirrors the seed's Rust
error enum of that block. `ClosedError` is use of a closed handle, caught
before any C call.
"""
import ctypes

from . import _capi_gen
from ._library import lib


class EreduError(Exception):
    """A failing liberedu call.

    Attributes:
        code: the eredu_status value (see eredu.status).
        name: its stable name from eredu_status_name ("EREDU_E_INVALID_GROUP";
            "EREDU_E_UNKNOWN" for a code this library does not know).
        message: the library's message (the seed's text where it has one).
    """

    def __init__(self, code, name, message):
        super().__init__(code, name, message)
        self.code = code
        self.name = name
        self.message = message

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


def take_error(code, slot):
    """Builds the exception of a failed call and frees its error object."""
    try:
        message = lib.eredu_error_message(slot).decode("utf-8", "replace") if slot else ""
    finally:
        lib.eredu_error_free(slot)
    return error_class(code)(code, status_name(code), message)


_ErrorPointer = ctypes.POINTER(_capi_gen.eredu_error)
_byref = ctypes.byref


def call(function, *args):
    """Calls a fallible C function with a trailing error slot; raises the
    EreduError it reports."""
    slot = _ErrorPointer()
    code = function(*args, _byref(slot))
    if code:
        raise take_error(code, slot)
