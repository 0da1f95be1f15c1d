# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The eredu authors

"""Checkpoint encodings of linear matrices and their expansion into physical
members (seed LinearFormat, LinearFormatSpec, expand_linear_format_*;
eredu/format.h; docs/planning.md). Formats and specs are plain values, validated by the
library when used (LinearFormatError, EREDU_E_INVALID_FORMAT)."""
import ctypes
import dataclasses
import enum

from . import _capi
from . import _convert as convert
from ._handle import handle_of
from ._library import lib
from .errors import call
from .group import Dtype, ParameterGroupSpec, ParameterMemberSpec, member_struct, read_members
from .model import ModelDescription


class LinearFormatKind(enum.IntEnum):
    """The variant of a LinearFormat (EREDU_LINEAR_FORMAT_*)."""

    DENSE = 0
    AFFINE = 1
    MXFP4 = 2
    GGUF = 3
    BLOCK_FP8 = 4


class BlockFp8ScaleEncoding(enum.IntEnum):
    """Block-FP8 inverse-scale encoding (EREDU_BLOCK_FP8_SCALE_*)."""

    FLOAT = 0
    UE8M0 = 1


@dataclasses.dataclass(frozen=True)
class LinearFormat:
    """One linear-matrix encoding (seed LinearFormat). Only the fields of
    `kind` are read; build with the class methods."""

    kind: LinearFormatKind = LinearFormatKind.DENSE
    affine_group_size: int = 64
    affine_bits: int = 4
    ggml_type: int = 0
    block_rows: int = 128
    block_columns: int = 128
    scale_encoding: BlockFp8ScaleEncoding = BlockFp8ScaleEncoding.FLOAT

    @classmethod
    def dense(cls):
        return cls(LinearFormatKind.DENSE)

    @classmethod
    def affine(cls, group_size=64, bits=4):
        return cls(LinearFormatKind.AFFINE, affine_group_size=group_size, affine_bits=bits)

    @classmethod
    def mxfp4(cls):
        return cls(LinearFormatKind.MXFP4)

    @classmethod
    def gguf(cls, ggml_type):
        """`ggml_type`: a code, or a ggml name such as "Q4_K"."""
        if isinstance(ggml_type, str):
            ggml_type = ggml_type_by_name(ggml_type).code
        return cls(LinearFormatKind.GGUF, ggml_type=ggml_type)

    @classmethod
    def block_fp8(cls, block_rows=128, block_columns=128,
                  scale_encoding=BlockFp8ScaleEncoding.FLOAT):
        return cls(LinearFormatKind.BLOCK_FP8, block_rows=block_rows,
                   block_columns=block_columns, scale_encoding=scale_encoding)

    def struct(self):
        """As an eredu_linear_format."""
        struct = _capi.sized(_capi.eredu_linear_format)
        struct.kind = convert.u32(self.kind, "kind")
        struct.affine_group_size = convert.i32(self.affine_group_size, "affine_group_size")
        struct.affine_bits = convert.i32(self.affine_bits, "affine_bits")
        struct.ggml_type = convert.u32(self.ggml_type, "ggml_type")
        struct.block_rows = convert.i32(self.block_rows, "block_rows")
        struct.block_columns = convert.i32(self.block_columns, "block_columns")
        struct.scale_encoding = convert.u32(self.scale_encoding, "scale_encoding")
        return struct

    @classmethod
    def from_struct(cls, struct):
        return cls(LinearFormatKind(struct.kind), struct.affine_group_size, struct.affine_bits,
                   struct.ggml_type, struct.block_rows, struct.block_columns,
                   BlockFp8ScaleEncoding(struct.scale_encoding))

    def validate(self):
        """seed LinearFormat::validate; raises LinearFormatError."""
        call(lib.eredu_linear_format_validate, ctypes.byref(self.struct()))


@dataclasses.dataclass(frozen=True)
class LinearFormatSpec:
    """A format with its companion targets (seed LinearFormatSpec) and the
    optional companion dtype. `raw=True` skips the spec's own validation,
    like the seed's expansion of an unvalidated declaration."""

    format: LinearFormat
    scale: str = None
    affine_bias: str = None
    companion_dtype: Dtype = None
    raw: bool = False

    @classmethod
    def unscaled(cls, format):
        return cls(format)

    @classmethod
    def scaled(cls, format, scale, companion_dtype=None):
        return cls(format, scale, companion_dtype=companion_dtype)

    @classmethod
    def affine(cls, format, scale, bias, companion_dtype=None):
        return cls(format, scale, bias, companion_dtype)

    def struct(self):
        """As an eredu_linear_format_spec (keeping its format alive)."""
        spec = _capi.sized(_capi.eredu_linear_format_spec)
        spec.format = ctypes.pointer(self.format.struct())
        if self.scale is not None:
            spec.scale = convert.text(self.scale, "scale")
        if self.affine_bias is not None:
            spec.affine_bias = convert.text(self.affine_bias, "affine_bias")
        if self.companion_dtype is not None:
            dtype = Dtype[self.companion_dtype] if isinstance(self.companion_dtype, str) \
                else self.companion_dtype
            spec.has_companion_dtype, spec.companion_dtype = 1, convert.u32(dtype, "dtype")
        spec.raw = convert.flag(self.raw)
        return spec

    def validate(self):
        """seed LinearFormatSpec constructors' checks; raises
        LinearFormatError."""
        call(lib.eredu_linear_format_spec_validate, ctypes.byref(self.struct()))


def _spec_array(specs):
    structs = [None if spec is None else spec.struct() for spec in specs]
    pointer = ctypes.POINTER(_capi.eredu_linear_format_spec)
    array = (pointer * len(structs))(
        *[pointer() if struct is None else ctypes.pointer(struct) for struct in structs])
    return array, len(structs)


@dataclasses.dataclass(frozen=True)
class GgmlTypeInfo:
    """One row of the GGML block table: `block_values` values in
    `block_bytes` bytes."""

    code: int
    name: str
    block_values: int
    block_bytes: int


def _ggml(function, key):
    info = _capi.sized(_capi.eredu_ggml_type_info)
    call(function, key, ctypes.byref(info))
    return GgmlTypeInfo(info.code, info.name.decode("ascii"), info.block_values,
                        info.block_bytes)


def ggml_type_by_code(code):
    """The GGML type of a code (LinearFormatError when unsupported)."""
    return _ggml(lib.eredu_ggml_type_by_code, convert.u32(code, "code"))


def ggml_type_by_name(name):
    """The GGML type of ggml's name, e.g. "Q4_K" (GeneralError
    EREDU_E_NOT_FOUND for a name ggml does not define)."""
    return _ggml(lib.eredu_ggml_type_by_name, convert.text(name, "name"))


def expand_linear_format_member(member, spec):
    """seed expand_linear_format_member: the physical members [packed weight,
    scale, affine bias] of a logical dense member."""
    desc = member_struct(convert.instance(member, ParameterMemberSpec, "member"))
    return read_members(lib.eredu_expand_linear_format_member, ctypes.byref(desc),
                        ctypes.byref(spec.struct()))


def expand_linear_format_group(group, specs):
    """A new group with member i replaced by its expansion when specs[i] is
    not None (one entry per member)."""
    handle = handle_of(group, "ParameterGroupSpec", "group")
    array, count = _spec_array(specs)
    slot = ctypes.POINTER(_capi.eredu_group)()
    call(lib.eredu_expand_linear_format_group, handle, array, count, ctypes.byref(slot))
    return ParameterGroupSpec._adopt(slot)


def expand_linear_format_model(model, specs):
    """seed expand_linear_format_parameter_groups: a new description with
    tensor i (document order) expanded when specs[i] is not None."""
    handle = handle_of(model, "ModelDescription", "model")
    array, count = _spec_array(specs)
    slot = ctypes.POINTER(_capi.eredu_model)()
    call(lib.eredu_expand_linear_format_model, handle, array, count, ctypes.byref(slot))
    return ModelDescription._adopt(slot)
