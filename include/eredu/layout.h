// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

/*
 * eredu/layout.h: the plan of one rank (a LocalModelLayout of
 * LocalTensorLayout entries with TensorPlacement): every field of
 * eredu.layout.v1 (docs/interchange.md) without JSON, and the JSON text
 * itself.
 *
 * Tensors are addressed by index 0 .. count-1, in byte-wise ascending order
 * of target (the order of LocalModelLayout's entries). Units: shapes, axes,
 * offsets, ranges and index counts are in elements (or logical units for the
 * logical range); bytes are bytes.
 *
 * Ownership: every pointer the layout hands out is borrowed from it and
 * valid until eredu_layout_free(layout); the model handle it was planned from
 * may be freed earlier.
 *
 * Thread-safety: an eredu_layout is immutable; any number of threads may read
 * it at once.
 */
#ifndef EREDU_LAYOUT_H
#define EREDU_LAYOUT_H

#include <eredu/types.h>

/* ---- eredu_placement_kind: TensorPlacement variants -------------------- */

/** The whole tensor. */
#define EREDU_PLACEMENT_REPLICATED 0
/** The whole tensor, owned locally (for callers assigning owners). */
#define EREDU_PLACEMENT_LOCAL 1
/** Not materialized on this rank (outside the group's scope). */
#define EREDU_PLACEMENT_OMIT 2
/** The whole tensor on global rank `owner_rank` only. */
#define EREDU_PLACEMENT_RANK 3
/** Equal part `shard_index` of `shard_parts` on `axis`. */
#define EREDU_PLACEMENT_SHARD 4
/** Elements [start, end) of `axis`. */
#define EREDU_PLACEMENT_RANGE 5
/** The ordered index selection `runs` on `axis` (`index_count` indices). */
#define EREDU_PLACEMENT_INDICES 6

/**
 * What a layout is: its rank, coordinates, policy and totals
 * (eredu.layout.v1 `rank`, `coordinates`, `policy`, `totals`). An output
 * struct (docs/abi.md): set struct_size (EREDU_LAYOUT_INFO_INIT or
 * eredu_layout_info_init) and eredu_layout_get_info fills the fields it covers.
 */
struct eredu_layout_info {
  /** The caller's sizeof(eredu_layout_info). */
  uint32_t struct_size;
  /** The EREDU_POLICY_* value the layout was planned with. */
  eredu_policy policy;
  /** The global rank. */
  uint64_t rank;
  /** The rank's coordinate on the tensor, pipeline, expert and data axes. */
  uint64_t tensor_rank;
  uint64_t pipeline_rank;
  uint64_t expert_rank;
  uint64_t data_rank;
  /** Every member of the model, materialized or not. */
  size_t tensor_count;
  /** Bytes this rank materializes (tensors with a dtype). */
  uint64_t local_bytes;
  /** Bytes of the whole model (tensors with a dtype). */
  uint64_t global_bytes;
  /** Tensors this rank materializes (placement other than OMIT). */
  uint64_t materialized_tensors;
  /** Tensors this rank omits. */
  uint64_t omitted_tensors;
  /** Tensors of the whole description without a dtype (the same on every
   * rank); their bytes are in neither byte total. */
  uint64_t unknown_bytes_tensors;
};

#define EREDU_LAYOUT_INFO_INIT \
  { (uint32_t)sizeof(eredu_layout_info), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 }

/**
 * Every field of one planned tensor (eredu.layout.v1 `tensors[i]`). Fields a
 * placement kind does not use are 0 / NULL. Strings and arrays are borrowed
 * from the layout. An output struct (docs/abi.md): set struct_size
 * (EREDU_LAYOUT_TENSOR_INFO_INIT or eredu_layout_tensor_info_init) and
 * eredu_layout_get_tensor_info fills the fields it covers.
 */
struct eredu_layout_tensor_info {
  /** The caller's sizeof(eredu_layout_tensor_info). */
  uint32_t struct_size;
  /** The role of the tensor's group: an EREDU_ROLE_* value. */
  eredu_role role;
  /** The checkpoint tensor name, NUL-terminated UTF-8, and its length in
   * bytes. */
  const char *target;
  size_t target_length;
  /** The logical name of the tensor's group, and its length in bytes. */
  const char *logical_name;
  size_t logical_name_length;
  /** The global (checkpoint) shape, elements per axis outermost first:
   * `global_ndim` values, NULL for a scalar. */
  const uint64_t *global_shape;
  size_t global_ndim;
  /** The shape on this rank: `local_ndim` values; NULL and 0 for an omitted
   * tensor. */
  const uint64_t *local_shape;
  size_t local_ndim;
  /** An EREDU_PLACEMENT_* value. */
  eredu_placement_kind placement;
  /** 1 when `dtype` is set (the member has an element type). */
  uint8_t has_dtype;
  /** 1 when the group is partitioned: `logical_units` is set. */
  uint8_t has_logical_units;
  /** 1 when `logical_start`/`logical_end` are set: a partitioned group on a
   * rank that materializes it ([0, units) after a fallback). */
  uint8_t has_logical_range;
  /** 1 when the group fell back to replication under
   * EREDU_POLICY_REPLICATE_UNSUPPORTED (the same on every rank). */
  uint8_t fell_back_to_replication;
  /** An EREDU_DTYPE_* value when has_dtype. */
  eredu_dtype dtype;
  /** 1 when `local_bytes` is known: 0 for an omitted tensor, else local
   * elements x element size for a member with a dtype. */
  uint8_t has_local_bytes;
  /** SHARD, RANGE, INDICES: the selected axis. */
  uint64_t axis;
  /** RANK: the owning global rank. */
  uint64_t owner_rank;
  /** SHARD: this rank's part and the number of parts. */
  uint64_t shard_index;
  uint64_t shard_parts;
  /** RANGE: first element (inclusive) and end element (exclusive). */
  uint64_t start;
  uint64_t end;
  /** INDICES: `run_count` pairs {start, end} of half-open element runs,
   * flattened (2 * run_count values), in selection order with adjacent
   * runs merged; their concatenation is the full list of selected indices. */
  const uint64_t *runs;
  size_t run_count;
  /** INDICES: the number of selected indices (the local extent of
   * `axis`). */
  uint64_t index_count;
  /** The group's logical-unit count (also when it fell back or the tensor
   * is omitted). */
  uint64_t logical_units;
  /** The logical units [logical_start, logical_end) this rank owns. */
  uint64_t logical_start;
  uint64_t logical_end;
  /** The bytes the tensor occupies on this rank, when has_local_bytes. */
  uint64_t local_bytes;
  /** The tensor ranks holding this same selection: T / H for a per-KV-head
   * member under KV-head replication (eredu.layout.v1 `kv_head_copies`),
   * else 1. */
  uint64_t kv_head_copies;
  /** Rows of `local_shape` past the checkpoint's under vocabulary padding
   * (eredu.layout.v1 `padding_rows`; docs/planning.md, "Vocabulary
   * padding"): allocated on this rank, not read; the RANGE [start, end) is
   * the rows read, empty (start == end) on a rank holding only padding.
   * Else 0. */
  uint64_t padding_rows;
  /** 1 when the member stacks routed experts (its eredu_member_desc has an
   * expert axis) and this rank materializes it: the rank holds experts
   * [expert_start, expert_end) of axis `expert_axis` (eredu.layout.v1
   * `expert_range`; docs/planning.md, "Stacked experts"), on top of the
   * tensor-parallel selection of the placement fields; a member the tensor
   * ranks replicate has the RANGE placement of the same experts. */
  uint8_t has_expert_range;
  /** The member's expert axis, when has_expert_range. */
  uint64_t expert_axis;
  /** The first expert held (inclusive) and the end expert (exclusive). */
  uint64_t expert_start;
  uint64_t expert_end;
};

#define EREDU_LAYOUT_TENSOR_INFO_INIT                                                              \
  {                                                                                                \
    (uint32_t)sizeof(eredu_layout_tensor_info), 0, NULL, 0, NULL, 0, NULL, 0, NULL, 0, 0, 0, 0, 0, \
        0, 0, 0, 0, 0, 0, 0, 0, 0, NULL, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0                        \
  }

EREDU_BEGIN_DECLS

/**
 * Initializes the first `size` bytes of `info` (pass sizeof *info): zeroes
 * and struct_size = size.
 *
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (info); EREDU_E_INVALID_ARGUMENT
 *         (size below 4 or above 4096, or ending inside a field).
 * Thread-safe.
 */
EREDU_API eredu_status eredu_layout_info_init(eredu_layout_info *info, size_t size,
                                              eredu_error **error);

/** As eredu_layout_info_init, for eredu_layout_tensor_info. */
EREDU_API eredu_status eredu_layout_tensor_info_init(eredu_layout_tensor_info *info, size_t size,
                                                     eredu_error **error);

/**
 * Releases a layout (and its reference to the model description). NULL is a
 * no-op. Not thread-safe with concurrent readers of the same layout.
 */
EREDU_API void eredu_layout_free(eredu_layout *layout);

/**
 * The number of tensors (every member of the model, materialized or not).
 * Cannot fail; 0 for a NULL layout. Thread-safe.
 */
EREDU_API size_t eredu_layout_tensor_count(const eredu_layout *layout);

/**
 * The topology the layout was planned for, written into the caller's
 * struct up to its struct_size.
 *
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (layout, out);
 *         EREDU_E_INVALID_ARGUMENT (out->struct_size).
 * Thread-safe. eredu.layout.v1 `topology`.
 */
EREDU_API eredu_status eredu_layout_topology(const eredu_layout *layout, eredu_topology *out,
                                             eredu_error **error);

/**
 * The layout's rank, coordinates, policy, tensor count and totals, written
 * into the caller's struct up to its struct_size.
 *
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (layout, out);
 *         EREDU_E_INVALID_ARGUMENT (out->struct_size).
 * Thread-safe.
 */
EREDU_API eredu_status eredu_layout_get_info(const eredu_layout *layout, eredu_layout_info *out,
                                             eredu_error **error);

/**
 * Every field of tensor `index`, written into the caller's struct up to its
 * struct_size; one call per tensor.
 *
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (layout, out);
 *         EREDU_E_INVALID_ARGUMENT (index >= the tensor count,
 *         out->struct_size). On failure the fields out covers are zeroed.
 * Thread-safe.
 */
EREDU_API eredu_status eredu_layout_get_tensor_info(const eredu_layout *layout, size_t index,
                                                    eredu_layout_tensor_info *out,
                                                    eredu_error **error);

/**
 * The index of the tensor named `target` (binary search, O(log n)).
 *
 * @param target NUL-terminated UTF-8 tensor name.
 * @param out    receives the index; 0 on failure.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (layout, target, out);
 *         EREDU_E_INVALID_ARGUMENT (target is not valid UTF-8);
 *         EREDU_E_NOT_FOUND (no such tensor).
 * Thread-safe.
 */
EREDU_API eredu_status eredu_layout_find_tensor(const eredu_layout *layout, const char *target,
                                                size_t *out, eredu_error **error);

/**
 * The layout as canonical eredu.layout.v1 JSON text (compact, keys in the
 * documented order, one trailing newline), byte-identical across bindings.
 *
 * @param out    receives a NUL-terminated UTF-8 buffer owned by the caller,
 *               released with eredu_buffer_free; NULL on failure.
 * @param length optional (may be NULL): receives the text length in bytes
 *               without the terminator.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (layout, out);
 *         EREDU_E_OUT_OF_MEMORY.
 * Thread-safe. docs/interchange.md, eredu.layout.v1.
 */
EREDU_API eredu_status eredu_layout_to_json(const eredu_layout *layout, char **out, size_t *length,
                                            eredu_error **error);

/**
 * Writes the eredu.layout.v1 JSON text of eredu_layout_to_json into a caller
 * buffer, followed by a NUL terminator. Call with buffer NULL and capacity 0
 * to learn the size.
 *
 * @param buffer   caller memory of `capacity` bytes; may be NULL when
 *                 capacity is 0. Left unmodified on failure.
 * @param capacity size of `buffer` in bytes.
 * @param required receives the bytes the text needs including the NUL
 *                 terminator, on success and on EREDU_E_BUFFER_TOO_SMALL
 *                 (0 on other failures).
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (layout, required, NULL buffer
 *         with a nonzero capacity); EREDU_E_BUFFER_TOO_SMALL (capacity <
 *         *required); EREDU_E_OUT_OF_MEMORY.
 * Thread-safe. docs/interchange.md, eredu.layout.v1.
 */
EREDU_API eredu_status eredu_layout_write_json(const eredu_layout *layout, char *buffer,
                                               size_t capacity, size_t *required,
                                               eredu_error **error);

EREDU_END_DECLS

#endif /* EREDU_LAYOUT_H */
