# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The eredu authors

"""Projection group helpers and ParallelModelInfo (seed
projection_parameter_group, partitioned_projection_group,
segmented_projection_group, ParallelModelInfo; eredu/runtime/projection.h). A
module is a list of ModuleParameter values (the seed visits a backend
module; here the caller lists its parameters)."""
import ctypes
import dataclasses
import enum

from . import _capi
from . import _convert as convert
from ._handle import Handle
from ._library import lib
from .errors import call
from .group import Dtype, ParameterGroupSpec, scope_struct
from .plan import ParallelTopology


class ProjectionSharding(enum.IntEnum):
    """seed ProjectionSharding (EREDU_PROJECTION_*)."""

    REPLICATED = 0
    COLUMN = 1
    ROW = 2


@dataclasses.dataclass(frozen=True)
class ModuleParameter:
    """One parameter of a module: checkpoint id, shape in elements, dtype."""

    id: str
    shape: tuple
    dtype: Dtype = None


def _parameters(parameters):
    """ModuleParameters as a C array of descriptor pointers."""
    structs = []
    for parameter in parameters:
        struct = _capi.sized(_capi.eredu_module_parameter)
        struct.id = convert.text(parameter.id, "parameter id")
        struct.shape = convert.u64_array(parameter.shape, f"{parameter.id} shape")
        struct.ndim = len(parameter.shape)
        if parameter.dtype is not None:
            dtype = Dtype[parameter.dtype] if isinstance(parameter.dtype, str) else parameter.dtype
            struct.has_dtype, struct.dtype = 1, convert.u32(dtype, "dtype")
        structs.append(struct)
    pointer = ctypes.POINTER(_capi.eredu_module_parameter)
    return (pointer * len(structs))(*map(ctypes.pointer, structs)), len(structs)


def _group(function, *args):
    slot = ctypes.POINTER(_capi.eredu_group)()
    call(function, *args, ctypes.byref(slot))
    return ParameterGroupSpec._adopt(slot)


def projection_parameter_group(logical_name, role, parameters, placement, *, scope=None):
    """Every parameter of one module as an unpartitioned group: COLUMN ->
    equal on axis 0, ROW -> equal on axis 1 (replicated below 2 axes)."""
    array, count = _parameters(parameters)
    return _group(lib.eredu_projection_parameter_group, convert.text(logical_name, "name"),
                  convert.u32(role, "role"), scope_struct(scope), array, count,
                  convert.u32(placement, "placement"))


def partitioned_projection_group(logical_name, role, projections, preferred_units, *,
                                 scope=None):
    """Several projections, given as (parameters, ProjectionSharding) pairs,
    sharing one logical partition reduced from `preferred_units`."""
    pointers = []
    for parameters, placement in projections:
        array, count = _parameters(parameters)
        projection = _capi.sized(_capi.eredu_projection)
        projection.parameters, projection.parameter_count = array, count
        projection.placement = convert.u32(placement, "placement")
        pointers.append(ctypes.pointer(projection))
    array = (ctypes.POINTER(_capi.eredu_projection) * len(pointers))(*pointers)
    return _group(lib.eredu_partitioned_projection_group, convert.text(logical_name, "name"),
                  convert.u32(role, "role"), scope_struct(scope), array, len(pointers),
                  convert.u64(preferred_units, "preferred_units"))


def segmented_projection_group(logical_name, role, fused, row, segments, preferred_units, *,
                               scope=None):
    """A component-major fused column projection (output axis split into
    `segments`) and its row projection as one partition."""
    fused_array, fused_count = _parameters(fused)
    row_array, row_count = _parameters(row)
    flat, segment_count = convert.ranges(segments, "segments")
    return _group(lib.eredu_segmented_projection_group, convert.text(logical_name, "name"),
                  convert.u32(role, "role"), scope_struct(scope), fused_array, fused_count,
                  row_array, row_count, flat, segment_count,
                  convert.u64(preferred_units, "preferred_units"))


class ParallelModelInfo(Handle):
    """seed ParallelModelInfo: an architecture-neutral summary of one
    rank-local parallel model (bytes are bytes). Raises TopologyError for a
    zero axis or an overflowing world size."""

    _FREE = "eredu_parallel_model_info_free"

    def __init__(self, topology, effective_model_type, owned_tensors, local_parameter_bytes,
                 global_parameter_bytes, pinned_device_parameter_bytes,
                 maximum_device_parameter_bytes):
        topology = ParallelTopology.of(topology).struct()
        names = [convert.text(name, "owned tensor") for name in owned_tensors]
        array = (ctypes.c_char_p * len(names))(*names)
        slot = ctypes.POINTER(_capi.eredu_parallel_model_info)()
        call(lib.eredu_parallel_model_info_new, ctypes.byref(topology),
             convert.text(effective_model_type, "effective_model_type"), array, len(names),
             convert.u64(local_parameter_bytes, "local_parameter_bytes"),
             convert.u64(global_parameter_bytes, "global_parameter_bytes"),
             convert.u64(pinned_device_parameter_bytes, "pinned_device_parameter_bytes"),
             convert.u64(maximum_device_parameter_bytes, "maximum_device_parameter_bytes"),
             ctypes.byref(slot))
        super().__init__(slot)

    def topology(self):
        out = _capi.sized(_capi.eredu_topology)
        call(lib.eredu_parallel_model_info_topology, self._handle(), ctypes.byref(out))
        return ParallelTopology.from_struct(out)

    def _summary(self):
        summary = _capi.sized(_capi.eredu_parallel_model_summary)
        call(lib.eredu_parallel_model_info_get_summary, self._handle(), ctypes.byref(summary))
        return summary

    def effective_model_type(self):
        summary = self._summary()
        return _capi.text(summary, "effective_model_type", summary.effective_model_type_length)

    def owned_tensors(self):
        handle = self._handle()
        names = []
        for index in range(lib.eredu_parallel_model_info_owned_tensor_count(handle)):
            text, length = ctypes.c_char_p(), ctypes.c_size_t()
            call(lib.eredu_parallel_model_info_owned_tensor, handle, index, ctypes.byref(text),
                 ctypes.byref(length))
            names.append(convert.read_text(text, length.value))
        return names

    def local_parameter_bytes(self):
        return self._summary().local_parameter_bytes

    def global_parameter_bytes(self):
        return self._summary().global_parameter_bytes

    def pinned_device_parameter_bytes(self):
        return self._summary().pinned_device_parameter_bytes

    def maximum_device_parameter_bytes(self):
        return self._summary().maximum_device_parameter_bytes
