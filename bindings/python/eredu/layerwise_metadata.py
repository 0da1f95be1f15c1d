# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The eredu authors

"""seed LayerwiseModelMetadata (eredu/runtime/layerwise_metadata.h;
docs/residency.md, "Layerwise model metadata"): the runtime-owned,
updateable parameter-residency snapshot of a layered model. Setters change
the snapshot and must not overlap other calls on it."""
import ctypes

from . import _capi
from . import _convert as convert
from ._handle import Handle
from ._library import lib
from .errors import call
from .format import LinearFormat, LinearFormatKind
from .weight_residency import ExecutionResidency


def _quantization(format):
    """None (or DENSE) for no quantization, else an eredu_linear_format."""
    return None if format is None else ctypes.byref(format.struct())


class LayerwiseModelMetadata(Handle):
    """The snapshot: effective model type, checkpoint-native weight
    quantization (None or an AFFINE, MXFP4 or GGUF LinearFormat), unit count,
    pinned static device bytes, execution residency, unit byte sizes and
    device unit window. Raises LinearFormatError for a bad quantization."""

    _FREE = "eredu_layerwise_model_metadata_free"

    def __init__(self, effective_model_type, quantization, layer_count, static_device_bytes,
                 residency, layer_parameter_bytes, maximum_device_layer_bytes,
                 maximum_host_layer_bytes, device_layer_capacity):
        slot = ctypes.POINTER(_capi.eredu_layerwise_model_metadata)()
        call(lib.eredu_layerwise_model_metadata_new,
             convert.text(effective_model_type, "effective_model_type"),
             _quantization(quantization), convert.u64(layer_count, "layer_count"),
             convert.u64(static_device_bytes, "static_device_bytes"),
             convert.u32(residency, "residency"),
             convert.u64(layer_parameter_bytes, "layer_parameter_bytes"),
             convert.u64(maximum_device_layer_bytes, "maximum_device_layer_bytes"),
             convert.u64(maximum_host_layer_bytes, "maximum_host_layer_bytes"),
             convert.u64(device_layer_capacity, "device_layer_capacity"), ctypes.byref(slot))
        super().__init__(slot)

    def set_effective_model_type(self, effective_model_type):
        call(lib.eredu_layerwise_model_metadata_set_effective_model_type, self._handle(),
             convert.text(effective_model_type, "effective_model_type"))

    def set_quantization(self, quantization):
        call(lib.eredu_layerwise_model_metadata_set_quantization, self._handle(),
             _quantization(quantization))

    def _info(self):
        info = _capi.sized(_capi.eredu_layerwise_model_metadata_info)
        call(lib.eredu_layerwise_model_metadata_get_info, self._handle(), ctypes.byref(info))
        return info

    def effective_model_type(self):
        info = self._info()
        return _capi.text(info, "effective_model_type", info.effective_model_type_length)

    def quantization(self):
        """The LinearFormat, or None."""
        out, present = _capi.sized(_capi.eredu_linear_format), ctypes.c_bool()
        call(lib.eredu_layerwise_model_metadata_quantization, self._handle(), ctypes.byref(out),
             ctypes.byref(present))
        if not present.value:
            return None
        kind = LinearFormatKind(out.kind)
        if kind == LinearFormatKind.AFFINE:
            return LinearFormat.affine(out.affine_group_size, out.affine_bits)
        if kind == LinearFormatKind.GGUF:
            return LinearFormat.gguf(out.ggml_type)
        return LinearFormat(kind)

    def layer_count(self):
        return self._info().layer_count

    def static_device_bytes(self):
        return self._info().static_device_bytes

    def residency(self):
        return ExecutionResidency(self._info().residency)

    def layer_parameter_bytes(self):
        return self._info().layer_parameter_bytes

    def maximum_device_layer_bytes(self):
        return self._info().maximum_device_layer_bytes

    def maximum_host_layer_bytes(self):
        return self._info().maximum_host_layer_bytes

    def device_layer_capacity(self):
        return self._info().device_layer_capacity
