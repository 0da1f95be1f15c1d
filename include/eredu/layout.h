/*
 * eredu/layout.h: the plan of one rank (seed LocalModelLayout of
 * LocalTensorLayout entries with TensorPlacement), exposing every field of
 * eredu.layout.v1 (interchange.md section 2) without JSON, and the JSON text
 * itself.
 *
 * Tensors are addressed by index 0 .. count-1, in byte-wise ascending order
 * of target (the seed's LocalModelLayout order). Units: shapes, axes,
 * offsets, ranges and index counts are in elements (or logical units for the
 * logical range); bytes are bytes.
 *
 * Ownership: every pointer a getter returns is borrowed from the layout and
 * valid until eredu_layout_free(layout); the model handle it was planned from
 * may be freed earlier.
 *
 * Thread-safety: an eredu_layout is immutable; any number of threads may read
 * it at once.
 *
 * Every index-taking getter returns EREDU_E_INVALID_ARGUMENT for an index
 * >= the tensor count, and EREDU_E_NULL_ARGUMENT for a NULL layout or a NULL
 * required out-parameter. On failure every out-parameter is zeroed/NULL.
 */
#ifndef EREDU_LAYOUT_H
#define EREDU_LAYOUT_H

#include <eredu/types.h>

/* ---- eredu_placement_kind: seed TensorPlacement variants --------------- */

/** The whole tensor. */
#define EREDU_PLACEMENT_REPLICATED 0
/** The whole tensor, owned locally (for callers assigning owners). */
#define EREDU_PLACEMENT_LOCAL 1
/** Not materialized on this rank (outside the group's scope). */
#define EREDU_PLACEMENT_OMIT 2
/** The whole tensor on global rank `rank` only. */
#define EREDU_PLACEMENT_RANK 3
/** Equal part `index` of `parts` on `axis`. */
#define EREDU_PLACEMENT_SHARD 4
/** Elements [start, end) of `axis`. */
#define EREDU_PLACEMENT_RANGE 5
/** The ordered index selection `runs` on `axis` (`index_count` indices). */
#define EREDU_PLACEMENT_INDICES 6

/**
 * One tensor's placement on the rank (seed TensorPlacement). Fields a kind
 * does not use are 0 / NULL. Fill struct_size with eredu_placement_init()
 * before calling eredu_layout_tensor_placement.
 */
struct eredu_placement {
  /** sizeof(eredu_placement), set by eredu_placement_init. */
  uint32_t struct_size;
  /** An EREDU_PLACEMENT_* value. */
  eredu_placement_kind kind;
  /** SHARD, RANGE, INDICES: the selected axis. */
  uint64_t axis;
  /** RANK: the owning global rank. */
  uint64_t rank;
  /** SHARD: this rank's part. */
  uint64_t index;
  /** SHARD: the number of parts. */
  uint64_t parts;
  /** RANGE: first element (inclusive). */
  uint64_t start;
  /** RANGE: end element (exclusive). */
  uint64_t end;
  /** INDICES: `run_count` pairs {start, end} of half-open element runs,
   * flattened (2 * run_count values), in selection order with adjacent
   * runs merged; their concatenation is the seed's index list. Borrowed
   * from the layout. NULL for the other kinds. */
  const uint64_t *runs;
  /** INDICES: number of runs (pairs). */
  size_t run_count;
  /** INDICES: number of selected indices (the local extent of `axis`). */
  uint64_t index_count;
};

/**
 * Byte and tensor totals of a layout (eredu.layout.v1 `totals`). Fill
 * struct_size with eredu_layout_totals_init() before calling
 * eredu_layout_get_totals.
 */
struct eredu_layout_totals {
  /** sizeof(eredu_layout_totals), set by eredu_layout_totals_init. */
  uint32_t struct_size;
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

EREDU_BEGIN_DECLS

/**
 * Fills `placement` with struct_size = sizeof(eredu_placement) and zeroes.
 *
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT when placement is NULL.
 * Thread-safe. Seed TensorPlacement.
 */
EREDU_API eredu_status eredu_placement_init(eredu_placement *placement, eredu_error **error);

/**
 * Fills `totals` with struct_size = sizeof(eredu_layout_totals) and zeroes.
 *
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT when totals is NULL.
 * Thread-safe. Seed LocalModelLayout (totals of interchange section 2).
 */
EREDU_API eredu_status eredu_layout_totals_init(eredu_layout_totals *totals, eredu_error **error);

/**
 * Releases a layout (and its reference to the model description). NULL is a
 * no-op. Not thread-safe with concurrent readers of the same layout.
 */
EREDU_API void eredu_layout_free(eredu_layout *layout);

/**
 * The topology the layout was planned for: sizes T, P, E, D.
 *
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (layout or any out-parameter).
 * Thread-safe. eredu.layout.v1 `topology`.
 */
EREDU_API eredu_status eredu_layout_topology(const eredu_layout *layout, uint64_t *tensor,
                                             uint64_t *pipeline, uint64_t *expert, uint64_t *data,
                                             eredu_error **error);

/**
 * The global rank the layout was planned for.
 *
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (layout, out).
 * Thread-safe. eredu.layout.v1 `rank`.
 */
EREDU_API eredu_status eredu_layout_rank(const eredu_layout *layout, uint64_t *out,
                                         eredu_error **error);

/**
 * The rank's coordinate on every axis.
 *
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (layout or any out-parameter).
 * Thread-safe. eredu.layout.v1 `coordinates`.
 */
EREDU_API eredu_status eredu_layout_coordinates(const eredu_layout *layout, uint64_t *tensor,
                                                uint64_t *pipeline, uint64_t *expert,
                                                uint64_t *data, eredu_error **error);

/**
 * The policy the layout was planned with (an EREDU_POLICY_* value).
 *
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (layout, out).
 * Thread-safe. Seed ShardingPolicy; eredu.layout.v1 `policy`.
 */
EREDU_API eredu_status eredu_layout_policy(const eredu_layout *layout, eredu_policy *out,
                                           eredu_error **error);

/**
 * The layout's totals.
 *
 * @param totals caller struct with struct_size set by
 *               eredu_layout_totals_init; filled on success, zeroed (except
 *               struct_size) on failure.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (layout, totals);
 *         EREDU_E_INVALID_ARGUMENT (struct_size is not
 *         sizeof(eredu_layout_totals); the struct is then left untouched).
 * Thread-safe. eredu.layout.v1 `totals`.
 */
EREDU_API eredu_status eredu_layout_get_totals(const eredu_layout *layout,
                                               eredu_layout_totals *totals, eredu_error **error);

/**
 * The number of tensors (every member of the model, materialized or not).
 *
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (layout, out).
 * Thread-safe. Seed LocalModelLayout.
 */
EREDU_API eredu_status eredu_layout_tensor_count(const eredu_layout *layout, size_t *out,
                                                 eredu_error **error);

/**
 * The index of the tensor named `target` (binary search, O(log n)).
 *
 * @param target NUL-terminated UTF-8 tensor name.
 * @param out    receives the index; 0 on failure.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (layout, target, out);
 *         EREDU_E_INVALID_ARGUMENT (target is not valid UTF-8);
 *         EREDU_E_NOT_FOUND (no such tensor).
 * Thread-safe. Seed LocalModelLayout lookup by target.
 */
EREDU_API eredu_status eredu_layout_find_tensor(const eredu_layout *layout, const char *target,
                                                size_t *out, eredu_error **error);

/**
 * The target (checkpoint tensor name) of tensor `index`.
 *
 * @param out    receives a borrowed NUL-terminated UTF-8 string.
 * @param length optional (may be NULL): receives its length in bytes.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT; EREDU_E_INVALID_ARGUMENT (index).
 * Thread-safe. Seed LocalTensorLayout (its key).
 */
EREDU_API eredu_status eredu_layout_tensor_target(const eredu_layout *layout, size_t index,
                                                  const char **out, size_t *length,
                                                  eredu_error **error);

/**
 * The logical name of the group tensor `index` belongs to.
 *
 * @param out    receives a borrowed NUL-terminated UTF-8 string.
 * @param length optional (may be NULL): receives its length in bytes.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT; EREDU_E_INVALID_ARGUMENT (index).
 * Thread-safe. Seed LocalTensorLayout::logical_name.
 */
EREDU_API eredu_status eredu_layout_tensor_logical_name(const eredu_layout *layout, size_t index,
                                                        const char **out, size_t *length,
                                                        eredu_error **error);

/**
 * The role of the group tensor `index` belongs to (an EREDU_ROLE_* value).
 *
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT; EREDU_E_INVALID_ARGUMENT (index).
 * Thread-safe. Seed LocalTensorLayout::role.
 */
EREDU_API eredu_status eredu_layout_tensor_role(const eredu_layout *layout, size_t index,
                                                eredu_role *out, eredu_error **error);

/**
 * The element type of tensor `index`.
 *
 * @param out     receives an EREDU_DTYPE_* value, 0 when absent.
 * @param present receives true when the member has a dtype.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT; EREDU_E_INVALID_ARGUMENT (index).
 * Thread-safe. Member dtype (interchange section 1).
 */
EREDU_API eredu_status eredu_layout_tensor_dtype(const eredu_layout *layout, size_t index,
                                                 eredu_dtype *out, bool *present,
                                                 eredu_error **error);

/**
 * The global (checkpoint) shape of tensor `index`, in elements per axis,
 * outermost first.
 *
 * @param shape receives a borrowed array of `*ndim` values (NULL for a
 *              scalar, whose ndim is 0).
 * @param ndim  receives the number of axes.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT; EREDU_E_INVALID_ARGUMENT (index).
 * Thread-safe. Seed LocalTensorLayout::global_shape.
 */
EREDU_API eredu_status eredu_layout_tensor_global_shape(const eredu_layout *layout, size_t index,
                                                        const uint64_t **shape, size_t *ndim,
                                                        eredu_error **error);

/**
 * The shape of tensor `index` on this rank, in elements per axis; empty
 * (ndim 0, shape NULL) for an omitted tensor.
 *
 * @param shape receives a borrowed array of `*ndim` values, or NULL.
 * @param ndim  receives the number of axes.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT; EREDU_E_INVALID_ARGUMENT (index).
 * Thread-safe. Seed LocalTensorLayout::local_shape.
 */
EREDU_API eredu_status eredu_layout_tensor_local_shape(const eredu_layout *layout, size_t index,
                                                       const uint64_t **shape, size_t *ndim,
                                                       eredu_error **error);

/**
 * The placement of tensor `index`: its kind and the fields of that kind.
 *
 * @param placement caller struct with struct_size set by
 *                  eredu_placement_init; filled on success, zeroed (except
 *                  struct_size) on failure. `runs` is borrowed from the
 *                  layout.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (layout, placement);
 *         EREDU_E_INVALID_ARGUMENT (index; struct_size is not
 *         sizeof(eredu_placement), the struct is then left untouched).
 * Thread-safe. Seed TensorPlacement.
 */
EREDU_API eredu_status eredu_layout_tensor_placement(const eredu_layout *layout, size_t index,
                                                     eredu_placement *placement,
                                                     eredu_error **error);

/**
 * The logical-unit count of the group of tensor `index` (reported even when
 * the group fell back to replication or the tensor is omitted).
 *
 * @param units   receives the count, 0 when absent.
 * @param present receives true when the group is partitioned.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT; EREDU_E_INVALID_ARGUMENT (index).
 * Thread-safe. Seed LocalTensorLayout::logical_units.
 */
EREDU_API eredu_status eredu_layout_tensor_logical_units(const eredu_layout *layout, size_t index,
                                                         uint64_t *units, bool *present,
                                                         eredu_error **error);

/**
 * The logical units [start, end) this rank owns of the group of tensor
 * `index`; [0, units) after a fallback to replication; absent when the group
 * has no partition or the tensor is omitted.
 *
 * @param start   receives the first unit, 0 when absent.
 * @param end     receives the end unit (exclusive), 0 when absent.
 * @param present receives true when the range exists.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT; EREDU_E_INVALID_ARGUMENT (index).
 * Thread-safe. Seed LocalTensorLayout::logical_range.
 */
EREDU_API eredu_status eredu_layout_tensor_logical_range(const eredu_layout *layout, size_t index,
                                                         uint64_t *start, uint64_t *end,
                                                         bool *present, eredu_error **error);

/**
 * Whether the group of tensor `index` fell back to replication under
 * EREDU_POLICY_REPLICATE_UNSUPPORTED (the same on every rank).
 *
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT; EREDU_E_INVALID_ARGUMENT (index).
 * Thread-safe. Seed LocalTensorLayout::fell_back_to_replication.
 */
EREDU_API eredu_status eredu_layout_tensor_fell_back(const eredu_layout *layout, size_t index,
                                                     bool *out, eredu_error **error);

/**
 * The bytes tensor `index` occupies on this rank: local elements x element
 * size; 0 for an omitted tensor; absent for a materialized tensor without a
 * dtype.
 *
 * @param bytes   receives the bytes, 0 when absent.
 * @param present receives true when known.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT; EREDU_E_INVALID_ARGUMENT (index).
 * Thread-safe. eredu.layout.v1 `local_bytes`.
 */
EREDU_API eredu_status eredu_layout_tensor_local_bytes(const eredu_layout *layout, size_t index,
                                                       uint64_t *bytes, bool *present,
                                                       eredu_error **error);

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
 * Thread-safe. Seed LocalModelLayout (interchange section 2).
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
 * Thread-safe. Seed LocalModelLayout (interchange section 2).
 */
EREDU_API eredu_status eredu_layout_write_json(const eredu_layout *layout, char *buffer,
                                               size_t capacity, size_t *required,
                                               eredu_error **error);

EREDU_END_DECLS

#endif /* EREDU_LAYOUT_H */
