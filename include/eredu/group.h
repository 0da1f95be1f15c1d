/*
 * eredu/group.h: logical parameter groups (seed 000: ParameterGroupSpec,
 * ParameterMemberSpec, MemberSharding, ParameterRole) plus this project's
 * member dtype and group scope (interchange.md section 1).
 *
 * A group is an atomic logical parameter and all of its physical checkpoint
 * tensors ("members"): a packed weight and its scales are planned together so
 * they always agree on which logical units a rank owns.
 *
 * Thread-safety: an eredu_group is immutable once built; any number of
 * threads may read it at once. Descriptor structs are plain caller memory.
 */
#ifndef EREDU_GROUP_H
#define EREDU_GROUP_H

#include <eredu/types.h>

/* ---- eredu_role: seed ParameterRole ----------------------------------- */

#define EREDU_ROLE_REPLICATED 0
#define EREDU_ROLE_COLUMN_PROJECTION 1
#define EREDU_ROLE_ROW_PROJECTION 2
#define EREDU_ROLE_VOCABULARY 3
#define EREDU_ROLE_ATTENTION_HEADS 4
#define EREDU_ROLE_FEED_FORWARD_INTERMEDIATE 5
#define EREDU_ROLE_EXPERT_INTERMEDIATE 6
#define EREDU_ROLE_CHANNELS 7
#define EREDU_ROLE_SEGMENTED 8

/* ---- eredu_sharding_kind: seed MemberSharding variants ---------------- */

/** Every rank holds the whole tensor. `axis` must be 0, no segments. */
#define EREDU_SHARDING_REPLICATED 0
/** Equal split of `axis` by the TP size (must divide). */
#define EREDU_SHARDING_EQUAL 1
/** Balanced contiguous split of `axis` (sizes differ by at most one). */
#define EREDU_SHARDING_BALANCED 2
/** Split of `axis` by the group's logical units (partition_units). */
#define EREDU_SHARDING_PARTITIONED 3
/** Like PARTITIONED, applied to every segment of `axis` (each segment is one
 * complete copy of the logical domain). */
#define EREDU_SHARDING_PARTITIONED_SEGMENTS 4
/** Every segment of `axis` balanced independently over the TP ranks. */
#define EREDU_SHARDING_SEGMENTED 5

/* ---- eredu_dtype: safetensors element types --------------------------- */

#define EREDU_DTYPE_BOOL 0
#define EREDU_DTYPE_U8 1
#define EREDU_DTYPE_I8 2
#define EREDU_DTYPE_I16 3
#define EREDU_DTYPE_U16 4
#define EREDU_DTYPE_F16 5
#define EREDU_DTYPE_BF16 6
#define EREDU_DTYPE_I32 7
#define EREDU_DTYPE_U32 8
#define EREDU_DTYPE_F32 9
#define EREDU_DTYPE_F64 10
#define EREDU_DTYPE_I64 11
#define EREDU_DTYPE_U64 12
#define EREDU_DTYPE_F8_E4M3 13
#define EREDU_DTYPE_F8_E5M2 14
#define EREDU_DTYPE_F8_E8M0 15

/* ---- eredu_scope_kind: which ranks own a group (interchange.md 1) ----- */

/** All pipeline stages and expert ranks (the default). */
#define EREDU_SCOPE_ALL 0
/** The first pipeline stage. */
#define EREDU_SCOPE_EMBEDDING 1
/** The last pipeline stage. */
#define EREDU_SCOPE_OUTPUT_HEAD 2
/** The first and the last pipeline stage. */
#define EREDU_SCOPE_TIED_EMBEDDING 3
/** The stage owning `layer` and/or the expert rank owning `expert`. */
#define EREDU_SCOPE_INDEXED 4

/** The most axes a member's shape may have (eredu_member_desc.ndim). */
#define EREDU_MAX_NDIM 1024

/**
 * One physical checkpoint tensor of a group (seed ParameterMemberSpec with
 * its MemberSharding, plus an optional dtype for byte accounting).
 * Fill with eredu_member_desc_init() first, then set the fields.
 */
struct eredu_member_desc {
  /** sizeof(eredu_member_desc), set by eredu_member_desc_init. */
  uint32_t struct_size;
  /** Checkpoint tensor name: NUL-terminated UTF-8, non-blank. */
  const char *target;
  /** Global shape in elements per axis, outermost first; `ndim` values.
   * May be NULL when ndim is 0 (a scalar). */
  const uint64_t *shape;
  /** Number of axes, at most EREDU_MAX_NDIM (1024); more is
   * EREDU_E_INVALID_ARGUMENT, checked before `shape` is read. */
  size_t ndim;
  /** 1 when `dtype` is set, 0 when the member has no dtype (its bytes are
   * then unknown). Any other value is EREDU_E_INVALID_ARGUMENT. */
  uint8_t has_dtype;
  /** An EREDU_DTYPE_* value; ignored when has_dtype is 0. */
  eredu_dtype dtype;
  /** An EREDU_SHARDING_* value. */
  eredu_sharding_kind sharding;
  /** The sharded axis (0-based) for every kind but REPLICATED, where it
   * must be 0. */
  uint64_t axis;
  /** Segments for PARTITIONED_SEGMENTS and SEGMENTED: `segment_count` pairs
   * {start, end} of half-open element offsets on `axis`, flattened
   * (2 * segment_count values). May be NULL when segment_count is 0; must be
   * empty for the other kinds. */
  const uint64_t *segments;
  /** Number of segments (pairs, not values). A count whose
   * 16 * segment_count bytes overflow or exceed PTRDIFF_MAX is
   * EREDU_E_INVALID_ARGUMENT; one whose copy needs more than 1 TiB is
   * EREDU_E_OUT_OF_MEMORY; both are checked before anything is read. */
  size_t segment_count;
};

/**
 * The pipeline/expert ownership of a group (interchange.md section 1
 * `scope`). Fill with eredu_group_scope_init() (kind EREDU_SCOPE_ALL).
 */
struct eredu_group_scope {
  /** sizeof(eredu_group_scope), set by eredu_group_scope_init. */
  uint32_t struct_size;
  /** An EREDU_SCOPE_* value. */
  eredu_scope_kind kind;
  /** 1 when `layer` is set; only allowed with EREDU_SCOPE_INDEXED. */
  uint8_t has_layer;
  /** The decoder layer (0-based) whose pipeline stage owns the group. */
  uint64_t layer;
  /** 1 when `expert` is set; only allowed with EREDU_SCOPE_INDEXED. */
  uint8_t has_expert;
  /** The routed expert (0-based) whose expert rank owns the group. */
  uint64_t expert;
};

EREDU_BEGIN_DECLS

/**
 * Fills `desc` with defaults: struct_size = sizeof(eredu_member_desc),
 * target/shape/segments NULL, counts 0, no dtype, EREDU_SHARDING_REPLICATED,
 * axis 0.
 *
 * @param desc  caller-owned descriptor to fill.
 * @param error optional error slot (see eredu/status.h).
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT when desc is NULL.
 * Thread-safe. Seed 000 ParameterMemberSpec / MemberSharding.
 */
EREDU_API eredu_status eredu_member_desc_init(eredu_member_desc *desc, eredu_error **error);

/**
 * Fills `scope` with defaults: struct_size = sizeof(eredu_group_scope),
 * EREDU_SCOPE_ALL, no layer, no expert.
 *
 * @param scope caller-owned struct to fill.
 * @param error optional error slot.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT when scope is NULL.
 * Thread-safe. Interchange section 1 `scope`.
 */
EREDU_API eredu_status eredu_group_scope_init(eredu_group_scope *scope, eredu_error **error);

/**
 * Builds a validated group in one atomic call (seed ParameterGroupSpec::new
 * when has_partition_units is 0, ParameterGroupSpec::partitioned when it is
 * 1). Everything is copied: the descriptors and strings may be released as
 * soon as the call returns.
 *
 * Argument checks come first, in parameter order (NULL pointers, flags,
 * enum values, struct_size, UTF-8); then the seed's construction rules in
 * the seed's order: zero units, blank name, no members, a blank target, a
 * repeated target ("repeats tensor target"), the partition contract (some
 * member is PARTITIONED or PARTITIONED_SEGMENTS if and only if the group has
 * partition units). Shapes, axes and segments are checked when a rank is
 * planned, as in the seed.
 *
 * @param name              logical name: NUL-terminated UTF-8, non-blank.
 * @param role              an EREDU_ROLE_* value.
 * @param has_partition_units 1 when the group has a logical partition, else 0.
 * @param partition_units   the logical units shared by the partitioned
 *                          members (at least 1); ignored when
 *                          has_partition_units is 0.
 * @param scope             the ownership scope, or NULL for EREDU_SCOPE_ALL.
 *                          INDEXED needs has_layer and/or has_expert; the
 *                          other kinds allow neither.
 * @param members           `member_count` pointers to descriptors, in the
 *                          group's member order; may be NULL when
 *                          member_count is 0 (which is then an INVALID_GROUP).
 * @param member_count      number of members; more than PTRDIFF_MAX bytes
 *                          of pointers is EREDU_E_INVALID_ARGUMENT.
 * @param out               receives the new group (owned; free it with
 *                          eredu_group_free), NULL on failure.
 * @param error             optional error slot.
 * @return EREDU_OK;
 *   EREDU_E_NULL_ARGUMENT (name, out, NULL members with a nonzero
 *   member_count, a NULL element, a NULL target, a NULL shape with ndim > 0,
 *   NULL segments with segment_count > 0);
 *   EREDU_E_INVALID_ARGUMENT (unknown role, sharding, dtype or scope kind, a
 *   flag other than 0/1, wrong struct_size, invalid UTF-8, an ndim above
 *   EREDU_MAX_NDIM, a member_count or segment_count too large for any array
 *   in memory, a nonzero axis for REPLICATED, segments on a kind without
 *   segments, layer/expert on a non-INDEXED scope, an INDEXED scope with
 *   neither);
 *   EREDU_E_INVALID_GROUP (the seed rules above);
 *   EREDU_E_OUT_OF_MEMORY (also, before allocating, a member_count or
 *   segment_count whose copy would need more than 1 TiB).
 * Thread-safe. Seed 000 ParameterGroupSpec, ParameterMemberSpec,
 * MemberSharding.
 */
EREDU_API eredu_status eredu_group_new(const char *name, eredu_role role,
                                       uint8_t has_partition_units, uint64_t partition_units,
                                       const eredu_group_scope *scope,
                                       const eredu_member_desc *const *members, size_t member_count,
                                       eredu_group **out, eredu_error **error);

/**
 * Releases a group. NULL is a no-op. Models built from the group keep their
 * own copy, so the group may be freed right after eredu_model_new.
 * Not thread-safe with concurrent readers of the same group.
 */
EREDU_API void eredu_group_free(eredu_group *group);

/**
 * The group's logical name.
 *
 * @param group  the group.
 * @param out    receives a borrowed NUL-terminated UTF-8 string valid until
 *               eredu_group_free(group).
 * @param length optional (may be NULL): receives the length in bytes
 *               without the terminator.
 * @param error  optional error slot.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (group, out).
 * Thread-safe. Seed ParameterGroupSpec::logical_name.
 */
EREDU_API eredu_status eredu_group_name(const eredu_group *group, const char **out, size_t *length,
                                        eredu_error **error);

/**
 * The group's role (an EREDU_ROLE_* value).
 *
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (group, out).
 * Thread-safe. Seed ParameterGroupSpec::role.
 */
EREDU_API eredu_status eredu_group_role(const eredu_group *group, eredu_role *out,
                                        eredu_error **error);

/**
 * The group's logical-unit count.
 *
 * @param units   receives the count, 0 when absent.
 * @param present receives true when the group is partitioned.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (group, units, present).
 * Thread-safe. Seed ParameterGroupSpec::partition_units.
 */
EREDU_API eredu_status eredu_group_partition_units(const eredu_group *group, uint64_t *units,
                                                   bool *present, eredu_error **error);

/**
 * The number of members.
 *
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (group, out).
 * Thread-safe. Seed ParameterGroupSpec::members.
 */
EREDU_API eredu_status eredu_group_member_count(const eredu_group *group, size_t *out,
                                                eredu_error **error);

/**
 * The target of member `index` (0-based, in the group's member order).
 *
 * @param out    receives a borrowed NUL-terminated UTF-8 string valid until
 *               eredu_group_free(group).
 * @param length optional (may be NULL): receives its length in bytes.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (group, out);
 *         EREDU_E_INVALID_ARGUMENT (index >= member count).
 * Thread-safe. Seed ParameterMemberSpec::target.
 */
EREDU_API eredu_status eredu_group_member_target(const eredu_group *group, size_t index,
                                                 const char **out, size_t *length,
                                                 eredu_error **error);

EREDU_END_DECLS

#endif /* EREDU_GROUP_H */
