# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The eredu authors

"""A model description: groups in document order (eredu/model.h)."""
import ctypes

from . import _capi
from . import _convert as convert
from ._handle import Handle
from ._library import lib
from .errors import call
from .group import group_array
from .plan import ShardingPolicy, plan_rank, take_text


class ModelDescription(Handle):
    """An immutable, validated model description: its groups in document
    order, indexed by target. Any number of threads may read it and plan
    ranks from it at once. Layouts planned from it stay valid after close().

    Build it with ModelDescription.from_groups (copies the groups; the
    caller still closes its ParameterGroupSpecs) or ModelDescription.from_json
    (the bulk path: one eredu.groups.v1 document).
    """

    _FREE = "eredu_model_free"

    @classmethod
    def _adopt(cls, slot):
        model = cls.__new__(cls)
        Handle.__init__(model, slot)
        return model

    @classmethod
    def from_groups(cls, groups, *, name=None, layers=None, experts=None):
        """A description of `groups` (ParameterGroupSpecs, document order)
        with the optional `model` object: name, decoder-layer count (needed
        for pipeline size > 1), routed experts per layer (expert size > 1).

        Raises ParallelPlanError (EREDU_E_INVALID_GROUP: a scope outside
        layers/experts, a target used twice; EREDU_E_INVALID_TENSOR: a byte
        size overflowing 64 bits), GeneralError (EREDU_E_INVALID_ARGUMENT:
        layers 0)."""
        info = _capi.sized(_capi.eredu_model_info)
        if name is not None:
            info.name = convert.text(name, "name")
        if layers is not None:
            info.has_layers, info.layers = 1, convert.u64(layers, "layers")
        if experts is not None:
            info.has_experts, info.experts = 1, convert.u64(experts, "experts")
        array, count = group_array(groups)
        slot = ctypes.POINTER(_capi.eredu_model)()
        call(lib.eredu_model_new, ctypes.byref(info), array, count, ctypes.byref(slot))
        return cls._adopt(slot)

    @classmethod
    def from_json(cls, text):
        """Loads an eredu.groups.v1 document: its text (str, or UTF-8 bytes
        such as pathlib.Path(file).read_bytes()), not a file name.

        Raises GeneralError (EREDU_E_PARSE with the JSON pointer,
        EREDU_E_UNSUPPORTED_VERSION), ParallelPlanError, LinearFormatError,
        in the order of docs/interchange.md, "Load errors"."""
        data = convert.document(text, "text")
        slot = ctypes.POINTER(_capi.eredu_model)()
        call(lib.eredu_model_from_json, data, len(data), ctypes.byref(slot))
        return cls._adopt(slot)

    def tensor_count(self):
        """Physical tensors (members of all groups, after format expansion)."""
        return lib.eredu_model_tensor_count(self._handle())

    def group_count(self):
        """The number of groups."""
        return lib.eredu_model_group_count(self._handle())

    def global_bytes(self):
        """Bytes of the tensors that have a dtype."""
        return lib.eredu_model_global_bytes(self._handle())

    def warnings(self):
        """What describing could not verify (eredu_model_warning), as a list
        of sentences: e.g. a weight index without metadata.total_size."""
        handle = self._handle()
        return [lib.eredu_model_warning(handle, i).decode("utf-8")
                for i in range(lib.eredu_model_warning_count(handle))]

    def info(self):
        """The `model` object of eredu.groups.v1 as (name, layers, experts),
        each None when absent."""
        info = _capi.sized(_capi.eredu_model_info)
        call(lib.eredu_model_get_info, self._handle(), ctypes.byref(info))
        return (info.name.decode("utf-8") if info.name is not None else None,
                info.layers if info.has_layers else None,
                info.experts if info.has_experts else None)

    def to_json(self):
        """Canonical eredu.groups.v1 text (compact, one trailing newline), as
        `eredu describe` prints it; from_json of it gives an equal model."""
        buffer, length = ctypes.c_void_p(), ctypes.c_size_t()
        call(lib.eredu_model_to_json, self._handle(), ctypes.byref(buffer), ctypes.byref(length))
        return take_text(buffer, length.value)

    def pad_vocab(self, multiple):
        """A new description whose vocabulary groups pad their rows to a
        multiple of `multiple` x the tensor size when planned
        (docs/planning.md, "Vocabulary padding"); this one is unchanged.
        Raises GeneralError (EREDU_E_INVALID_ARGUMENT: multiple 0, no group
        to pad), ParallelPlanError (EREDU_E_INVALID_GROUP)."""
        slot = ctypes.POINTER(_capi.eredu_model)()
        call(lib.eredu_model_pad_vocab, self._handle(), convert.u64(multiple, "multiple"),
             ctypes.byref(slot))
        return type(self)._adopt(slot)

    def plan_rank(self, topology, rank, policy=ShardingPolicy.REQUIRE, *, threads=0,
                  pipeline_layers=None):
        """Plans one rank: see eredu.plan_rank."""
        return plan_rank(self, topology, rank, policy, threads=threads,
                         pipeline_layers=pipeline_layers)

    def __repr__(self):
        if self.closed:
            return "<ModelDescription closed>"
        return f"<ModelDescription {self.group_count()} groups, {self.tensor_count()} tensors>"
