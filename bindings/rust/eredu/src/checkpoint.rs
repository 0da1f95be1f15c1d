// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

//! Describing a model from its files, opening its checkpoint and each
//! rank's read plan: the byte extents of the checkpoint's files that fill
//! every local tensor of a planned rank (`eredu/checkpoint.h`). Offsets,
//! lengths, strides and sizes are bytes.

use std::ffi::c_char;
use std::fmt;
use std::ops::ControlFlow;
use std::path::Path;
use std::ptr::{self, NonNull};

use eredu_sys as sys;

use crate::error::{Error, ErrorCode, Result};
use crate::ffi::{
    borrowed_c_str, borrowed_slice, c_path, call, call_text, flag, struct_size, OutputStruct,
};
use crate::layout::LocalModelLayout;
use crate::model::ModelDescription;
use crate::progress::{with_progress, ProgressFn};
use crate::version::ensure_compatible;

/// How [`ModelDescription::describe`] describes a model
/// (`eredu_describe_options`); the default reads the checkpoint's files and
/// pads nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct DescribeOptions {
    /// Describe a folder from config.json alone, reading no index or shard;
    /// a GGUF file is always described from its own header.
    pub config_only: bool,
    /// Pad the vocabulary groups' rows to a multiple of this times the
    /// tensor size (at least 1); `None`: no padding.
    pub pad_vocab: Option<u64>,
}

impl DescribeOptions {
    /// The C struct; `InvalidArgument` for `pad_vocab` `Some(0)`.
    fn to_raw(self) -> Result<sys::eredu_describe_options> {
        if self.pad_vocab == Some(0) {
            return Err(Error::binding(
                ErrorCode::InvalidArgument,
                "pad_vocab must be at least 1 (None: no padding)",
            ));
        }
        Ok(sys::eredu_describe_options {
            struct_size: struct_size::<sys::eredu_describe_options>(),
            config_only: flag(self.config_only),
            pad_vocab_multiple: self.pad_vocab.unwrap_or(0),
        })
    }
}

impl ModelDescription {
    /// Describes the model at `path` as `eredu describe` does
    /// (`eredu_model_describe`): a `.gguf` file from its metadata and tensor
    /// infos, or a model folder from its config.json, checked against its
    /// weight index and, when they are on disk, its shards' headers (shapes
    /// and dtypes).
    ///
    /// # Errors
    /// `Io` (a file that cannot be read), `Parse` (a malformed config.json,
    /// index or header), `UnsupportedModel` (a model type or quantization
    /// eredu does not describe), `CheckpointMismatch` (tensors not described
    /// exactly once, byte totals, a stored shape that differs from the
    /// configuration's), `InvalidFormat`, `InvalidTensor`, `InvalidGroup`
    /// (the quantized-format expansion, the padding), `OutOfMemory`;
    /// `InvalidArgument` for a path that is not UTF-8 or holds a NUL byte,
    /// and for `pad_vocab` `Some(0)`.
    pub fn describe(path: impl AsRef<Path>, options: &DescribeOptions) -> Result<Self> {
        ensure_compatible()?;
        let path = c_path("path", path.as_ref())?;
        let raw_options = options.to_raw()?;
        let mut out = ptr::null_mut();
        call(|error| {
            // SAFETY: a NUL-terminated path, options with their struct_size
            // and a valid out-pointer.
            unsafe { sys::eredu_model_describe(path.as_ptr(), &raw_options, &mut out, error) }
        })?;
        // SAFETY: on success `out` is a new model owned by the caller.
        Ok(unsafe { Self::from_raw(out) })
    }
}

/// The config.json `model_type` values [`ModelDescription::describe`]
/// supports (`eredu_model_types`), in the order of docs/describe.md's table.
pub fn model_types() -> Vec<String> {
    // SAFETY: a NUL-terminated string in static storage, never NULL.
    let text = unsafe { std::ffi::CStr::from_ptr(sys::eredu_model_types()) };
    text.to_string_lossy()
        .split(", ")
        .map(str::to_owned)
        .collect()
}

impl ModelDescription {
    /// What [`ModelDescription::describe`] could not verify about the model
    /// (`eredu_model_warning_count`, `eredu_model_warning`), such as a
    /// weight index without `metadata.total_size`; empty for most models.
    pub fn warnings(&self) -> Vec<String> {
        // SAFETY: a live model.
        let count = unsafe { sys::eredu_model_warning_count(self.as_ptr()) };
        let mut warnings = Vec::with_capacity(count);
        for index in 0..count {
            // SAFETY: a live model and an index below its count: a
            // NUL-terminated string owned by the model (or NULL).
            let text = unsafe { sys::eredu_model_warning(self.as_ptr(), index) };
            if text.is_null() {
                continue;
            }
            // SAFETY: non-NULL, NUL-terminated, alive while the model is;
            // copied before returning.
            let text = unsafe { std::ffi::CStr::from_ptr(text) };
            warnings.push(text.to_string_lossy().into_owned());
        }
        warnings
    }
}

/// The tensors a checkpoint stores (`eredu_checkpoint`), freed on drop: for
/// each, its file, byte range, element type and shape, read from the
/// headers when it is opened; no file stays open. Read plans made from it
/// stay valid after it is dropped.
pub struct Checkpoint {
    raw: NonNull<sys::eredu_checkpoint>,
}

// SAFETY: an eredu_checkpoint is immutable; any number of threads may read it
// and build read plans from it at once (eredu/checkpoint.h). Only
// eredu_checkpoint_free needs exclusive access, which Drop has.
unsafe impl Send for Checkpoint {}
// SAFETY: as above: every call through &self only reads the checkpoint.
unsafe impl Sync for Checkpoint {}

impl Checkpoint {
    /// Opens the checkpoint at `path` and reads its tensor headers
    /// (`eredu_checkpoint_open`): a `.gguf` or `.safetensors` file, or a
    /// folder with `model.safetensors.index.json` and its shards, or with
    /// `model.safetensors`.
    ///
    /// # Errors
    /// `Io` (nothing to read, a missing shard), `Parse` (a malformed index
    /// or header, naming the file and tensor), `CheckpointMismatch` (an
    /// index and shards that disagree, a tensor stored twice),
    /// `OutOfMemory`; `InvalidArgument` for a path that is not UTF-8 or
    /// holds a NUL byte.
    pub fn open(path: impl AsRef<Path>) -> Result<Self> {
        ensure_compatible()?;
        let path = c_path("path", path.as_ref())?;
        let mut out = ptr::null_mut();
        call(|error| {
            // SAFETY: a NUL-terminated path and a valid out-pointer.
            unsafe { sys::eredu_checkpoint_open(path.as_ptr(), &mut out, error) }
        })?;
        Ok(Self {
            raw: NonNull::new(out).expect("liberedu returned a NULL checkpoint on success"),
        })
    }

    /// The handle, for calls that borrow it.
    pub fn as_ptr(&self) -> *const sys::eredu_checkpoint {
        self.raw.as_ptr()
    }

    /// Describes the model whose checkpoint this is, as
    /// [`ModelDescription::describe`] does for the path it was opened from,
    /// without reading its weight index or headers again
    /// (`eredu_checkpoint_describe`): only a folder's config.json is read.
    /// With `config_only` the checkpoint's tensors are not used.
    ///
    /// # Errors
    /// `Parse` for a `.safetensors` file opened directly (no configuration
    /// describes it); otherwise those of [`ModelDescription::describe`].
    pub fn describe(&self, options: &DescribeOptions) -> Result<ModelDescription> {
        let raw_options = options.to_raw()?;
        let mut out = ptr::null_mut();
        call(|error| {
            // SAFETY: a live checkpoint, options with their struct_size and a
            // valid out-pointer.
            unsafe { sys::eredu_checkpoint_describe(self.as_ptr(), &raw_options, &mut out, error) }
        })?;
        // SAFETY: on success `out` is a new model owned by the caller.
        Ok(unsafe { ModelDescription::from_raw(out) })
    }

    /// The number of tensors the checkpoint stores.
    pub fn tensor_count(&self) -> usize {
        // SAFETY: a live checkpoint.
        unsafe { sys::eredu_checkpoint_tensor_count(self.as_ptr()) }
    }
}

impl Drop for Checkpoint {
    fn drop(&mut self) {
        // SAFETY: the handle is owned, live, and freed exactly once.
        unsafe { sys::eredu_checkpoint_free(self.raw.as_ptr()) }
    }
}

impl std::fmt::Debug for Checkpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Checkpoint")
            .field("tensor_count", &self.tensor_count())
            .finish()
    }
}

/// One byte extent of a read plan (`eredu_read_extent`): for `i` in
/// `0..count`, copy `length` bytes at offset `offset + i * stride` of file
/// `file` (an index into [`ReadPlan::files`]) to offset
/// `dest + i * dest_stride` of the tensor's local buffer. A single extent
/// has count 1 and stride = dest_stride = length.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ReadExtent {
    /// The file, an index into [`ReadPlan::files`].
    pub file: u64,
    /// The first byte in the file.
    pub offset: u64,
    /// The bytes of each copy.
    pub length: u64,
    /// The number of copies.
    pub count: u64,
    /// The bytes from one copy's start in the file to the next.
    pub stride: u64,
    /// The first byte in the local buffer.
    pub dest: u64,
    /// The bytes from one copy's start in the local buffer to the next.
    pub dest_stride: u64,
}

/// How [`ReadPlan::read_rank`] reads (`eredu_read_options`): the numbers
/// are public fields, the optional progress callback is set with
/// [`ReadOptions::with_progress`].
///
/// ```no_run
/// use std::ops::ControlFlow;
/// use eredu::{ReadOptions, ReadPlan};
///
/// # fn read(plan: &ReadPlan, buffers: &mut [&mut [u8]]) -> eredu::Result<()> {
/// let mut options = ReadOptions::default().with_progress(|kept, total| {
///     eprintln!("{kept} of {total} bytes");
///     ControlFlow::Continue(())
/// });
/// options.threads = 4;
/// plan.read_rank(buffers, options)?;
/// # Ok(())
/// # }
/// ```
pub struct ReadOptions<'a> {
    /// Threads reading, the calling one included; 0: one per hardware
    /// thread.
    pub threads: u32,
    /// The most bytes one read request asks for (4096 to 1 GiB).
    pub request_bytes: u64,
    /// Rows of a strided extent with gaps of at most this many bytes are
    /// read as one span, the gaps read and dropped; 0 (the default): rows
    /// are copied from a mapping of their span and only kept bytes are read.
    pub max_gap_bytes: u64,
    /// `O_DIRECT` reads (buffered where the file system refuses them).
    pub direct: bool,
    progress: Option<Box<ProgressFn<'a>>>,
}

impl Default for ReadOptions<'_> {
    /// `EREDU_READ_OPTIONS_INIT`: a thread per hardware thread, 1 MiB
    /// requests, strided rows copied from a mapping (no gap read), buffered
    /// reads.
    fn default() -> Self {
        Self {
            threads: 0,
            request_bytes: 1 << 20,
            max_gap_bytes: 0,
            direct: false,
            progress: None,
        }
    }
}

impl<'a> ReadOptions<'a> {
    /// The same options with a progress callback, called with `(bytes kept
    /// so far, bytes total)`, the total being the bytes the plan keeps (its
    /// [`read_bytes`](ReadPlan::read_bytes)): between requests, at least
    /// every 50 ms while reading, and at the end, so that the last call of
    /// a read that succeeds has both equal. A call comes only when more
    /// bytes were kept since the last one.
    ///
    /// It is called on the thread that called
    /// [`read_rank`](ReadPlan::read_rank), which reads too, never on one of
    /// the library's helper threads; that thread reads nothing while it
    /// runs, so it should return quickly. (`Send` only keeps the options
    /// `Send`.) Returning [`ControlFlow::Break`] cancels the read, which
    /// then fails with
    /// [`ErrorCode::Cancelled`](crate::ErrorCode::Cancelled) (the buffers
    /// may be partly written); the callback is not called again. A panic in
    /// the callback is caught before it reaches the library, cancels the
    /// read, and is resumed once the call returns.
    pub fn with_progress(
        mut self,
        progress: impl FnMut(u64, u64) -> ControlFlow<()> + Send + 'a,
    ) -> Self {
        self.progress = Some(Box::new(progress));
        self
    }

    /// Whether a progress callback is set.
    pub const fn has_progress(&self) -> bool {
        self.progress.is_some()
    }
}

impl fmt::Debug for ReadOptions<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ReadOptions")
            .field("threads", &self.threads)
            .field("request_bytes", &self.request_bytes)
            .field("max_gap_bytes", &self.max_gap_bytes)
            .field("direct", &self.direct)
            .field("progress", &self.has_progress())
            .finish()
    }
}

/// What [`ReadPlan::read_rank`] read (`eredu_read_stats`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReadStats {
    /// Bytes the read requests returned: `bytes_kept` plus the gaps of
    /// coalesced rows and the alignment of direct reads.
    pub bytes_read: u64,
    /// Bytes written to the buffers: the plan's read bytes.
    pub bytes_kept: u64,
    /// Tensors filled.
    pub tensors: u64,
    /// Read system calls.
    pub requests: u64,
    /// Threads that read, the calling one included.
    pub threads: u32,
    /// Whether every request was an `O_DIRECT` read.
    pub direct: bool,
}

/// One tensor of a read plan, copied out of it (`eredu_read_tensor_info`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ReadTensor {
    /// The tensor name.
    pub target: String,
    /// The stored element type: a safetensors dtype (`"BF16"`) or a ggml
    /// type name (`"Q4_K"`).
    pub dtype: String,
    /// The local shape, outermost first: elements, except the row
    /// (innermost) axis of a GGUF block type, which counts bytes.
    pub local_shape: Vec<u64>,
    /// Bytes of the tensor's local buffer, padding rows included.
    pub local_bytes: u64,
    /// Bytes the extents read (the sum of length × count).
    pub read_bytes: u64,
    /// Rows of the local buffer past the checkpoint's (vocabulary
    /// padding): allocated at the end of the padded axis, not read.
    pub padding_rows: u64,
    /// The extents, in ascending destination order; empty for an empty
    /// selection.
    pub extents: Vec<ReadExtent>,
}

/// The read plan of one planned rank over a checkpoint (`eredu_read_plan`,
/// canonical text `eredu.readplan.v1`), freed on drop: for every tensor the
/// rank materializes, in target order, the extents of the checkpoint's
/// files that fill its local buffer, each byte read exactly once. It copies
/// what it needs: the layout and checkpoint may be dropped first.
pub struct ReadPlan {
    raw: NonNull<sys::eredu_read_plan>,
}

// SAFETY: an eredu_read_plan is immutable; any number of threads may read it
// at once and the handle may move between threads (eredu/checkpoint.h). Only
// eredu_read_plan_free needs exclusive access, which Drop has.
unsafe impl Send for ReadPlan {}
// SAFETY: as above: every call through &self only reads the plan.
unsafe impl Sync for ReadPlan {}

impl ReadPlan {
    /// The read plan of `layout`'s rank over `checkpoint`
    /// (`eredu_read_plan_new`).
    ///
    /// # Errors
    /// `CheckpointMismatch` (a tensor the rank materializes that the
    /// checkpoint does not store, or stores with another shape or element
    /// type), `OutOfMemory`.
    pub fn new(layout: &LocalModelLayout, checkpoint: &Checkpoint) -> Result<Self> {
        let mut out = ptr::null_mut();
        call(|error| {
            // SAFETY: a live layout and checkpoint and a valid out-pointer;
            // the plan copies what it needs from both.
            unsafe {
                sys::eredu_read_plan_new(layout.as_ptr(), checkpoint.as_ptr(), &mut out, error)
            }
        })?;
        Ok(Self {
            raw: NonNull::new(out).expect("liberedu returned a NULL read plan on success"),
        })
    }

    /// The handle, for calls that borrow it.
    pub fn as_ptr(&self) -> *const sys::eredu_read_plan {
        self.raw.as_ptr()
    }

    /// The plan's global rank.
    pub fn rank(&self) -> u64 {
        // SAFETY: a live plan.
        unsafe { sys::eredu_read_plan_rank(self.as_ptr()) }
    }

    /// The bytes every extent of the plan reads.
    pub fn read_bytes(&self) -> u64 {
        // SAFETY: a live plan.
        unsafe { sys::eredu_read_plan_read_bytes(self.as_ptr()) }
    }

    /// The strings `file(plan, index)` lends for every file of the plan.
    fn file_strings(
        &self,
        file: unsafe extern "C" fn(*const sys::eredu_read_plan, usize) -> *const c_char,
    ) -> Vec<&str> {
        // SAFETY: a live plan.
        let count = unsafe { sys::eredu_read_plan_file_count(self.as_ptr()) };
        (0..count)
            .map(|index| {
                // SAFETY: a live plan and an index below its file count, for
                // which the library returns a string the plan owns.
                unsafe { borrowed_c_str(file(self.as_ptr(), index)) }
            })
            .collect()
    }

    /// The files the extents use ([`ReadExtent::file`] indexes this list)
    /// as `eredu.readplan.v1` names them: the path as given for a file
    /// opened directly, else relative to the model folder.
    pub fn files(&self) -> Vec<&str> {
        self.file_strings(sys::eredu_read_plan_file)
    }

    /// [`ReadPlan::files`] as paths to open: joined to the model folder the
    /// checkpoint was opened from.
    pub fn file_paths(&self) -> Vec<&Path> {
        self.file_strings(sys::eredu_read_plan_file_path)
            .into_iter()
            .map(Path::new)
            .collect()
    }

    /// Every tensor, in target order: one library call each.
    ///
    /// # Panics
    /// If the library refuses an index below its tensor count, which it
    /// cannot unless it is broken.
    pub fn tensors(&self) -> Vec<ReadTensor> {
        // SAFETY: a live plan.
        let count = unsafe { sys::eredu_read_plan_tensor_count(self.as_ptr()) };
        (0..count).map(|index| self.tensor_at(index)).collect()
    }

    /// A copy of tensor `index < tensor count`.
    fn tensor_at(&self, index: usize) -> ReadTensor {
        let mut info = sys::eredu_read_tensor_info::empty();
        call(|error| {
            // SAFETY: a live plan, an index below its tensor count and a
            // struct with its struct_size.
            unsafe { sys::eredu_read_plan_tensor_info(self.as_ptr(), index, &mut info, error) }
        })
        .expect("liberedu refused a tensor index below the read plan's tensor count");
        // SAFETY: the strings and arrays of `info` are borrowed from this
        // plan, which outlives the copies made here.
        let (target, dtype, local_shape, extents) = unsafe {
            (
                borrowed_c_str(info.target),
                borrowed_c_str(info.dtype),
                borrowed_slice(info.local_shape, info.ndim),
                borrowed_slice(info.extents, info.extent_count),
            )
        };
        ReadTensor {
            target: target.to_owned(),
            dtype: dtype.to_owned(),
            local_shape: local_shape.to_vec(),
            local_bytes: info.local_bytes,
            read_bytes: info.read_bytes,
            padding_rows: info.padding_rows,
            extents: extents
                .iter()
                .map(|extent| ReadExtent {
                    file: extent.file,
                    offset: extent.offset,
                    length: extent.length,
                    count: extent.count,
                    stride: extent.stride,
                    dest: extent.dest,
                    dest_stride: extent.dest_stride,
                })
                .collect(),
        }
    }

    /// Fills `buffer` (at least the tensor's `local_bytes`) with tensor
    /// `index`'s bytes from the checkpoint's files: exactly its extents,
    /// single ones with `pread`, strided rows from a read-only mapping.
    /// Padding rows and bytes past `local_bytes` are left as they were.
    ///
    /// # Errors
    /// `InvalidArgument` for an index out of range or a buffer shorter than
    /// the tensor; `Io` for a file that cannot be read (or changed since it
    /// was opened).
    pub fn read_tensor(&self, index: usize, buffer: &mut [u8]) -> Result<()> {
        call(|error| {
            // SAFETY: a live plan; `buffer` is valid for writes of its length.
            unsafe {
                sys::eredu_read_plan_read_tensor(
                    self.as_ptr(),
                    index,
                    buffer.as_mut_ptr().cast(),
                    buffer.len(),
                    error,
                )
            }
        })
    }

    /// Fills every tensor's buffer at once (`eredu_read_plan_read_rank`,
    /// docs/checkpoints.md "Reading a whole rank"): `buffers` holds one
    /// buffer per tensor in `tensors()` order, each at least its
    /// `local_bytes`; a pool of `options.threads` threads issues preads of
    /// at most `options.request_bytes`, each file opened once, rows with
    /// gaps of at most `options.max_gap_bytes` read as one span. Padding
    /// rows and bytes past `local_bytes` are left as they were. The
    /// options' progress callback ([`ReadOptions::with_progress`]) is
    /// called on this thread.
    ///
    /// # Errors
    /// `InvalidArgument` for a buffer count other than the tensor count, a
    /// buffer shorter than its tensor or a request size out of range; `Io`
    /// for a file that cannot be read or is shorter than the plan;
    /// `Cancelled` when the progress callback returned
    /// [`ControlFlow::Break`] or panicked (the panic is then resumed
    /// instead).
    pub fn read_rank(
        &self,
        buffers: &mut [&mut [u8]],
        mut options: ReadOptions<'_>,
    ) -> Result<ReadStats> {
        let mut tensors: Vec<sys::eredu_tensor_buffer> = buffers
            .iter_mut()
            .map(|buffer| sys::eredu_tensor_buffer {
                data: buffer.as_mut_ptr().cast(),
                capacity: buffer.len() as u64,
            })
            .collect();
        let mut stats = sys::eredu_read_stats::empty();
        with_progress(
            options.progress.as_deref_mut(),
            |progress, progress_data| {
                let c_options = sys::eredu_read_options {
                    struct_size: struct_size::<sys::eredu_read_options>(),
                    threads: options.threads,
                    request_bytes: options.request_bytes,
                    max_gap_bytes: options.max_gap_bytes,
                    direct: u8::from(options.direct),
                    progress,
                    progress_data,
                };
                call(|error| {
                    // SAFETY: a live plan; every buffer is valid for writes of
                    // its length and borrowed mutably for the whole call; the
                    // progress data outlives the call.
                    unsafe {
                        sys::eredu_read_plan_read_rank(
                            self.as_ptr(),
                            tensors.as_mut_ptr(),
                            tensors.len(),
                            &c_options,
                            &mut stats,
                            error,
                        )
                    }
                })
            },
        )?;
        Ok(ReadStats {
            bytes_read: stats.bytes_read,
            bytes_kept: stats.bytes_kept,
            tensors: stats.tensors,
            requests: stats.requests,
            threads: stats.threads,
            direct: stats.direct != 0,
        })
    }

    /// The canonical `eredu.readplan.v1` JSON text (compact, one trailing
    /// newline), byte-identical across bindings and `eredu read-plan`.
    ///
    /// # Errors
    /// `OutOfMemory`.
    pub fn to_json(&self) -> Result<String> {
        call_text(|text, length, error| {
            // SAFETY: a live plan and valid out-pointers.
            unsafe { sys::eredu_read_plan_to_json(self.as_ptr(), text, length, error) }
        })
    }
}

impl Drop for ReadPlan {
    fn drop(&mut self) {
        // SAFETY: the handle is owned, live, and freed exactly once.
        unsafe { sys::eredu_read_plan_free(self.raw.as_ptr()) }
    }
}

impl std::fmt::Debug for ReadPlan {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReadPlan")
            .field("rank", &self.rank())
            .field("read_bytes", &self.read_bytes())
            .field("files", &self.files())
            .finish()
    }
}
