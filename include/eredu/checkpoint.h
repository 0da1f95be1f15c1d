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
