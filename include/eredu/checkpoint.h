// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

/*
 * eredu/checkpoint.h: describing a model from its files, opening its
 * checkpoint (safetensors, GGUF) and each rank's read plan: the byte
 * extents of the files that fill its local tensors (docs/checkpoints.md,
 * docs/describe.md).
 */
#ifndef EREDU_CHECKPOINT_H
#define EREDU_CHECKPOINT_H

#include <eredu/types.h>

/**
 * How to describe a model (eredu_model_describe). A sized struct
 * (docs/abi.md): initialize with EREDU_DESCRIBE_OPTIONS_INIT or
 * eredu_describe_options_init; a NULL options pointer means the defaults.
 */
struct eredu_describe_options {
  /** The caller's sizeof(eredu_describe_options). */
  uint32_t struct_size;
  /** 1: describe a folder from config.json alone, reading no index or
   * shard (docs/describe.md, "Configuration only"); a GGUF file is always
   * described from its own header. 0 (the default): read what is there. */
  uint8_t config_only;
  /** Pad the vocabulary groups' rows to a multiple of this times the
   * tensor-parallel size (docs/planning.md, "Vocabulary padding"); 0 (the
   * default): no padding. */
  uint64_t pad_vocab_multiple;
};

/** The defaults: read the checkpoint's files, no vocabulary padding. */
#define EREDU_DESCRIBE_OPTIONS_INIT \
  { (uint32_t)sizeof(eredu_describe_options), 0, 0 }

/**
 * One byte extent of a read plan: for i in [0, count), copy `length` bytes
 * from offset `offset + i * stride` of file `file` to offset
 * `dest + i * dest_stride` of the tensor's local buffer. Offsets and lengths
 * are bytes; a single extent has count 1 and stride = dest_stride = length.
 * A plain struct of seven uint64_t that will never change (it is an element
 * of an array the library hands out).
 */
typedef struct eredu_read_extent {
  uint64_t file; /**< index into the plan's files (eredu_read_plan_file) */
  uint64_t offset;
  uint64_t length;
  uint64_t count;
  uint64_t stride;
  uint64_t dest;
  uint64_t dest_stride;
} eredu_read_extent;

/**
 * One tensor of a read plan, borrowed from the plan: every pointer stays
 * valid while the plan lives. A sized struct (docs/abi.md).
 */
struct eredu_read_tensor_info {
  /** The caller's sizeof(eredu_read_tensor_info). */
  uint32_t struct_size;
  /** The tensor name, NUL-terminated UTF-8. */
  const char *target;
  /** The stored element type: a safetensors dtype ("BF16") or a ggml type
   * name ("Q4_K"), NUL-terminated. */
  const char *dtype;
  /** The local shape, outermost first, `ndim` values: elements, except the
   * row (innermost) axis of a GGUF block type, which counts bytes. */
  const uint64_t *local_shape;
  size_t ndim;
  /** Bytes of the tensor's local buffer, padding rows included. */
  uint64_t local_bytes;
  /** Bytes the extents read (the sum of length * count). */
  uint64_t read_bytes;
  /** Rows of the local buffer past the checkpoint's (vocabulary padding):
   * allocated at the end of the padded axis, not read; the runtime fills
   * them. */
  uint64_t padding_rows;
  /** The extents, `extent_count` of them, in ascending destination order;
   * NULL when there are none (an empty selection). */
  const eredu_read_extent *extents;
  size_t extent_count;
};

/** An empty eredu_read_tensor_info with its struct_size, to pass to
 * eredu_read_plan_tensor_info. */
#define EREDU_READ_TENSOR_INFO_INIT \
  { (uint32_t)sizeof(eredu_read_tensor_info), NULL, NULL, NULL, 0, 0, 0, 0, NULL, 0 }

/**
 * How eredu_read_plan_read_rank and eredu_read_plan_load read a whole rank
 * (docs/checkpoints.md, "Reading a whole rank"). A sized struct
 * (docs/abi.md): initialize with EREDU_READ_OPTIONS_INIT or
 * eredu_read_options_init; a NULL options pointer means the defaults.
 */
struct eredu_read_options {
  /** The caller's sizeof(eredu_read_options). */
  uint32_t struct_size;
  /** Threads reading, the calling one included; 0 (the default): one per
   * hardware thread. Never more than there are requests. */
  uint32_t threads;
  /** The most bytes one read request asks for, from 4096 to 1073741824:
   * contiguous extents are split into requests of this size, coalesced
   * rows grouped into spans of at most this size. Default 1048576 (1 MiB). */
  uint64_t request_bytes;
  /** Rows of a strided extent separated by gaps of at most this many bytes
   * are read as one span, one preadv scattering the rows into place (the
   * gaps are read and dropped, counted in eredu_read_stats.bytes_read);
   * rows with wider gaps are copied from a read-only mapping of the span
   * they cover (read one request each with `direct`). Default 0: only the
   * bytes the tensors keep are read. */
  uint64_t max_gap_bytes;
  /** 1: read with O_DIRECT through 4096-byte aligned bounce buffers,
   * bypassing the page cache (the aligned covers are read and counted in
   * bytes_read). A file whose file system refuses O_DIRECT (tmpfs, some
   * FUSE mounts) is read through the page cache instead, and
   * eredu_read_stats.direct is 0. Default 0. */
  uint8_t direct;
  /** Called on the calling thread with (bytes kept so far, bytes the plan
   * keeps) between requests, at least every 50 ms while reading and once
   * at the end; a non-zero return cancels the call with EREDU_E_CANCELLED.
   * NULL (the default): none. */
  eredu_progress_fn progress;
  /** Passed to `progress` as user_data. */
  void *progress_data;
};

/** The defaults: a thread per hardware thread, 1 MiB requests, no gap
 * read (strided rows copied from a mapping), buffered reads, no progress
 * callback. */
#define EREDU_READ_OPTIONS_INIT \
  { (uint32_t)sizeof(eredu_read_options), 0, 1048576, 0, 0, NULL, NULL }

/**
 * What eredu_read_plan_read_rank or eredu_read_plan_load read. An output
 * sized struct (docs/abi.md): set struct_size with EREDU_READ_STATS_INIT or
 * eredu_read_stats_init.
 */
struct eredu_read_stats {
  /** The caller's sizeof(eredu_read_stats). */
  uint32_t struct_size;
  /** Threads that read, the calling one included. */
  uint32_t threads;
  /** Bytes the read requests returned from the files (rows copied from a
   * mapping count their own bytes): bytes_kept plus the gaps of coalesced
   * rows and the alignment of O_DIRECT reads. */
  uint64_t bytes_read;
  /** Bytes written to the tensors' buffers: the plan's read bytes. */
  uint64_t bytes_kept;
  /** Tensors filled: the plan's tensor count. */
  uint64_t tensors;
  /** Read system calls and mappings of strided rows. */
  uint64_t requests;
  /** 1 when every request was an O_DIRECT read. */
  uint8_t direct;
};

/** An empty eredu_read_stats with its struct_size. */
#define EREDU_READ_STATS_INIT \
  { (uint32_t)sizeof(eredu_read_stats), 0, 0, 0, 0, 0, 0 }

/**
 * Where eredu_read_plan_read_rank writes one tensor: `capacity` bytes at
 * `data`. A plain struct of two fields that will never change (an element
 * of an array the caller hands in).
 */
typedef struct eredu_tensor_buffer {
  void *data;
  uint64_t capacity;
} eredu_tensor_buffer;

EREDU_BEGIN_DECLS

/**
 * Initializes the first `size` bytes of `options` (pass sizeof *options)
 * with EREDU_DESCRIBE_OPTIONS_INIT's values, struct_size = size.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (options);
 *         EREDU_E_INVALID_ARGUMENT (size below 4 or above 4096, or ending
 *         inside a field).
 * Thread-safe.
 */
EREDU_API eredu_status eredu_describe_options_init(eredu_describe_options *options, size_t size,
                                                   eredu_error **error);

/**
 * Initializes the first `size` bytes of `info` (pass sizeof *info): zeroes,
 * struct_size = size.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (info);
 *         EREDU_E_INVALID_ARGUMENT (size below 4 or above 4096, or ending
 *         inside a field).
 * Thread-safe.
 */
EREDU_API eredu_status eredu_read_tensor_info_init(eredu_read_tensor_info *info, size_t size,
                                                   eredu_error **error);

/**
 * The config.json `model_type` values eredu_model_describe supports,
 * comma-separated in the order of docs/describe.md's table ("llama, mistral,
 * qwen2, ..."). A GGUF file is described by its own architectures instead
 * (docs/describe.md, "GGUF files").
 * @return a NUL-terminated string in static storage: never NULL, never to be
 *         freed, valid for the life of the process. Thread-safe.
 */
EREDU_API const char *eredu_model_types(void);

/**
 * How many warnings eredu_model_describe left on `model`: what it could not
 * verify, such as a weight index without `metadata.total_size` (the tensors
 * are checked, their byte total is not; docs/describe.md). A model padded
 * with eredu_model_pad_vocab keeps its source's; any other model has none.
 * Cannot fail; 0 for a NULL model. Thread-safe.
 */
EREDU_API size_t eredu_model_warning_count(const eredu_model *model);

/**
 * Warning `index` of `model` (0 ≤ index < eredu_model_warning_count), a
 * NUL-terminated UTF-8 sentence owned by the model and valid until it is
 * freed; NULL for a NULL model or an index out of range. Thread-safe.
 */
EREDU_API const char *eredu_model_warning(const eredu_model *model, size_t index);

/**
 * Describes the model at `path`, as `eredu describe` does (docs/describe.md):
 * a GGUF file from its metadata and tensor infos, or a model folder from its
 * config.json, checked against its weight index and, when they are on disk,
 * its shards' headers (shapes and dtypes).
 * @param path    NUL-terminated path of a folder or a .gguf file.
 * @param options NULL for the defaults.
 * @param out     receives the new model (owned; free with eredu_model_free),
 *                NULL on failure.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (path, out);
 *         EREDU_E_INVALID_ARGUMENT (struct_size, a flag other than 0 or 1,
 *         path not UTF-8); EREDU_E_IO (a file that cannot be read);
 *         EREDU_E_PARSE (malformed config.json, index or header);
 *         EREDU_E_UNSUPPORTED_MODEL (a model type or quantization eredu does
 *         not describe); EREDU_E_CHECKPOINT_MISMATCH (tensors not described
 *         exactly once, byte totals, or a stored shape that differs from the
 *         configuration's); EREDU_E_INVALID_FORMAT, EREDU_E_INVALID_TENSOR,
 *         EREDU_E_INVALID_GROUP (the quantized-format expansion, the
 *         padding); EREDU_E_OUT_OF_MEMORY.
 * Thread-safe; reads the files once, the shards' headers only.
 */
EREDU_API eredu_status eredu_model_describe(const char *path, const eredu_describe_options *options,
                                            eredu_model **out, eredu_error **error);

/**
 * Opens the checkpoint at `path` and reads its tensor headers: a .gguf or
 * .safetensors file, or a folder with model.safetensors.index.json and its
 * shards, or with model.safetensors (docs/checkpoints.md, "Opening a
 * checkpoint"). Only headers are read; no file stays open.
 * @param out receives the new checkpoint (owned; free with
 *            eredu_checkpoint_free), NULL on failure.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (path, out);
 *         EREDU_E_INVALID_ARGUMENT (path not UTF-8); EREDU_E_IO (nothing to
 *         read, a missing shard); EREDU_E_PARSE (a malformed index or
 *         header, naming the file and tensor); EREDU_E_CHECKPOINT_MISMATCH
 *         (an index and shards that disagree, a tensor stored twice);
 *         EREDU_E_OUT_OF_MEMORY.
 * Thread-safe.
 */
EREDU_API eredu_status eredu_checkpoint_open(const char *path, eredu_checkpoint **out,
                                             eredu_error **error);

/**
 * Describes the model whose checkpoint `checkpoint` is, as
 * eredu_model_describe does for the path it was opened from, without reading
 * its weight index or its headers again: a folder's config.json is read and
 * checked against the index and the shards' headers the checkpoint holds; a
 * GGUF file is described from the metadata read when it was opened. A
 * caller that plans a checkpoint and reads it opens it once and describes it
 * from here. With options->config_only the checkpoint's tensors are not
 * used (config.json alone, as eredu_model_describe with the flag).
 * @param checkpoint from eredu_checkpoint_open; only read.
 * @param options    NULL for the defaults.
 * @param out        receives the new model (owned; free with
 *                   eredu_model_free), NULL on failure.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (checkpoint, out);
 *         EREDU_E_INVALID_ARGUMENT (struct_size, a flag other than 0 or 1);
 *         EREDU_E_PARSE (a .safetensors file opened directly: it holds
 *         no configuration; the message says to describe the model's
 *         folder or load a description); then eredu_model_describe's.
 * Thread-safe: one checkpoint may be described from several threads.
 */
EREDU_API eredu_status eredu_checkpoint_describe(const eredu_checkpoint *checkpoint,
                                                 const eredu_describe_options *options,
                                                 eredu_model **out, eredu_error **error);

/** Frees a checkpoint; NULL is a no-op. Plans made from it stay valid. */
EREDU_API void eredu_checkpoint_free(eredu_checkpoint *checkpoint);

/** The number of tensors the checkpoint stores; 0 for NULL. */
EREDU_API size_t eredu_checkpoint_tensor_count(const eredu_checkpoint *checkpoint);

/**
 * The read plan of `layout`'s rank over `checkpoint` (docs/checkpoints.md,
 * "Read plans"): for every tensor the rank materializes, the extents of the
 * files that fill its local buffer, each of its bytes read exactly once.
 * @param out receives the new plan (owned; free with eredu_read_plan_free),
 *            NULL on failure. The plan copies what it needs: the layout and
 *            checkpoint may be freed first.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (layout, checkpoint, out);
 *         EREDU_E_CHECKPOINT_MISMATCH (a materialized tensor the checkpoint
 *         does not store, or stores with another shape or element type);
 *         EREDU_E_OUT_OF_MEMORY.
 * Thread-safe: plans of many ranks may be built concurrently.
 */
EREDU_API eredu_status eredu_read_plan_new(const eredu_layout *layout,
                                           const eredu_checkpoint *checkpoint,
                                           eredu_read_plan **out, eredu_error **error);

/** Frees a read plan; NULL is a no-op. */
EREDU_API void eredu_read_plan_free(eredu_read_plan *plan);

/** The plan's global rank; 0 for NULL. */
EREDU_API uint64_t eredu_read_plan_rank(const eredu_read_plan *plan);

/** The bytes every extent of the plan reads; 0 for NULL. */
EREDU_API uint64_t eredu_read_plan_read_bytes(const eredu_read_plan *plan);

/** The number of files the extents use; 0 for NULL. */
EREDU_API size_t eredu_read_plan_file_count(const eredu_read_plan *plan);

/**
 * File `index` of the plan as eredu.readplan.v1 names it: the path as given
 * for a file opened directly, else relative to the model folder.
 * @return a NUL-terminated string owned by the plan; NULL for a NULL plan
 *         or an index >= eredu_read_plan_file_count.
 */
EREDU_API const char *eredu_read_plan_file(const eredu_read_plan *plan, size_t index);

/**
 * File `index` as a path to open: eredu_read_plan_file joined to the model
 * folder the checkpoint was opened from.
 * @return a NUL-terminated string owned by the plan; NULL for a NULL plan
 *         or an index out of range.
 */
EREDU_API const char *eredu_read_plan_file_path(const eredu_read_plan *plan, size_t index);

/** The number of tensors the plan reads; 0 for NULL. */
EREDU_API size_t eredu_read_plan_tensor_count(const eredu_read_plan *plan);

/**
 * Tensor `index` of the plan, in target order.
 * @param out a sized struct (struct_size set); its pointers borrow from the
 *            plan.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (plan, out);
 *         EREDU_E_INVALID_ARGUMENT (struct_size, index >= the tensor count).
 * Thread-safe.
 */
EREDU_API eredu_status eredu_read_plan_tensor_info(const eredu_read_plan *plan, size_t index,
                                                   eredu_read_tensor_info *out,
                                                   eredu_error **error);

/**
 * Reads tensor `index` of the plan from its files into `buffer`: every
 * extent's bytes and nothing else (docs/checkpoints.md, "Reading through a
 * plan"); single extents with pread, strided ones copied from a read-only
 * mapping of the span they cover. Padding rows and the bytes of `buffer`
 * past the tensor's local_bytes are left as they were. Opens the files for
 * the call and closes them before it returns.
 * @param buffer   caller memory of `capacity` bytes, at least the tensor's
 *                 local_bytes; may be partly written on failure.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (plan, a NULL buffer with a
 *         non-zero capacity); EREDU_E_INVALID_ARGUMENT (index >= the tensor
 *         count, capacity < local_bytes); EREDU_E_IO (a file that cannot be
 *         opened or mapped, or that is shorter than the plan: it changed
 *         since it was opened), naming the file.
 * Thread-safe: tensors may be read concurrently from one plan.
 */
EREDU_API eredu_status eredu_read_plan_read_tensor(const eredu_read_plan *plan, size_t index,
                                                   void *buffer, size_t capacity,
                                                   eredu_error **error);

/**
 * Initializes the first `size` bytes of `options` (pass sizeof *options)
 * with EREDU_READ_OPTIONS_INIT's values, struct_size = size.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (options);
 *         EREDU_E_INVALID_ARGUMENT (size below 4 or above 4096, or ending
 *         inside a field).
 * Thread-safe.
 */
EREDU_API eredu_status eredu_read_options_init(eredu_read_options *options, size_t size,
                                               eredu_error **error);

/**
 * Initializes the first `size` bytes of `stats` (pass sizeof *stats):
 * zeroes, struct_size = size.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (stats);
 *         EREDU_E_INVALID_ARGUMENT (size below 4 or above 4096, or ending
 *         inside a field).
 * Thread-safe.
 */
EREDU_API eredu_status eredu_read_stats_init(eredu_read_stats *stats, size_t size,
                                             eredu_error **error);

/**
 * Reads every tensor of the plan into the caller's buffers
 * (docs/checkpoints.md, "Reading a whole rank"): the bytes
 * eredu_read_plan_read_tensor would read, for all tensors at once, by
 * `options->threads` threads issuing pread requests of at most
 * `options->request_bytes`, in file order, each file opened once for the
 * call; rows of strided extents copied from a mapping of their span, or,
 * when their gaps are at most `options->max_gap_bytes`, read as one span.
 * Padding rows and the bytes past a tensor's local_bytes are left as they
 * were.
 * @param buffers      `buffer_count` buffers, one per tensor in the plan's
 *                     order (eredu_read_plan_tensor_info), each of at least
 *                     the tensor's local_bytes; `data` may be NULL for a
 *                     tensor of 0 local bytes. Read for the call; the
 *                     buffers may be partly written on failure.
 * @param options      NULL for the defaults (EREDU_READ_OPTIONS_INIT).
 * @param stats        optional (NULL): receives what was read, written
 *                     only on success.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (plan, buffers with a non-zero
 *         count, the data of a tensor of non-zero local bytes);
 *         EREDU_E_INVALID_ARGUMENT (buffer_count other than the tensor
 *         count, a capacity below the tensor's local_bytes, struct_size of
 *         options or stats, request_bytes out of range, direct other than 0
 *         or 1); EREDU_E_IO (a file that cannot be opened or read, or that is
 *         shorter than the plan: it changed since the plan was made), naming
 *         the file; EREDU_E_CANCELLED (the progress callback returned
 *         non-zero); EREDU_E_OUT_OF_MEMORY. An error in one thread stops
 *         the others; every file is closed and every thread joined before
 *         the call returns.
 * Thread-safe: the plan is only read; many calls may share it.
 */
EREDU_API eredu_status eredu_read_plan_read_rank(const eredu_read_plan *plan,
                                                 const eredu_tensor_buffer *buffers,
                                                 size_t buffer_count,
                                                 const eredu_read_options *options,
                                                 eredu_read_stats *stats, eredu_error **error);

/**
 * eredu_read_plan_read_rank into memory the library allocates: one
 * anonymous mapping holding every tensor at a 4096-byte aligned address,
 * zeroed before it is read (padding rows read as zeros).
 * @param out   receives the tensors (owned; free with eredu_rank_data_free),
 *              NULL on failure.
 * @param stats optional, as for eredu_read_plan_read_rank.
 * @return the errors of eredu_read_plan_read_rank, with
 *         EREDU_E_NULL_ARGUMENT for a NULL out and EREDU_E_OUT_OF_MEMORY
 *         when the mapping cannot be made.
 * Thread-safe, as eredu_read_plan_read_rank.
 */
EREDU_API eredu_status eredu_read_plan_load(const eredu_read_plan *plan,
                                            const eredu_read_options *options,
                                            eredu_rank_data **out, eredu_read_stats *stats,
                                            eredu_error **error);

/** Frees the tensors of eredu_read_plan_load; NULL is a no-op. Every pointer
 * eredu_rank_data_tensor returned becomes invalid. */
EREDU_API void eredu_rank_data_free(eredu_rank_data *data);

/** The number of tensors; 0 for NULL. */
EREDU_API size_t eredu_rank_data_tensor_count(const eredu_rank_data *data);

/**
 * Tensor `index` (in the plan's order): its local buffer, 4096-byte aligned,
 * writable, owned by `data` and valid until it is freed.
 * @param bytes optional: receives the tensor's local_bytes (0 on NULL).
 * @return NULL for a NULL data or an index >= the tensor count. Thread-safe.
 */
EREDU_API void *eredu_rank_data_tensor(eredu_rank_data *data, size_t index, uint64_t *bytes);

/**
 * The plan as canonical eredu.readplan.v1 JSON (compact, one trailing
 * newline; docs/interchange.md, "eredu.readplan.v1").
 * @param out    receives a NUL-terminated buffer owned by the caller,
 *               released with eredu_buffer_free; NULL on failure.
 * @param length optional: the text length in bytes without the terminator.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (plan, out);
 *         EREDU_E_OUT_OF_MEMORY.
 * Thread-safe.
 */
EREDU_API eredu_status eredu_read_plan_to_json(const eredu_read_plan *plan, char **out,
                                               size_t *length, eredu_error **error);

EREDU_END_DECLS

#endif /* EREDU_CHECKPOINT_H */
