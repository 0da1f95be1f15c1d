# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The eredu authors

"""The C API as ctypes sees it: the declarations generated from the headers
(eredu/_capi_gen.py, written by generate_capi.py; re-exported here, so
`_capi.eredu_layout_tensor_info` is the generated struct) and the few
helpers that are not mechanical.

Sized structs (docs/abi.md): every struct handed to the library carries
struct_size = ctypes.sizeof of its class here, so a newer library reads
only the fields this package knows (the rest take their defaults) and
writes back only as much as this package allocated.

- sized(cls): a zeroed struct with struct_size set, no library call: for
  output structs and for input structs this package fills field by field.
- defaults(cls): the library's defaults through `<name>_init(ptr, size)`,
  for input structs whose unset fields must take the library's defaults.
- text(struct, field, length): a borrowed string field with its length.
- Progress: a Python progress callable as an eredu_progress_fn.

Loading the library and its version check are in _library.py.
"""
import ctypes

from . import _capi_gen
from ._capi_gen import *  # noqa: F401,F403  (the generated declarations)
from ._library import lib
from .errors import call

FUNCTIONS = _capi_gen.FUNCTIONS
_byref = ctypes.byref
_sizeof = ctypes.sizeof


def sized(cls):
    """A zeroed `cls` with struct_size = ctypes.sizeof(cls)."""
    return cls(_sizeof(cls))


def defaults(cls):
    """A `cls` initialized by the library's `<name>_init` with this
    package's size: zeroes, the defaults of the fields it knows,
    struct_size = ctypes.sizeof(cls)."""
    struct = cls()
    call(getattr(lib, cls.__name__ + "_init"), _byref(struct), _sizeof(cls))
    return struct


def text(struct, field, length):
    """The borrowed string `field` of `struct` and its byte `length` (the
    struct's `<field>_length`) as str: ctypes reads a `const char *` field
    up to its first NUL, so a string holding a NUL is read again by length."""
    value = getattr(struct, field)
    if len(value) != length:
        offset = getattr(type(struct), field).offset
        value = ctypes.string_at(ctypes.c_void_p.from_buffer(struct, offset).value, length)
    return value.decode("utf-8")


class Progress:
    """Wraps `function(done, total)` as an eredu_progress_fn for one call.

    The library calls it after each planned rank (calls are serialized, from
    any of its threads). A true result cancels the call (the C callback
    returns 1, the call fails with EREDU_E_CANCELLED); so does an exception,
    which is kept in `error` for the caller to raise once the call has
    returned (a ctypes callback cannot propagate it). After an exception the
    function is not called again. The instance owns the C function pointer:
    keep it alive for the whole call.
    """

    def __init__(self, function):
        if not callable(function):
            raise TypeError(f"progress must be callable, got {type(function).__name__}")
        self.function = function
        self.error = None
        self.pointer = _capi_gen.eredu_progress_fn(self._called)

    def _called(self, done, total, _user_data):
        if self.error is not None:
            return 1
        try:
            return 1 if self.function(done, total) else 0
        except BaseException as error:  # noqa: B902  (KeyboardInterrupt cancels too)
            self.error = error
            return 1

    def raise_error(self):
        """Raises the exception `function` raised, if any. Called inside the
        `except` of the failed call, the library's error becomes its
        __context__."""
        error, self.error = self.error, None
        if error is not None:
            try:
                raise error
            finally:
                error = None  # no reference cycle through the traceback
