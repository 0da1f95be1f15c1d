# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The eredu authors

"""The base of every class that owns a library handle."""
import ctypes

from ._library import lib
from .errors import ClosedError


class Handle:
    """Owns one library handle, freed exactly once by close(), the context
    manager's exit or the garbage collector, whichever comes first.

    After close() every method raises ClosedError before calling the
    library, so a NULL or freed handle never reaches it. close() must not
    race other calls on the same object (the C _free functions need
    exclusive access), though concurrent close() calls free it once; reads
    of immutable handles may run concurrently. Handles are built by the
    library (class methods and functions), never from a Python value, and
    cannot be copied or pickled (a copy would free the handle twice).
    """

    _FREE = None  # name of the C function releasing the handle
    _ptr = None

    def __init__(self, ptr):
        if not isinstance(ptr, ctypes._Pointer):  # e.g. ModelDescription([group])
            raise TypeError(f"a {type(self).__name__} is not built from {type(ptr).__name__}: "
                            "use its class methods or the functions returning one "
                            f"(help(eredu.{type(self).__name__}))")
        if not ptr:
            raise ValueError(f"{type(self).__name__}: the library returned no handle")
        self._ptr = ptr

    def _handle(self):
        ptr = self._ptr
        if ptr is None:
            raise ClosedError(f"{type(self).__name__} is closed")
        return ptr

    @property
    def closed(self):
        """True once the handle has been released."""
        return self._ptr is None

    def close(self):
        """Releases the handle; later calls do nothing. Two threads closing
        at once free it once (the pop is atomic)."""
        ptr = self.__dict__.pop("_ptr", None)
        if ptr is not None:
            getattr(lib, self._FREE)(ptr)

    def __enter__(self):
        self._handle()
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def __reduce__(self):
        # copy.copy would otherwise share the pointer and free it twice
        raise TypeError(f"a {type(self).__name__} cannot be copied or pickled: it owns a library "
                        "handle (share the object; models and layouts are immutable)")

    def __del__(self):
        try:
            self.close()
        except Exception:  # interpreter shutdown: the library may be gone
            pass


def handle_of(value, kind, what):
    """The live handle of argument `what`, which must be an instance of the
    Handle class named `kind` (named, as the handle classes import this
    module): TypeError otherwise, ClosedError when it is closed."""
    if not isinstance(value, Handle) or kind not in (cls.__name__ for cls in type(value).__mro__):
        raise TypeError(f"{what} must be a {kind}, got {type(value).__name__}")
    return value._handle()
