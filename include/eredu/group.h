// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

/*
 * eredu/group.h: logical parameter groups (ParameterGroupSpec,
 * ParameterMemberSpec, MemberSharding, ParameterRole) plus this project's
 * member dtype and group scope (docs/planning.md, docs/interchange.md).
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

/* ---- eredu_role: ParameterRole ---------------------------------------- */

#define EREDU_ROLE_REPLICATED 0
#define EREDU_ROLE_COLUMN_PROJECTION 1
#define EREDU_ROLE_ROW_PROJECTION 2
#define EREDU_ROLE_VOCABULARY 3
#define EREDU_ROLE_ATTENTION_HEADS 4
#define EREDU_ROLE_FEED_FORWARD_INTERMEDIATE 5
#define EREDU_ROLE_EXPERT_INTERMEDIATE 6
#define EREDU_ROLE_CHANNELS 7
#define EREDU_ROLE_SEGMENTED 8

/* ---- eredu_sharding_kind: MemberSharding variants --------------------- */

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

/* ---- eredu_scope_kind: which ranks own a group (docs/planning.md) ----- */

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
 * One physical checkpoint tensor of a group (a ParameterMemberSpec with
 * its MemberSharding, plus an optional dtype for byte accounting). A sized
 * struct (docs/abi.md): initialize with EREDU_MEMBER_DESC_INIT or
 * eredu_member_desc_init, then set the fields. eredu_group_member also
 * fills one as a view of a group's member.
 */
struct eredu_member_desc {
  /** The caller's sizeof(eredu_member_desc). */
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
  /** 1 when the member is per KV head: under KV-head replication its units
   * (the group's KV heads) are held whole, T / H ranks holding each (k and v
   * projections, their biases and companions); 0 (the default) when it
   * follows the query heads. Only for PARTITIONED and PARTITIONED_SEGMENTS
   * members of a group with query units (docs/planning.md, "KV-head
   * replication"); else EREDU_E_INVALID_GROUP. Any value but 0 and 1 is
   * EREDU_E_INVALID_ARGUMENT. */
  uint8_t per_kv_head;
  /** 1 when the member stacks its layer's routed experts on axis
   * `expert_axis`: expert parallelism gives each expert rank its balanced
   * range of that axis, on top of the tensor-parallel `sharding` of another
   * axis (docs/planning.md, "Stacked experts"); 0 (the default) when not.
   * Any value but 0 and 1 is EREDU_E_INVALID_ARGUMENT. The axis must not be
   * the sharding's `axis` and the group may not be scoped to an expert
   * (EREDU_E_INVALID_GROUP); its extent must equal the model's routed
   * experts, and it must be an axis of the shape (EREDU_E_INVALID_TENSOR
   * when a rank is planned). */
  uint8_t has_expert_axis;
  /** The expert axis (0-based), when has_expert_axis. */
  uint64_t expert_axis;
};

/** No target, a scalar, no dtype, replicated, not per KV head, no expert
 * axis. */
#define EREDU_MEMBER_DESC_INIT \
  { (uint32_t)sizeof(eredu_member_desc), NULL, NULL, 0, 0, 0, 0, 0, NULL, 0, 0, 0, 0 }

/**
 * The pipeline/expert ownership of a group (eredu.groups.v1 `scope`). A
 * sized struct (docs/abi.md): initialize with EREDU_GROUP_SCOPE_INIT or
 * eredu_group_scope_init (kind EREDU_SCOPE_ALL).
 */
struct eredu_group_scope {
  /** The caller's sizeof(eredu_group_scope). */
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

/** EREDU_SCOPE_ALL, no layer, no expert. */
#define EREDU_GROUP_SCOPE_INIT \
  { (uint32_t)sizeof(eredu_group_scope), 0, 0, 0, 0, 0 }

/**
 * A logical parameter group as eredu_group_new takes it (a
 * ParameterGroupSpec without its members): its name, role, logical
 * partition and scope. A sized struct (docs/abi.md): initialize with
 * EREDU_GROUP_DESC_INIT or eredu_group_desc_init, then set the fields.
 */
struct eredu_group_desc {
  /** The caller's sizeof(eredu_group_desc). */
  uint32_t struct_size;
  /** An EREDU_ROLE_* value; default EREDU_ROLE_REPLICATED. */
  eredu_role role;
  /** The logical name: NUL-terminated UTF-8, non-blank. */
  const char *name;
  /** 1 when the group has a logical partition (built as
   * ParameterGroupSpec::partitioned), 0 (the default) when not. */
  uint8_t has_partition_units;
  /** The logical units shared by the partitioned members, at least 1. */
  uint64_t partition_units;
  /** The ownership scope, or NULL (the default) for EREDU_SCOPE_ALL; read
   * for the call. */
  const eredu_group_scope *scope;
  /** 1 when `query_units` is set: grouped-query attention whose partition
   * units are its KV heads; 0 (the default) when not. Needs
   * has_partition_units (else EREDU_E_INVALID_GROUP). */
  uint8_t has_query_units;
  /** The query heads, a positive multiple of partition_units (else
   * EREDU_E_INVALID_GROUP): above that many KV heads, tensor sizes that
   * are a multiple of the KV heads and divide the query heads replicate
   * each KV head (docs/planning.md, "KV-head replication"). */
  uint64_t query_units;
  /** 1 when `vocab_pad_multiple` is set: the group's balanced members (its
   * vocabulary rows) are padded; 0 (the default) when not. */
  uint8_t has_vocab_pad_multiple;
  /** The padding multiple M, at least 1: at tensor size T the V rows are
   * padded to P = ceil(V / (M*T)) * M*T and each tensor rank allocates P/T
   * (docs/planning.md, "Vocabulary padding"). Needs EREDU_ROLE_VOCABULARY,
   * a balanced member and one extent on the balanced members' axes (else
   * EREDU_E_INVALID_GROUP). */
  uint64_t vocab_pad_multiple;
};

/** No name, EREDU_ROLE_REPLICATED, no partition, EREDU_SCOPE_ALL, no query
 * units, no vocabulary padding. */
#define EREDU_GROUP_DESC_INIT \
  { (uint32_t)sizeof(eredu_group_desc), 0, NULL, 0, 0, NULL, 0, 0, 0, 0 }

/**
 * What a group is (its ParameterGroupSpec): its name, role, logical units,
 * member count and scope. An output struct (docs/abi.md): set struct_size
 * (EREDU_GROUP_INFO_INIT or eredu_group_info_init) and eredu_group_get_info
 * fills the fields it covers. Strings are borrowed from the group.
 */
struct eredu_group_info {
  /** The caller's sizeof(eredu_group_info). */
  uint32_t struct_size;
  /** An EREDU_ROLE_* value. */
  eredu_role role;
  /** The logical name, NUL-terminated UTF-8, and its length in bytes. */
  const char *name;
  size_t name_length;
  /** The number of members. */
  size_t member_count;
  /** 1 when the group is partitioned: `partition_units` is set. */
  uint8_t has_partition_units;
  /** The group-level logical partition. */
  uint64_t partition_units;
  /** The scope: an EREDU_SCOPE_* value and, for EREDU_SCOPE_INDEXED, its
   * layer and/or expert. */
  eredu_scope_kind scope_kind;
  uint8_t has_layer;
  uint8_t has_expert;
  uint64_t layer;
  uint64_t expert;
  /** 1 when the group has query units (grouped-query attention). */
  uint8_t has_query_units;
  /** The query heads, when has_query_units. */
  uint64_t query_units;
  /** 1 when the group's vocabulary rows are padded. */
  uint8_t has_vocab_pad_multiple;
  /** The padding multiple, when has_vocab_pad_multiple. */
  uint64_t vocab_pad_multiple;
};

#define EREDU_GROUP_INFO_INIT \
  { (uint32_t)sizeof(eredu_group_info), 0, NULL, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 }

EREDU_BEGIN_DECLS

/**
 * Initializes the first `size` bytes of `desc` (pass sizeof *desc): no
 * target, a scalar, no dtype, EREDU_SHARDING_REPLICATED, axis 0;
 * struct_size = size.
 *
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (desc); EREDU_E_INVALID_ARGUMENT
 *         (size below 4 or above 4096, or ending inside a field).
 * Thread-safe.
 */
EREDU_API eredu_status eredu_member_desc_init(eredu_member_desc *desc, size_t size,
                                              eredu_error **error);

/** As eredu_member_desc_init, for eredu_group_desc (no name, replicated). */
EREDU_API eredu_status eredu_group_desc_init(eredu_group_desc *desc, size_t size,
                                             eredu_error **error);

/** As eredu_member_desc_init, for eredu_group_scope (EREDU_SCOPE_ALL). */
EREDU_API eredu_status eredu_group_scope_init(eredu_group_scope *scope, size_t size,
                                              eredu_error **error);

/** As eredu_member_desc_init, for eredu_group_info (zeroes). */
EREDU_API eredu_status eredu_group_info_init(eredu_group_info *info, size_t size,
                                             eredu_error **error);

/**
 * Builds a validated group in one atomic call (ParameterGroupSpec::new
 * when desc->has_partition_units is 0, ParameterGroupSpec::partitioned when
 * it is 1). Everything is copied: the descriptors and strings may be
 * released as soon as the call returns.
 *
 * Argument checks come first, in parameter order (NULL pointers, sized
 * structs, flags, enum values, UTF-8); then the construction rules, in
 * this order: zero units, blank name, no members, a blank target, a
 * repeated target ("repeats tensor target"), the partition contract (some
 * member is PARTITIONED or PARTITIONED_SEGMENTS if and only if the group has
 * partition units); then the query units and the vocabulary padding
 * (docs/interchange.md, "A group"). Shapes, axes and segments are checked
 * only when a rank is planned (eredu_plan_rank), never here.
 *
 * @param desc         the group: name, role, partition units, scope, query
 *                     units, vocabulary padding.
 * @param members      `member_count` pointers to descriptors, in the
 *                     group's member order; may be NULL when member_count is
 *                     0 (which is then an INVALID_GROUP).
 * @param member_count number of members; more than PTRDIFF_MAX bytes of
 *                     pointers is EREDU_E_INVALID_ARGUMENT.
 * @param out          receives the new group (owned; free it with
 *                     eredu_group_free), NULL on failure.
 * @param error        optional error slot.
 * @return EREDU_OK;
 *   EREDU_E_NULL_ARGUMENT (desc, desc->name, out, NULL members with a
 *   nonzero member_count, a NULL element, a NULL target, a NULL shape with
 *   ndim > 0, NULL segments with segment_count > 0);
 *   EREDU_E_INVALID_ARGUMENT (a struct_size (docs/abi.md), unknown role,
 *   sharding, dtype or scope kind, a flag other than 0/1, invalid UTF-8, an
 *   ndim above EREDU_MAX_NDIM, a member_count or segment_count too large for
 *   any array in memory, a nonzero axis for REPLICATED, segments on a kind
 *   without segments, layer/expert on a non-INDEXED scope, an INDEXED scope
 *   with neither);
 *   EREDU_E_INVALID_GROUP (the construction rules above);
 *   EREDU_E_OUT_OF_MEMORY (also, before allocating, a member_count or
 *   segment_count whose copy would need more than 1 TiB).
 * Thread-safe.
 */
EREDU_API eredu_status eredu_group_new(const eredu_group_desc *desc,
                                       const eredu_member_desc *const *members, size_t member_count,
                                       eredu_group **out, eredu_error **error);

/**
 * Releases a group. NULL is a no-op. Models built from the group keep their
 * own copy, so the group may be freed right after eredu_model_new.
 * Not thread-safe with concurrent readers of the same group.
 */
EREDU_API void eredu_group_free(eredu_group *group);

/**
 * The group's name, role, units, member count and scope, written into the
 * caller's struct up to its struct_size.
 *
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (group, out);
 *         EREDU_E_INVALID_ARGUMENT (out->struct_size).
 * Thread-safe.
 */
EREDU_API eredu_status eredu_group_get_info(const eredu_group *group, eredu_group_info *out,
                                            eredu_error **error);

/**
 * Member `index` (0-based, in the group's member order) as a view: its
 * target, shape, dtype, sharding and segments, written into the caller's
 * eredu_member_desc up to its struct_size. Pointers are borrowed from the
 * group and valid until eredu_group_free(group).
 *
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (group, out);
 *         EREDU_E_INVALID_ARGUMENT (index >= member count,
 *         out->struct_size).
 * Thread-safe.
 */
EREDU_API eredu_status eredu_group_member(const eredu_group *group, size_t index,
                                          eredu_member_desc *out, eredu_error **error);

EREDU_END_DECLS

#endif /* EREDU_GROUP_H */
