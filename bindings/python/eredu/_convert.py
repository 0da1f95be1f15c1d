# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The eredu authors

"""Checked conversions of Python values to C arguments. ctypes silently wraps
out-of-range integers (-1 becomes 2**64 - 1) and C strings stop at a NUL, so
every value a caller gives is checked here first (ValueError / TypeError)."""
import ctypes
import operator
import os

_U64_MAX = 2**64 - 1
_U32_MAX = 2**32 - 1
_SIZE_MAX = 2 ** (8 * ctypes.sizeof(ctypes.c_size_t)) - 1


def _integer(value, what):
    """An int (or an object with __index__), never a bool or a float."""
    if isinstance(value, bool):
        raise TypeError(f"{what} must be an integer, got {value!r}")
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError(f"{what} must be an integer, got {value!r}") from None


def _unsigned(value, what, maximum):
    number = _integer(value, what)
    if not 0 <= number <= maximum:
        raise ValueError(f"{what} must be in [0, {maximum}], got {number}")
    return number


def u64(value, what):
    """An integer in [0, 2**64)."""
    return _unsigned(value, what, _U64_MAX)


def u8(value, what):
    """An integer in [0, 256)."""
    return _unsigned(value, what, 255)


def u32(value, what):
    """An integer in [0, 2**32)."""
    return _unsigned(value, what, _U32_MAX)


def size(value, what):
    """An integer that fits size_t."""
    return _unsigned(value, what, _SIZE_MAX)


def i32(value, what):
    """An integer in [-2**31, 2**31)."""
    number = _integer(value, what)
    if not -(2**31) <= number < 2**31:
        raise ValueError(f"{what} must fit a 32-bit signed integer, got {number}")
    return number


def member(enum_type, value, what, *, by_name=False):
    """A member of `enum_type` from a member or its integer value (never a
    bool or a float, which enum lookup would accept: Dtype(True) is U8);
    also from its name when `by_name`."""
    if by_name and isinstance(value, str):
        try:
            return enum_type[value]
        except KeyError:
            names = ", ".join(enum_type.__members__)
            raise ValueError(f"{what} must be one of {names}; got {value!r}") from None
    number = _integer(value, what)
    try:
        return enum_type(number)
    except ValueError:
        raise ValueError(f"{what} {number} is not a {enum_type.__name__} value") from None


def member_lookup(enum_type):
    """A fast `enum_type(value)` for values read from the library (a dict
    lookup; an unknown value still raises enum_type's ValueError)."""
    members = enum_type._value2member_map_

    def lookup(value):
        try:
            return members[value]
        except KeyError:
            return enum_type(value)
    return lookup


def instance(value, cls, what):
    """`value` when it is a `cls` (a plain-data argument such as a
    ParameterMemberSpec), TypeError naming `what` otherwise."""
    if not isinstance(value, cls):
        raise TypeError(f"{what} must be a {cls.__name__}, got {type(value).__name__}")
    return value


def flag(value):
    """A Python truth value as the C 0/1 flag."""
    return 1 if value else 0


def text(value, what):
    """A str as NUL-terminated UTF-8 bytes (no NUL inside)."""
    if not isinstance(value, str):
        raise TypeError(f"{what} must be a str, got {type(value).__name__}")
    if "\0" in value:
        raise ValueError(f"{what} must not contain a NUL character")
    return _utf8(value, what)


def path(value, what):
    """A str or os.PathLike path as NUL-terminated UTF-8 bytes (a bytes path
    is refused: the library takes UTF-8)."""
    try:
        value = os.fspath(value)
    except TypeError:
        raise TypeError(f"{what} must be a str or os.PathLike, got {type(value).__name__}") \
            from None
    if not isinstance(value, str):
        raise TypeError(f"{what} must be a str path, got {type(value).__name__}")
    return text(value, what)


def _utf8(value, what):
    try:
        return value.encode("utf-8")
    except UnicodeEncodeError as error:  # a lone surrogate, e.g. from os.fsdecode
        raise ValueError(f"{what} is not encodable as UTF-8: {error.object[error.start]!r} at "
                         f"index {error.start} ({error.reason})") from None


def document(value, what):
    """A JSON document as bytes: a str is encoded as UTF-8, bytes-like
    values are passed through."""
    if isinstance(value, str):
        return _utf8(value, what)
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value)
    raise TypeError(f"{what} must be str or bytes, got {type(value).__name__}")


def u64_array(values, what):
    """A sequence of integers as a C uint64_t array (None when empty)."""
    checked = [u64(value, f"{what}[{i}]") for i, value in enumerate(values)]
    return (ctypes.c_uint64 * len(checked))(*checked) if checked else None


def ranges(pairs, what):
    """[(start, end), ...] (tuples, lists or range objects with step 1) as a
    flattened uint64_t array and the pair count."""
    flat = []
    for i, pair in enumerate(pairs):
        if isinstance(pair, range):
            if pair.step != 1:
                raise ValueError(f"{what}[{i}] must have step 1")
            pair = (pair.start, pair.stop)
        start, end = pair
        flat += [u64(start, f"{what}[{i}] start"), u64(end, f"{what}[{i}] end")]
    return ((ctypes.c_uint64 * len(flat))(*flat) if flat else None), len(flat) // 2


def read_text(pointer, length):
    """A borrowed C string (and its byte length) as str."""
    return ctypes.string_at(pointer, length).decode("utf-8")
