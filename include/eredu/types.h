/*
 * eredu/types.h: the fixed-width scalar types, the export macro and every
 * type name of the eredu C API, declared exactly once (C99 forbids repeating
 * a typedef). Every other public header includes this one.
 */
#ifndef EREDU_TYPES_H
#define EREDU_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Default visibility for exported declarations: the library is built with
 * hidden visibility and a version script exporting eredu_* only. */
#if defined(__GNUC__) && __GNUC__ >= 4
#define EREDU_API __attribute__((visibility("default")))
#else
#define EREDU_API
#endif

#ifdef __cplusplus
#define EREDU_BEGIN_DECLS extern "C" {
#define EREDU_END_DECLS }
#else
#define EREDU_BEGIN_DECLS
#define EREDU_END_DECLS
#endif

/* Scalar typedefs. C enums are never used in the ABI: their width is
 * implementation-defined. The constants are plain integer #defines in the
 * header of each concern. */

/** Result of every fallible function: EREDU_OK (0) or an EREDU_E_* code
 * (eredu/status.h). Numbers are stable forever once released. */
typedef int32_t eredu_status;
/** Semantic role of a parameter group: EREDU_ROLE_* (eredu/group.h). */
typedef uint32_t eredu_role;
/** Rank-local selection rule of a member: EREDU_SHARDING_* (eredu/group.h). */
typedef uint32_t eredu_sharding_kind;
/** Safetensors element type: EREDU_DTYPE_* (eredu/group.h). */
typedef uint32_t eredu_dtype;
/** Pipeline/expert ownership of a group: EREDU_SCOPE_* (eredu/group.h). */
typedef uint32_t eredu_scope_kind;
/** How a rank selects a tensor: EREDU_PLACEMENT_* (eredu/layout.h). */
typedef uint32_t eredu_placement_kind;
/** Planner policy for unshardable groups: EREDU_POLICY_* (eredu/plan.h). */
typedef uint32_t eredu_policy;

/* Opaque handles. */

/** An error object: a status code and a UTF-8 message (eredu/status.h). */
typedef struct eredu_error eredu_error;
/** An immutable, validated parameter group (eredu/group.h). */
typedef struct eredu_group eredu_group;
/** An immutable, validated model description (eredu/model.h). */
typedef struct eredu_model eredu_model;
/** An immutable plan of one rank (eredu/layout.h). */
typedef struct eredu_layout eredu_layout;

/* Transparent structs; each starts with uint32_t struct_size and has an
 * _init() function. */

/** One physical tensor of a group, as passed to eredu_group_new. */
typedef struct eredu_member_desc eredu_member_desc;
/** The optional ownership scope of a group, as passed to eredu_group_new. */
typedef struct eredu_group_scope eredu_group_scope;
/** The optional `model` object of a description, for eredu_model_new. */
typedef struct eredu_model_info eredu_model_info;
/** One tensor's placement, filled by eredu_layout_tensor_placement. */
typedef struct eredu_placement eredu_placement;
/** Byte and tensor totals of a layout, filled by eredu_layout_get_totals. */
typedef struct eredu_layout_totals eredu_layout_totals;

#endif /* EREDU_TYPES_H */
