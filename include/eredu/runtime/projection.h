// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

/*
 * eredu/runtime/projection.h: group-building helpers (projection groups,
 * preferred and aligned partition units; docs/planning.md, "Projection
 * helpers", "Preferred units", "Aligned partition units") and its
 * ParallelModelInfo (docs/planning.md, "Parallel model info").
 *
 * A "module" is the ordered list of a layer's parameters, as the caller
 * lists them: the weight and every encoding companion, each with its
 * checkpoint id and shape in elements.
 *
 * Every builder copies its inputs (descriptors are read only during the
 * call) and returns a new, immutable eredu_group (free with
 * eredu_group_free); on failure *out is NULL. Argument checks (NULL
 * pointers, struct_size (docs/abi.md), enum values, flags, UTF-8, array
 * sizes) come first, in parameter order, then each function's own rules in
 * the order its @return lists them.
 *
 * Thread-safety: every function is thread-safe; an eredu_parallel_model_info
 * is immutable and may be read from any number of threads at once.
 */
#ifndef EREDU_PROJECTION_H
#define EREDU_PROJECTION_H

#include <eredu/topology.h>
#include <eredu/types.h>

/* ---- eredu_projection_sharding: ProjectionSharding -------------------- */

/** Every parameter complete on every rank. */
#define EREDU_PROJECTION_REPLICATED 0
/** Output features (axis 0) split. */
#define EREDU_PROJECTION_COLUMN 1
/** Input features (axis 1) split; parameters with fewer than 2 axes (the
 * output bias) replicated. */
#define EREDU_PROJECTION_ROW 2

/**
 * One parameter of a module: its checkpoint id, shape and optional dtype. A
 * sized struct (docs/abi.md): initialize with EREDU_MODULE_PARAMETER_INIT
 * or eredu_module_parameter_init (every field 0 / NULL), then set the
 * fields.
 */
struct eredu_module_parameter {
  /** The caller's sizeof(eredu_module_parameter). */
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

/** No id, a scalar, no dtype. */
#define EREDU_MODULE_PARAMETER_INIT \
  { (uint32_t)sizeof(eredu_module_parameter), NULL, NULL, 0, 0, 0 }

/**
 * A module and its sharding, for eredu_partitioned_projection_group. A
 * sized struct (docs/abi.md): initialize with EREDU_PROJECTION_INIT or
 * eredu_projection_init (no parameters, EREDU_PROJECTION_REPLICATED).
 */
struct eredu_projection {
  /** The caller's sizeof(eredu_projection). */
  uint32_t struct_size;
  /** An EREDU_PROJECTION_* value. Default REPLICATED. */
  eredu_projection_sharding placement;
  /** `parameter_count` pointers to the module's parameters, in order. May
   * be NULL when parameter_count is 0. */
  const eredu_module_parameter *const *parameters;
  /** Number of parameters. */
  size_t parameter_count;
};

/** No parameters, EREDU_PROJECTION_REPLICATED. */
#define EREDU_PROJECTION_INIT \
  { (uint32_t)sizeof(eredu_projection), EREDU_PROJECTION_REPLICATED, NULL, 0 }

/**
 * What a ParallelModelInfo holds besides its topology and its owned tensors'
 * names (docs/planning.md, "Parallel model info"). An output struct
 * (docs/abi.md): set struct_size (EREDU_PARALLEL_MODEL_SUMMARY_INIT or
 * eredu_parallel_model_summary_init) and eredu_parallel_model_info_get_summary
 * fills the fields it covers. The string is borrowed from the handle.
 */
struct eredu_parallel_model_summary {
  /** The caller's sizeof(eredu_parallel_model_summary). */
  uint32_t struct_size;
  /** The effective model type, NUL-terminated UTF-8, and its length in
   * bytes. */
  const char *effective_model_type;
  size_t effective_model_type_length;
  /** The number of owned tensors (as eredu_parallel_model_info_owned_tensor_count). */
  size_t owned_tensor_count;
  /** Planned rank-local parameter bytes. */
  uint64_t local_parameter_bytes;
  /** Unsharded model parameter bytes. */
  uint64_t global_parameter_bytes;
  /** Bytes permanently on the device. */
  uint64_t pinned_device_parameter_bytes;
  /** Maximum planned device bytes. */
  uint64_t maximum_device_parameter_bytes;
};

#define EREDU_PARALLEL_MODEL_SUMMARY_INIT \
  { (uint32_t)sizeof(eredu_parallel_model_summary), NULL, 0, 0, 0, 0, 0, 0 }

EREDU_BEGIN_DECLS

/**
 * Initializes the first `size` bytes of `parameter` (pass sizeof
 * *parameter): zeroes (no id, a scalar, no dtype), struct_size = size.
 *
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (parameter);
 *         EREDU_E_INVALID_ARGUMENT (size below 4 or above 4096, or ending
 *         inside a field).
 * Thread-safe.
 */
EREDU_API eredu_status eredu_module_parameter_init(eredu_module_parameter *parameter, size_t size,
                                                   eredu_error **error);

/** As eredu_module_parameter_init, for eredu_projection (no parameters,
 * EREDU_PROJECTION_REPLICATED). */
EREDU_API eredu_status eredu_projection_init(eredu_projection *projection, size_t size,
                                             eredu_error **error);

/** As eredu_module_parameter_init, for eredu_parallel_model_summary
 * (zeroes). */
EREDU_API eredu_status eredu_parallel_model_summary_init(eredu_parallel_model_summary *info,
                                                         size_t size, eredu_error **error);

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
 * Thread-safe.
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
 *                        as a partitioned eredu_group_new with 0 units does
 *                        (EREDU_E_INVALID_GROUP).
 * @param out  receives the new group (owned), NULL on failure.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT, EREDU_E_INVALID_ARGUMENT (the
 *   argument checks of eredu_group_new); EREDU_E_INVALID_TENSOR
 *   (`partitioned parameter T has no axis A`, `segmented parameter T has no
 *   axis A`); EREDU_E_INVALID_GROUP (the group rules of eredu_group_new,
 *   units 0 first, and the partition contract: the group needs a
 *   PARTITIONED or PARTITIONED_SEGMENTS member); EREDU_E_OUT_OF_MEMORY.
 * Thread-safe.
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
 *   than 0/1, a struct_size (docs/abi.md), invalid UTF-8, ndim above EREDU_MAX_NDIM,
 *   a bad scope); EREDU_E_INVALID_TENSOR (`column projection parameter ID
 *   is scalar`); EREDU_E_INVALID_GROUP (eredu_group_new's rules, e.g. an
 *   empty module or a repeated id); EREDU_E_OUT_OF_MEMORY.
 * Thread-safe.
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
 * Thread-safe.
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
 *   rules, first for the intermediate groups it builds, named "fused" and
 *   "row": an empty module is `parallel parameter group "fused" must
 *   contain at least one tensor`); EREDU_E_INVALID_TENSOR (`column projection parameter ID is
 *   scalar`, `segmented projection parameter T has output dimension d,
 *   expected W`); EREDU_E_OUT_OF_MEMORY.
 * Thread-safe.
 */
EREDU_API eredu_status eredu_segmented_projection_group(
    const char *name, eredu_role role, const eredu_group_scope *scope,
    const eredu_module_parameter *const *fused, size_t fused_count,
    const eredu_module_parameter *const *row, size_t row_count, const uint64_t *segments,
    size_t segment_count, uint64_t preferred_units, eredu_group **out, eredu_error **error);

/**
 * Builds a ParallelModelInfo: an architecture-neutral summary of one
 * rank-local parallel model (docs/planning.md, "Parallel model info"). A
 * plain value: nothing but the arguments and the topology is checked; the
 * getters echo the inputs. Everything is copied.
 *
 * Order of checks: topology (NULL, struct_size), effective_model_type,
 * owned_tensors (in order), out; then the topology's own rules.
 *
 * @param topology  the axis sizes (eredu/topology.h), read for the call;
 *        each at least 1, their product must fit 64 bits. Fields past its
 *        struct_size take their default 1.
 * @param effective_model_type  the parsed model type (NUL-terminated UTF-8,
 *        may be blank).
 * @param owned_tensors  `owned_tensor_count` checkpoint targets owned or
 *        replicated by the rank (NUL-terminated UTF-8), in any order; may be
 *        NULL when the count is 0.
 * @param local_parameter_bytes           planned rank-local parameter bytes.
 * @param global_parameter_bytes          unsharded model parameter bytes.
 * @param pinned_device_parameter_bytes   bytes permanently on the device.
 * @param maximum_device_parameter_bytes  maximum planned device bytes.
 * @param out  receives the new handle (owned; free with
 *        eredu_parallel_model_info_free), NULL on failure.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (topology, effective_model_type,
 *   out, NULL owned_tensors with a nonzero count, a NULL element);
 *   EREDU_E_INVALID_ARGUMENT (topology->struct_size (docs/abi.md), invalid
 *   UTF-8, a count too large for any array); EREDU_E_ZERO_AXIS;
 *   EREDU_E_WORLD_SIZE_OVERFLOW; EREDU_E_OUT_OF_MEMORY (also, before
 *   allocating, a count whose copy would need more than 1 TiB).
 * Thread-safe.
 */
EREDU_API eredu_status eredu_parallel_model_info_new(
    const eredu_topology *topology, const char *effective_model_type,
    const char *const *owned_tensors, size_t owned_tensor_count, uint64_t local_parameter_bytes,
    uint64_t global_parameter_bytes, uint64_t pinned_device_parameter_bytes,
    uint64_t maximum_device_parameter_bytes, eredu_parallel_model_info **out, eredu_error **error);

/**
 * Releases the handle. NULL is a no-op.
 * Not thread-safe with concurrent readers of the same handle.
 */
EREDU_API void eredu_parallel_model_info_free(eredu_parallel_model_info *info);

/**
 * The topology the info was built with, unchanged, written into the
 * caller's struct up to its struct_size.
 *
 * @param out  an eredu_topology with struct_size set (EREDU_TOPOLOGY_INIT or
 *             eredu_topology_init); its covered fields are zeroed on
 *             failure.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (info, out);
 *         EREDU_E_INVALID_ARGUMENT (out->struct_size).
 * Thread-safe.
 */
EREDU_API eredu_status eredu_parallel_model_info_topology(const eredu_parallel_model_info *info,
                                                          eredu_topology *out, eredu_error **error);

/**
 * The effective model type, the owned-tensor count and the four byte
 * figures, written into the caller's struct up to its struct_size. The
 * model type is borrowed from the handle, valid until
 * eredu_parallel_model_info_free(info).
 *
 * @param out  an output struct with struct_size set; its covered fields
 *             are zeroed on failure.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (info, out);
 *         EREDU_E_INVALID_ARGUMENT (out->struct_size).
 * Thread-safe.
 */
EREDU_API eredu_status eredu_parallel_model_info_get_summary(const eredu_parallel_model_info *info,
                                                             eredu_parallel_model_summary *out,
                                                             eredu_error **error);

/**
 * The number of owned tensors. Cannot fail; 0 for a NULL info.
 * Thread-safe.
 */
EREDU_API size_t
eredu_parallel_model_info_owned_tensor_count(const eredu_parallel_model_info *info);

/**
 * Owned tensor `index` (0-based, in the given order).
 *
 * @param out    receives a borrowed NUL-terminated UTF-8 string valid until
 *               eredu_parallel_model_info_free(info); NULL on failure.
 * @param length optional (may be NULL): receives its length in bytes
 *               without the terminator; 0 on failure.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (info, out);
 *         EREDU_E_INVALID_ARGUMENT (index >= the owned-tensor count).
 * Thread-safe.
 */
EREDU_API eredu_status eredu_parallel_model_info_owned_tensor(const eredu_parallel_model_info *info,
                                                              size_t index, const char **out,
                                                              size_t *length, eredu_error **error);

EREDU_END_DECLS

#endif /* EREDU_PROJECTION_H */
