# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The eredu authors

"""Finds and loads liberedu.so.0, checks its major version, declares every
function (the generated table of _capi_gen.py), and exposes them as `lib`
(one attribute per C function).

Search order (the first that applies):

1. `EREDU_LIBRARY`: the path of the library file (or of a directory holding
   liberedu.so.0), relative to the working directory unless absolute (a
   bare file name is a file here, not a name for the dynamic linker). When
   it is set, nothing else is tried.
2. `liberedu.so.0` inside this package's directory (a bundled copy).
3. `liberedu.so.0` through the dynamic linker's search path.
"""
import ctypes
import os

from . import _capi_gen

LIBRARY_NAME = "liberedu.so.0"
#: The library major version this package is written for.
SUPPORTED_MAJOR = 0


class IncompatibleLibraryError(ImportError):
    """The loaded liberedu has a major version this package does not support."""


def candidates(environ=os.environ):
    """[(how it was found, path or name)] to try, in order."""
    explicit = environ.get("EREDU_LIBRARY")
    if explicit:
        explicit = os.path.abspath(explicit)  # dlopen would search a bare name
        if os.path.isdir(explicit):
            explicit = os.path.join(explicit, LIBRARY_NAME)
        return [("EREDU_LIBRARY", explicit)]
    bundled = os.path.join(os.path.dirname(os.path.abspath(__file__)), LIBRARY_NAME)
    found = [("the package directory", bundled)] if os.path.exists(bundled) else []
    return found + [("the system library path", LIBRARY_NAME)]


def format_version(number):
    """10203 -> '1.2.3' (major * 10000 + minor * 100 + patch)."""
    return f"{number // 10000}.{number // 100 % 100}.{number % 100}"


def check_version(cdll, where):
    """Refuses a library of another major version, before anything else is
    called. `cdll` is a loaded ctypes.CDLL (or a stand-in in the tests)."""
    function = cdll.eredu_version_number
    function.restype = ctypes.c_uint32
    function.argtypes = []
    number = function()
    if number // 10000 != SUPPORTED_MAJOR:
        raise IncompatibleLibraryError(
            f"{where} is liberedu {format_version(number)} (eredu_version_number() = {number}), "
            f"but this eredu Python package is written for liberedu {SUPPORTED_MAJOR}.x: "
            "install a library and a package of the same major version"
        )
    return number


class _Missing:
    """Stands for a function the loaded library does not export (an older
    minor version): calling it raises instead of crashing."""

    def __init__(self, name, where):
        self.__name__ = name
        self._where = where

    def __call__(self, *args):
        raise NotImplementedError(
            f"{self.__name__} is not exported by {self._where}: it needs a newer liberedu"
        )


class Library:
    """The declared functions of one loaded library, as attributes."""

    def __init__(self, cdll, path, how):
        self.path = path
        self.where = f"{path} (from {how})"
        self.version_number = check_version(cdll, self.where)
        self.missing = []
        for name, (restype, argtypes) in _capi_gen.FUNCTIONS.items():
            try:
                function = getattr(cdll, name)
            except AttributeError:
                self.missing.append(name)
                setattr(self, name, _Missing(name, self.where))
                continue
            function.restype = restype
            function.argtypes = argtypes
            setattr(self, name, function)


def load(environ=os.environ, cdll=ctypes.CDLL):
    """Loads the first candidate that opens; ImportError naming every attempt
    when none does."""
    attempts = []
    for how, path in candidates(environ):
        try:
            opened = cdll(path)
        except OSError as error:
            attempts.append(f"{path} (from {how}): {error}")
            continue
        return Library(opened, path, how)
    raise ImportError(
        "eredu: cannot load liberedu; tried " + "; ".join(attempts) +
        ". Install the library (Debian package liberedu0, or `meson install`) or set "
        "EREDU_LIBRARY to the path of liberedu.so.0."
    )


lib = load()
