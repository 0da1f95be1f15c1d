# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The eredu authors

"""Describing a model from its files, opening its checkpoint and each
rank's read plan: the byte extents of the checkpoint's files that fill
every local tensor of a planned rank (eredu/checkpoint.h).

Paths are str or os.PathLike (UTF-8; a bytes path is refused). Offsets,
lengths, strides and sizes are bytes.
"""
import ctypes
import dataclasses

from . import _capi
from . import _convert as convert
from ._handle import Handle, handle_of
from ._library import lib
from .errors import EreduError, call
from .model import ModelDescription
from .plan import take_text

_byref = ctypes.byref


def model_types():
    """The config.json model_type values describe_model supports, in the
    order of docs/describe.md's table (eredu_model_types)."""
    return lib.eredu_model_types().decode("utf-8").split(", ")


def describe_model(path, *, config_only=False, pad_vocab=None):
    """Describes the model at `path` as `eredu describe` does
    (eredu_model_describe): a .gguf file from its metadata and tensor
    infos, or a model folder from its config.json, checked against its
    weight index and, when they are on disk, its shards' headers (shapes
    and dtypes). Returns a ModelDescription.

    `config_only`: describe a folder from config.json alone, reading no
    index or shard (a GGUF file is always described from its own header).
    `pad_vocab`: pad the vocabulary groups' rows to a multiple of pad_vocab
    x the tensor size (at least 1; None: no padding).

    Raises GeneralError (EREDU_E_IO: a file that cannot be read;
    EREDU_E_PARSE: a malformed config.json, index or header;
    EREDU_E_UNSUPPORTED_MODEL: a model type or quantization eredu does not
    describe; EREDU_E_CHECKPOINT_MISMATCH: tensors not described exactly
    once, byte totals, a stored shape that differs from the
    configuration's), LinearFormatError and ParallelPlanError (the
    quantized-format expansion, the padding). A pad_vocab of 0 raises
    ValueError before the library is called."""
    where = convert.path(path, "path")
    options = _describe_options(config_only, pad_vocab)
    slot = ctypes.POINTER(_capi.eredu_model)()
    call(lib.eredu_model_describe, where, _byref(options), _byref(slot))
    return ModelDescription._adopt(slot)


def _describe_options(config_only, pad_vocab):
    options = _capi.sized(_capi.eredu_describe_options)
    options.config_only = convert.flag(config_only)
    if pad_vocab is not None:
        multiple = convert.u64(pad_vocab, "pad_vocab")
        if multiple == 0:
            raise ValueError("pad_vocab must be at least 1 (None: no padding), got 0")
        options.pad_vocab_multiple = multiple
    return options


class Checkpoint(Handle):
    """The tensors a checkpoint stores (eredu_checkpoint): for each, its
    file, byte range, element type and shape, read from the headers when
    it is opened; no file stays open. Immutable: any number of threads may
    read it and build read plans from it at once; plans stay valid after
    close(). len() is the number of tensors it stores."""

    _FREE = "eredu_checkpoint_free"

    @classmethod
    def open(cls, path):
        """Opens the checkpoint at `path` and reads its tensor headers: a
        .gguf or .safetensors file, or a folder with
        model.safetensors.index.json and its shards, or with
        model.safetensors.

        Raises GeneralError (EREDU_E_IO: nothing to read, a missing shard;
        EREDU_E_PARSE: a malformed index or header, naming the file and
        tensor; EREDU_E_CHECKPOINT_MISMATCH: an index and shards that
        disagree, a tensor stored twice)."""
        where = convert.path(path, "path")
        slot = ctypes.POINTER(_capi.eredu_checkpoint)()
        call(lib.eredu_checkpoint_open, where, _byref(slot))
        checkpoint = cls.__new__(cls)
        Handle.__init__(checkpoint, slot)
        return checkpoint

    def describe(self, *, config_only=False, pad_vocab=None):
        """Describes the model whose checkpoint this is, as describe_model
        does for the path it was opened from, without reading its weight
        index or headers again (eredu_checkpoint_describe): only a
        folder's config.json is read. With `config_only` the checkpoint's
        tensors are not used. Returns a ModelDescription.

        Raises GeneralError (EREDU_E_PARSE for a .safetensors file opened
        directly: no configuration describes it), then describe_model's
        errors; ValueError for a pad_vocab of 0."""
        options = _describe_options(config_only, pad_vocab)
        slot = ctypes.POINTER(_capi.eredu_model)()
        call(lib.eredu_checkpoint_describe, self._handle(), _byref(options), _byref(slot))
        return ModelDescription._adopt(slot)

    def __len__(self):
        return lib.eredu_checkpoint_tensor_count(self._handle())

    def __repr__(self):
        if self.closed:
            return "<Checkpoint closed>"
        return f"<Checkpoint {len(self)} tensors>"


@dataclasses.dataclass(frozen=True)
class ReadExtent:
    """One byte extent of a read plan (eredu_read_extent): for i in
    range(count), copy `length` bytes at offset `offset + i * stride` of
    file `file` (an index into ReadPlan.files) to offset
    `dest + i * dest_stride` of the tensor's local buffer. A single extent
    has count 1 and stride = dest_stride = length."""

    file: int
    offset: int
    length: int
    count: int
    stride: int
    dest: int
    dest_stride: int


@dataclasses.dataclass(frozen=True)
class ReadTensor:
    """One tensor of a read plan, copied out of it (eredu_read_tensor_info).

    `dtype` is the stored element type's name: a safetensors dtype ("BF16")
    or a ggml type name ("Q4_K"). `local_shape` is outermost first, in
    elements, except the row (innermost) axis of a GGUF block type, which
    counts bytes. `local_bytes` is the size of the local buffer, padding
    rows included; `read_bytes` the bytes the extents read (the sum of
    length * count). `padding_rows` are the rows at the end of the padded
    axis past the checkpoint's (vocabulary padding): allocated, not read.
    `extents` (ReadExtents) are in ascending destination order; empty for
    an empty selection."""

    target: str
    dtype: str
    local_shape: tuple
    local_bytes: int
    read_bytes: int
    padding_rows: int
    extents: tuple


def _read_tensor(handle, index):
    """The ReadTensor of tensor `index` of a live plan (one library call)."""
    info = _capi.sized(_capi.eredu_read_tensor_info)
    call(lib.eredu_read_plan_tensor_info, handle, index, _byref(info))
    extents = info.extents[:info.extent_count] if info.extent_count else ()
    return ReadTensor(
        target=info.target.decode("utf-8"),
        dtype=info.dtype.decode("utf-8"),
        local_shape=tuple(info.local_shape[:info.ndim]) if info.ndim else (),
        local_bytes=info.local_bytes,
        read_bytes=info.read_bytes,
        padding_rows=info.padding_rows,
        extents=tuple(ReadExtent(extent.file, extent.offset, extent.length, extent.count,
                                 extent.stride, extent.dest, extent.dest_stride)
                      for extent in extents),
    )



@dataclasses.dataclass(frozen=True)
class ReadStats:
    """What ReadPlan.read_rank read (eredu_read_stats): `bytes_read`, every
    byte the read requests returned from the files; `bytes_kept`, the bytes
    written to the buffers (the plan's read_bytes; bytes_read is more by
    the gaps of coalesced rows and the alignment of direct reads);
    `tensors`; `requests`, read system calls; `threads`; `direct`, whether
    every request bypassed the page cache."""

    bytes_read: int
    bytes_kept: int
    tensors: int
    requests: int
    threads: int
    direct: bool


def _writable_pointer(buffer, name):
    """(pointer, length, keep) of a writable bytes-like object, or of a
    contiguous CPU torch tensor (its data_ptr(), numel() x element_size())."""
    if hasattr(buffer, "data_ptr") and hasattr(buffer, "element_size"):
        if not buffer.is_contiguous() or buffer.device.type != "cpu":
            raise TypeError(f"{name} must be a contiguous CPU tensor")
        length = buffer.numel() * buffer.element_size()
        return (ctypes.c_void_p(buffer.data_ptr()) if length else None), length, buffer
    view = memoryview(buffer).cast("B")
    if view.readonly:
        raise TypeError(f"{name} must be writable")
    if not len(view):
        return None, 0, view
    array = (ctypes.c_char * len(view)).from_buffer(view)
    return ctypes.cast(array, ctypes.c_void_p), len(view), (view, array)


class ReadPlan(Handle):
    """The read plan of one planned rank over a checkpoint (eredu_read_plan,
    canonical text eredu.readplan.v1): for every tensor the rank
    materializes, in target order, the extents of the checkpoint's files
    that fill its local buffer, each byte read exactly once. Immutable: any
    number of threads may read it at once. It copies what it needs from
    its layout and checkpoint, which may be closed first.

    `rank`, `read_bytes`, `files`, `file_paths` and `tensors` are
    properties; `tensors` reads each tensor with one library call."""

    _FREE = "eredu_read_plan_free"

    @property
    def rank(self):
        """The plan's global rank."""
        return lib.eredu_read_plan_rank(self._handle())

    @property
    def read_bytes(self):
        """The bytes every extent of the plan reads."""
        return lib.eredu_read_plan_read_bytes(self._handle())

    def _files(self, function):
        handle = self._handle()
        return [function(handle, index).decode("utf-8")
                for index in range(lib.eredu_read_plan_file_count(handle))]

    @property
    def files(self):
        """The files the extents use (a ReadExtent's `file` indexes this
        list) as eredu.readplan.v1 names them: the path as given for a file
        opened directly, else relative to the model folder."""
        return self._files(lib.eredu_read_plan_file)

    @property
    def file_paths(self):
        """`files` as paths to open: joined to the model folder the
        checkpoint was opened from."""
        return self._files(lib.eredu_read_plan_file_path)

    @property
    def tensors(self):
        """Every tensor as a ReadTensor, in target order."""
        handle = self._handle()
        return [_read_tensor(handle, index)
                for index in range(lib.eredu_read_plan_tensor_count(handle))]

    def _index(self, key):
        """The index of the tensor at index `key`, or with target `key`
        (looked up in a table built on first use: the plan never changes,
        and reading every tensor by name must not read every tensor's info
        each time)."""
        if isinstance(key, str):
            targets = self.__dict__.get("_targets")
            if targets is None:
                targets = {tensor.target: index for index, tensor in enumerate(self.tensors)}
                self._targets = targets
            if key not in targets:
                raise KeyError(f"the read plan has no tensor {key!r}")
            return targets[key]
        return convert.size(key, "index")

    def read_into(self, tensor, buffer=None):
        """`tensor`'s local buffer (`tensor`: its index or target) filled from
        the checkpoint's files by eredu_read_plan_read_tensor: exactly its
        extents' bytes (pread for single extents, a read-only mapping for
        strided rows). Into `buffer` when given (a writable bytes-like object
        of at least local_bytes, e.g. a torch tensor's numpy view or a
        bytearray), else a new zeroed bytearray; returns it. Padding rows
        are left as they were.

        Raises KeyError for a target the plan does not read; GeneralError
        with EREDU_E_INVALID_ARGUMENT for an index out of range or a buffer
        that is too small, EREDU_E_IO for a file that cannot be read."""
        index = self._index(tensor)
        if buffer is None:
            buffer = bytearray(_read_tensor(self._handle(), index).local_bytes)
        view = memoryview(buffer).cast("B")
        if view.readonly:
            raise TypeError("buffer must be writable")
        pointer = (ctypes.c_char * max(len(view), 1)).from_buffer(view) if len(view) else None
        call(lib.eredu_read_plan_read_tensor, self._handle(), index, pointer, len(view))
        return buffer

    def read_rank(self, buffers=None, *, threads=0, request_bytes=1 << 20,
                  max_gap_bytes=0, direct=False, progress=None):
        """Every tensor of the plan read at once by eredu_read_plan_read_rank
        (docs/checkpoints.md, "Reading a whole rank"): a pool of `threads`
        threads (0: one per hardware thread) issuing preads of at most
        `request_bytes`, each file opened once, rows of strided extents with
        gaps of at most `max_gap_bytes` read as one span (0: copied from a
        mapping, only kept bytes read); with `direct`,
        O_DIRECT reads (buffered where the file system refuses them).

        `buffers`: one writable bytes-like object (or torch tensor: its
        data_ptr() and nbytes are used, and it must be contiguous) per
        tensor in `tensors` order, each of at least its local_bytes; None
        for new zeroed bytearrays. `progress(done, total)` (bytes kept) is
        called on this thread; a true result, or an exception, cancels.

        Returns (buffers, ReadStats). Raises GeneralError:
        EREDU_E_INVALID_ARGUMENT (a buffer count other than the tensor count,
        a buffer that is too small, request_bytes out of range),
        EREDU_E_IO (a file that cannot be read or is shorter than the plan),
        EREDU_E_CANCELLED; what `progress` raised, if it did."""
        handle = self._handle()
        count = lib.eredu_read_plan_tensor_count(handle)
        if buffers is None:
            buffers = [bytearray(_read_tensor(handle, index).local_bytes)
                       for index in range(count)]
        else:
            buffers = list(buffers)
        array = (_capi.eredu_tensor_buffer * max(len(buffers), 1))()
        keep = []
        for index, buffer in enumerate(buffers):
            pointer, length, owner = _writable_pointer(buffer, f"buffers[{index}]")
            keep.append(owner)
            array[index].data = pointer
            array[index].capacity = length
        options = _capi.defaults(_capi.eredu_read_options)
        options.threads = convert.u32(threads, "threads")
        options.request_bytes = convert.u64(request_bytes, "request_bytes")
        options.max_gap_bytes = convert.u64(max_gap_bytes, "max_gap_bytes")
        options.direct = 1 if direct else 0
        progress = None if progress is None else _capi.Progress(progress)
        if progress is not None:
            options.progress = progress.pointer
        stats = _capi.sized(_capi.eredu_read_stats)
        try:
            call(lib.eredu_read_plan_read_rank, handle, array, len(buffers), _byref(options),
                 _byref(stats))
        except EreduError:
            if progress is not None:
                progress.raise_error()
            raise
        if progress is not None:
            progress.raise_error()
        return buffers, ReadStats(stats.bytes_read, stats.bytes_kept, stats.tensors,
                                  stats.requests, stats.threads, bool(stats.direct))

    def to_json(self):
        """Canonical eredu.readplan.v1 text (compact, one trailing newline),
        byte-identical across bindings and the `eredu read-plan` command."""
        buffer, length = ctypes.c_void_p(), ctypes.c_size_t()
        call(lib.eredu_read_plan_to_json, self._handle(), _byref(buffer), _byref(length))
        return take_text(buffer, length.value)

    def __repr__(self):
        if self.closed:
            return "<ReadPlan closed>"
        return (f"<ReadPlan rank {self.rank}, "
                f"{lib.eredu_read_plan_tensor_count(self._handle())} tensors, "
                f"{self.read_bytes} bytes>")


def read_plan(layout, checkpoint):
    """The read plan of `layout`'s rank (a LocalModelLayout) over
    `checkpoint` (a Checkpoint): eredu_read_plan_new.

    Raises GeneralError (EREDU_E_CHECKPOINT_MISMATCH: a tensor the rank
    materializes that the checkpoint does not store, or stores with another
    shape or element type)."""
    layout_handle = handle_of(layout, "LocalModelLayout", "layout")
    checkpoint_handle = handle_of(checkpoint, "Checkpoint", "checkpoint")
    slot = ctypes.POINTER(_capi.eredu_read_plan)()
    call(lib.eredu_read_plan_new, layout_handle, checkpoint_handle, _byref(slot))
    plan = ReadPlan.__new__(ReadPlan)
    Handle.__init__(plan, slot)
    return plan
