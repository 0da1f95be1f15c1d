/*
 * eredu/projection.h: group-building helpers of seed 000 (projection
 * groups, preferred and aligned partition units) and its ParallelModelInfo.
 *
 * A "module" is the ordered list of a layer's parameters (the seed visits a
 * backend module; here the caller lists them): the weight and every
 * encoding companion, each with its checkpoint id and shape in elements.
 *
 * Every builder copies its inputs and returns a new, immutable eredu_group
 * (free with eredu_group_free); on failure *out is NULL. Argument checks
 * (NULL pointers, struct_size, enum values, flags, UTF-8, array sizes) come
 * first, in parameter order, then the seed's rules in the seed's order.
 */
#ifndef EREDU_PROJECTION_H
#define EREDU_PROJECTION_H

#include <eredu/types.h>

/* ---- eredu_projection_sharding: seed ProjectionSharding --------------- */

/** Every parameter complete on every rank. */
#define EREDU_PROJECTION_REPLICATED 0
/** Output features (axis 0) split. */
#define EREDU_PROJECTION_COLUMN 1
/** Input features (axis 1) split; parameters with fewer than 2 axes (the
 * output bias) replicated. */
#define EREDU_PROJECTION_ROW 2

/**
 * One parameter of a module. Fill with eredu_module_parameter_init().
 */
struct eredu_module_parameter {
  /** sizeof(eredu_module_parameter), set by eredu_module_parameter_init. */
  uint32_t struct_size;
  /** The parameter's checkpoint id (the member target): NUL-terminated
   * UTF-8, non-blank. */
  const char *id;
  /** Shape in elements per axis, outermost first; `ndim` values. May be
   * NULL when ndim is 0. */
  const uint64_t *shape;
  /** Number of axes, at most EREDU_MAX_NDIM. */
  size_t ndim;
  /** 1 when `dtype` is set, else 0. */
  uint8_t has_dtype;
  /** An EREDU_DTYPE_* value; ignored when has_dtype is 0. */
  eredu_dtype dtype;
};

/**
 * A module and its sharding, for eredu_partitioned_projection_group. Fill
 * with eredu_projection_init().
 */
struct eredu_projection {
  /** sizeof(eredu_projection), set by eredu_projection_init. */
  uint32_t struct_size;
  /** `parameter_count` pointers to the module's parameters, in order. May
   * be NULL when parameter_count is 0. */
  const eredu_module_parameter *const *parameters;
  /** Number of parameters. */
  size_t parameter_count;
  /** An EREDU_PROJECTION_* value. Default REPLICATED. */
  eredu_projection_sharding placement;
};

EREDU_BEGIN_DECLS

/**
 * Fills `parameter` with defaults: struct_size, NULL id and shape, ndim 0,
 * no dtype.
 *
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT when parameter is NULL.
 * Thread-safe.
 */
EREDU_API eredu_status eredu_module_parameter_init(eredu_module_parameter *parameter,
                                                   eredu_error **error);

/**
 * Fills `projection` with defaults: struct_size, no parameters,
 * EREDU_PROJECTION_REPLICATED.
 *
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT when projection is NULL.
 * Thread-safe.
 */
EREDU_API eredu_status eredu_projection_init(eredu_projection *projection, eredu_error **error);

/**
 * The finest logical-unit count whose partitions hold whole blocks of
 * `required_alignment` elements when each of `semantic_units` units is
 * `elements_per_unit` elements wide: semantic_units / (alignment /
 * gcd(width, alignment)).
 *
 * @param name     names the partition in messages (NUL-terminated UTF-8).
 * @param out      receives the unit count; 0 on failure.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (name, out);
 *   EREDU_E_INVALID_ARGUMENT (invalid UTF-8);
 *   EREDU_E_INVALID_GROUP: `NAME aligned partition dimensions must be
 *   positive, got units=u, width=w, alignment=a` (any argument 0), `NAME has
 *   u semantic units of width w, which cannot form complete alignment-a
 *   partitions`.
 * Thread-safe. Seed 000 aligned_partition_units.
 */
EREDU_API eredu_status eredu_aligned_partition_units(const char *name, uint64_t semantic_units,
                                                     uint64_t elements_per_unit,
                                                     uint64_t required_alignment, uint64_t *out,
                                                     eredu_error **error);

/**
 * Builds a partitioned group whose units are `preferred_units` reduced by
 * gcd with every PARTITIONED member's dimension on its axis and every
 * segment length of PARTITIONED_SEGMENTS and SEGMENTED members (gcd with 0
 * leaves the count unchanged), in member order.
 *
 * @param name, role, scope, members, member_count  as eredu_group_new.
 * @param preferred_units the starting unit count. gcd(0, d) = d, so 0
 *                        ends as the gcd of the partitioned dimensions and
 *                        segment lengths; a count still 0 at the end fails
 *                        as the seed's `partitioned`.
 * @param out  receives the new group (owned), NULL on failure.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT, EREDU_E_INVALID_ARGUMENT (the
 *   argument checks of eredu_group_new); EREDU_E_INVALID_TENSOR
 *   (`partitioned parameter T has no axis A`, `segmented parameter T has no
 *   axis A`); EREDU_E_INVALID_GROUP (the group rules of eredu_group_new,
 *   units 0 first, and the partition contract: the group needs a
 *   PARTITIONED or PARTITIONED_SEGMENTS member); EREDU_E_OUT_OF_MEMORY.
 * Thread-safe. Seed 000 partitioned_group_with_preferred_units.
 */
EREDU_API eredu_status eredu_partitioned_group_with_preferred_units(
    const char *name, eredu_role role, uint64_t preferred_units, const eredu_group_scope *scope,
    const eredu_member_desc *const *members, size_t member_count, eredu_group **out,
    eredu_error **error);

/**
 * Describes every parameter of one module as an unpartitioned group:
 * REPLICATED -> replicated members; COLUMN -> EQUAL on axis 0; ROW -> EQUAL
 * on axis 1 for parameters with at least 2 axes, else replicated.
 *
 * @param name       the group's logical name (UTF-8, non-blank).
 * @param role       an EREDU_ROLE_* value.
 * @param scope      the ownership scope, or NULL for EREDU_SCOPE_ALL.
 * @param parameters `parameter_count` pointers, in the module's order.
 * @param placement  an EREDU_PROJECTION_* value.
 * @param out        receives the new group (owned), NULL on failure.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (name, out, NULL parameters with
 *   a nonzero count, a NULL element or id, a NULL shape with ndim > 0);
 *   EREDU_E_INVALID_ARGUMENT (unknown role, placement or dtype, a flag other
 *   than 0/1, wrong struct_size, invalid UTF-8, ndim above EREDU_MAX_NDIM,
 *   a bad scope); EREDU_E_INVALID_TENSOR (`column projection parameter ID
 *   is scalar`); EREDU_E_INVALID_GROUP (eredu_group_new's rules, e.g. an
 *   empty module or a repeated id); EREDU_E_OUT_OF_MEMORY.
 * Thread-safe. Seed 000 projection_parameter_group.
 */
EREDU_API eredu_status eredu_projection_parameter_group(
    const char *name, eredu_role role, const eredu_group_scope *scope,
    const eredu_module_parameter *const *parameters, size_t parameter_count,
    eredu_projection_sharding placement, eredu_group **out, eredu_error **error);

/**
 * Describes several projections sharing one logical partition: their
 * parameters in order, COLUMN -> PARTITIONED axis 0, ROW with at least 2
 * axes -> PARTITIONED axis 1, everything else replicated; units reduced
 * from `preferred_units` as eredu_partitioned_group_with_preferred_units.
 *
 * @param projections      `projection_count` pointers to projections.
 * @param preferred_units  the starting logical-unit count, at least 1.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT and EREDU_E_INVALID_ARGUMENT (as
 *   eredu_projection_parameter_group, for every projection and parameter);
 *   EREDU_E_INVALID_GROUP (`partitioned projection group has zero preferred
 *   units`, checked first; then the group rules); EREDU_E_INVALID_TENSOR
 *   (`column projection parameter ID is scalar`); EREDU_E_OUT_OF_MEMORY.
 * Thread-safe. Seed 000 partitioned_projection_group.
 */
EREDU_API eredu_status eredu_partitioned_projection_group(
    const char *name, eredu_role role, const eredu_group_scope *scope,
    const eredu_projection *const *projections, size_t projection_count, uint64_t preferred_units,
    eredu_group **out, eredu_error **error);

/**
 * Describes a component-major fused column projection (its output axis 0
 * split into `segments`, e.g. q, k, v) and its row projection as one
 * partition: every fused parameter gets PARTITIONED_SEGMENTS on axis 0 with
 * the same segments (so a packed weight and its scales select the same
 * heads), every row parameter with at least 2 axes PARTITIONED on axis 1,
 * the rest is replicated; fused parameters first.
 *
 * @param fused, fused_count  the fused module's parameters, in order.
 * @param row, row_count      the row module's parameters, in order.
 * @param segments       `segment_count` {start, end} pairs (flattened):
 *                       positive, contiguous, ordered, starting at 0; their
 *                       end is the fused output width.
 * @param preferred_units the starting logical-unit count, at least 1.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT and EREDU_E_INVALID_ARGUMENT (as
 *   eredu_projection_parameter_group; NULL segments with a nonzero count);
 *   EREDU_E_INVALID_GROUP (`segmented projection requires positive logical
 *   units and at least one segment`, `segmented projection ranges must be
 *   positive, contiguous, and ordered, got [a..b, ...]`, then the group
 *   rules, first for the seed's intermediate groups named "fused" and
 *   "row": an empty module is `parallel parameter group "fused" must
 *   contain at least one tensor`); EREDU_E_INVALID_TENSOR (`column projection parameter ID is
 *   scalar`, `segmented projection parameter T has output dimension d,
 *   expected W`); EREDU_E_OUT_OF_MEMORY.
 * Thread-safe. Seed 000 segmented_projection_group and
 * assemble_segmented_projection_group.
 */
EREDU_API eredu_status eredu_segmented_projection_group(
    const char *name, eredu_role role, const eredu_group_scope *scope,
    const eredu_module_parameter *const *fused, size_t fused_count,
    const eredu_module_parameter *const *row, size_t row_count, const uint64_t *segments,
    size_t segment_count, uint64_t preferred_units, eredu_group **out, eredu_error **error);

/**
 * Builds a ParallelModelInfo: an architecture-neutral summary of one
 * rank-local parallel model. A plain value: nothing but the topology and
 * the strings' UTF-8 is checked; the getters echo the inputs.
 *
 * @param tensor, pipeline, expert, data  the topology's axis sizes (each at
 *        least 1; their product must fit 64 bits).
 * @param effective_model_type  the parsed model type (UTF-8).
 * @param owned_tensors  `owned_tensor_count` checkpoint targets owned or
 *        replicated by the rank (UTF-8); may be NULL when the count is 0.
 * @param local_parameter_bytes           planned rank-local parameter bytes.
 * @param global_parameter_bytes          unsharded model parameter bytes.
 * @param pinned_device_parameter_bytes   bytes permanently on the device.
 * @param maximum_device_parameter_bytes  maximum planned device bytes.
 * @param out  receives the new handle (owned; free with
 *        eredu_parallel_model_info_free), NULL on failure.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (effective_model_type, out, NULL
 *   owned_tensors with a nonzero count, a NULL element);
 *   EREDU_E_INVALID_ARGUMENT (invalid UTF-8, a count too large for any
 *   array); EREDU_E_ZERO_AXIS; EREDU_E_WORLD_SIZE_OVERFLOW;
 *   EREDU_E_OUT_OF_MEMORY.
 * Thread-safe. Seed 000 ParallelModelInfo::new.
 */
EREDU_API eredu_status eredu_parallel_model_info_new(
    uint64_t tensor, uint64_t pipeline, uint64_t expert, uint64_t data,
    const char *effective_model_type, const char *const *owned_tensors, size_t owned_tensor_count,
    uint64_t local_parameter_bytes, uint64_t global_parameter_bytes,
    uint64_t pinned_device_parameter_bytes, uint64_t maximum_device_parameter_bytes,
    eredu_parallel_model_info **out, eredu_error **error);

/**
 * Releases the handle. NULL is a no-op.
 * Not thread-safe with concurrent readers of the same handle.
 */
EREDU_API void eredu_parallel_model_info_free(eredu_parallel_model_info *info);

/**
 * The topology's axis sizes, unchanged.
 *
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (any argument but error).
 * Thread-safe. Seed ParallelModelInfo::topology.
 */
EREDU_API eredu_status eredu_parallel_model_info_topology(const eredu_parallel_model_info *info,
                                                          uint64_t *tensor, uint64_t *pipeline,
                                                          uint64_t *expert, uint64_t *data,
                                                          eredu_error **error);

/**
 * The effective model type.
 *
 * @param out    receives a borrowed NUL-terminated string valid until
 *               eredu_parallel_model_info_free(info).
 * @param length optional: receives its length in bytes.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (info, out).
 * Thread-safe. Seed ParallelModelInfo::effective_model_type.
 */
EREDU_API eredu_status eredu_parallel_model_info_effective_model_type(
    const eredu_parallel_model_info *info, const char **out, size_t *length, eredu_error **error);

/**
 * The number of owned tensors.
 *
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (info, out).
 * Thread-safe. Seed ParallelModelInfo::owned_tensors.
 */
EREDU_API eredu_status eredu_parallel_model_info_owned_tensor_count(
    const eredu_parallel_model_info *info, size_t *out, eredu_error **error);

/**
 * Owned tensor `index` (0-based, in the given order).
 *
 * @param out    receives a borrowed NUL-terminated string valid until
 *               eredu_parallel_model_info_free(info).
 * @param length optional: receives its length in bytes.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (info, out);
 *         EREDU_E_INVALID_ARGUMENT (index >= count).
 * Thread-safe. Seed ParallelModelInfo::owned_tensors.
 */
EREDU_API eredu_status eredu_parallel_model_info_owned_tensor(const eredu_parallel_model_info *info,
                                                              size_t index, const char **out,
                                                              size_t *length, eredu_error **error);

/**
 * The four byte counts, in bytes: local, global, pinned on device, maximum
 * on device (seed local_parameter_bytes, global_parameter_bytes,
 * pinned_device_parameter_bytes, maximum_device_parameter_bytes).
 *
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (any argument but error).
 * Thread-safe.
 */
EREDU_API eredu_status eredu_parallel_model_info_bytes(const eredu_parallel_model_info *info,
                                                       uint64_t *local_parameter_bytes,
                                                       uint64_t *global_parameter_bytes,
                                                       uint64_t *pinned_device_parameter_bytes,
                                                       uint64_t *maximum_device_parameter_bytes,
                                                       eredu_error **error);

EREDU_END_DECLS

#endif /* EREDU_PROJECTION_H */
