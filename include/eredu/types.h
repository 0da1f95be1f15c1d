// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

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

/* Marks a declaration that a later release removes; the message names its
 * replacement (docs/abi.md). */
#if defined(__GNUC__) && (__GNUC__ > 4 || (__GNUC__ == 4 && __GNUC_MINOR__ >= 5))
#define EREDU_DEPRECATED(message) __attribute__((deprecated(message)))
#else
#define EREDU_DEPRECATED(message)
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
/** Encoding of a linear matrix: EREDU_LINEAR_FORMAT_* (eredu/format.h). */
typedef uint32_t eredu_linear_format_kind;
/** Block-FP8 scale encoding: EREDU_BLOCK_FP8_SCALE_* (eredu/format.h). */
typedef uint32_t eredu_block_fp8_scale_encoding;
/** How a projection is sharded: EREDU_PROJECTION_* (eredu/runtime/projection.h). */
typedef uint32_t eredu_projection_sharding;
/** Memory tier of an offload unit: EREDU_MEMORY_TIER_* (eredu/runtime/residency.h). */
typedef uint32_t eredu_memory_tier;
/** Lifetime policy of an offload unit: EREDU_RESIDENCY_POLICY_* (eredu/runtime/residency.h). */
typedef uint32_t eredu_residency_policy;
/** Cache eviction order: EREDU_EVICTION_* (eredu/runtime/residency.h). */
typedef uint32_t eredu_eviction_policy;
/** How a weight binding selects elements: EREDU_SELECTION_* (eredu/runtime/residency.h). */
typedef uint32_t eredu_selection_kind;
/** Ordinary-unit weight placement: EREDU_EXECUTION_RESIDENCY_*
 * (eredu/runtime/residency_policy.h). */
typedef uint32_t eredu_execution_residency;
/** Portable preparation residency: EREDU_RESIDENCY_REQUEST_* (eredu/runtime/residency_policy.h). */
typedef uint32_t eredu_residency_request;
/** Completion cancellation: EREDU_CANCELLATION_* (eredu/runtime/request.h). */
typedef uint32_t eredu_cancellation_mode;
/** Pipeline activation element type: EREDU_ACTIVATION_DTYPE_* (eredu/runtime/request.h). */
typedef uint32_t eredu_activation_dtype;
/** Load-time quantization: EREDU_QUANTIZATION_* (eredu/runtime/request.h). */
typedef uint32_t eredu_quantization_kind;
/** Execution-plan drafting mode: EREDU_DRAFTING_PLAN_* (eredu/runtime/request.h). */
typedef uint32_t eredu_drafting_plan_kind;
/** Load-time drafting intent: EREDU_DRAFTING_* (eredu/runtime/request.h). */
typedef uint32_t eredu_drafting_kind;
/** Mutable-state residency: EREDU_CACHE_RESIDENCY_* (eredu/runtime/request.h). */
typedef uint32_t eredu_cache_residency;
/** Execution pass of routed parameter banks: EREDU_EXPERT_PASS_* (eredu/runtime/residency.h). */
typedef uint32_t eredu_expert_pass;
/** Storage access class of a pass: EREDU_PARAMETER_BANK_ACCESS_* (eredu/runtime/residency.h). */
typedef uint32_t eredu_parameter_bank_access;
/** Whose variables a launch environment came from: EREDU_LAUNCHER_* (eredu/launch.h). */
typedef uint32_t eredu_launcher;

/* Opaque handles. */

/** An error object: a status code and a UTF-8 message (eredu/status.h). */
typedef struct eredu_error eredu_error;
/** One problem of a planning failure (eredu/status.h). */
typedef struct eredu_error_entry eredu_error_entry;
/** An immutable, validated parameter group (eredu/group.h). */
typedef struct eredu_group eredu_group;
/** An immutable, validated model description (eredu/model.h). */
typedef struct eredu_model eredu_model;
/** An immutable plan of one rank (eredu/layout.h). */
typedef struct eredu_layout eredu_layout;
/** An immutable list of members, e.g. one expanded member (eredu/format.h). */
typedef struct eredu_member_list eredu_member_list;
/** An immutable rank-local model summary (eredu/runtime/projection.h). */
typedef struct eredu_parallel_model_info eredu_parallel_model_info;
/** An immutable, validated offload plan (eredu/runtime/residency.h). */
typedef struct eredu_offload_plan eredu_offload_plan;
/** An immutable pinned static unit and its bindings (eredu/runtime/residency.h). */
typedef struct eredu_static_unit_bindings eredu_static_unit_bindings;
/** A single-threaded dense transfer cursor (eredu/runtime/residency.h). */
typedef struct eredu_dense_transfer_schedule eredu_dense_transfer_schedule;
/** A single-threaded normalized cold-load request builder (eredu/runtime/request.h). */
typedef struct eredu_load_request eredu_load_request;
/** A runtime-owned layerwise model residency snapshot (eredu/runtime/layerwise_metadata.h). */
typedef struct eredu_layerwise_model_metadata eredu_layerwise_model_metadata;
/** An immutable table of a checkpoint's stored tensors (eredu/checkpoint.h). */
typedef struct eredu_checkpoint eredu_checkpoint;
/** An immutable read plan of one rank (eredu/checkpoint.h). */
typedef struct eredu_read_plan eredu_read_plan;
/** A rank's tensors read into memory the library allocated (eredu/checkpoint.h). */
typedef struct eredu_rank_data eredu_rank_data;
/** An open plan file: every rank's layout of one world (eredu/plan_file.h). */
typedef struct eredu_plan_file eredu_plan_file;

/**
 * Progress of a long call (eredu_plan_world_json, eredu_check_json): `done`
 * of `total` steps are finished. Calls are serialized but may come from any
 * of the library's worker threads. Return 0 to go on; any other value
 * cancels the call, which then returns EREDU_E_CANCELLED and writes no
 * output.
 */
typedef int32_t (*eredu_progress_fn)(uint64_t done, uint64_t total, void *user_data);

/* Transparent structs. Each starts with uint32_t struct_size, the caller's
 * sizeof, set by an EREDU_<NAME>_INIT macro or an eredu_<name>_init(ptr,
 * sizeof *ptr) function; fields are only ever appended (docs/abi.md). */

/** Tensor x pipeline x expert x data parallel sizes (eredu/topology.h). */
typedef struct eredu_topology eredu_topology;
/** How eredu_plan_rank and the bulk entry points plan (eredu/plan.h). */
typedef struct eredu_plan_options eredu_plan_options;
/** Rank, coordinates, policy and totals of a layout (eredu/layout.h). */
typedef struct eredu_layout_info eredu_layout_info;
/** Every field of one planned tensor (eredu/layout.h). */
typedef struct eredu_layout_tensor_info eredu_layout_tensor_info;
/** How eredu_model_describe describes a model (eredu/checkpoint.h). */
typedef struct eredu_describe_options eredu_describe_options;
/** One tensor of a read plan (eredu/checkpoint.h). */
typedef struct eredu_read_tensor_info eredu_read_tensor_info;
/** How eredu_read_plan_read_rank reads a whole rank (eredu/checkpoint.h). */
typedef struct eredu_read_options eredu_read_options;
/** What eredu_read_plan_read_rank read (eredu/checkpoint.h). */
typedef struct eredu_read_stats eredu_read_stats;
/** Header of a plan file (eredu/plan_file.h). */
typedef struct eredu_plan_file_info eredu_plan_file_info;
/** Name, role, units, members and scope of a group (eredu/group.h). */
typedef struct eredu_group_info eredu_group_info;
/** A process's rank and world size from its launcher (eredu/launch.h). */
typedef struct eredu_launch_env eredu_launch_env;

/** One physical tensor of a group, as passed to eredu_group_new. */
typedef struct eredu_member_desc eredu_member_desc;
/** A group's name, role, partition and scope, for eredu_group_new. */
typedef struct eredu_group_desc eredu_group_desc;
/** The optional ownership scope of a group, as passed to eredu_group_new. */
typedef struct eredu_group_scope eredu_group_scope;
/** The optional `model` object of a description, for eredu_model_new. */
typedef struct eredu_model_info eredu_model_info;
/** A linear-matrix encoding (eredu/format.h). */
typedef struct eredu_linear_format eredu_linear_format;
/** A linear format plus its companion targets (eredu/format.h). */
typedef struct eredu_linear_format_spec eredu_linear_format_spec;
/** One row of the GGML block table (eredu/format.h). */
typedef struct eredu_ggml_type_info eredu_ggml_type_info;
/** One parameter of a projection module (eredu/runtime/projection.h). */
typedef struct eredu_module_parameter eredu_module_parameter;
/** A projection module and its sharding (eredu/runtime/projection.h). */
typedef struct eredu_projection eredu_projection;
/** Offload budgets, prefetch depth and eviction (eredu/runtime/residency.h). */
typedef struct eredu_offload_config eredu_offload_config;
/** One offload unit, as passed to eredu_offload_plan_new (eredu/runtime/residency.h). */
typedef struct eredu_offload_unit_desc eredu_offload_unit_desc;
/** A checkpoint tensor selection of a weight binding (eredu/runtime/residency.h). */
typedef struct eredu_tensor_selection eredu_tensor_selection;
/** One checkpoint weight binding (eredu/runtime/residency.h). */
typedef struct eredu_weight_binding_desc eredu_weight_binding_desc;
/** Layerwise host load options (eredu/runtime/residency_policy.h). */
typedef struct eredu_layerwise_options eredu_layerwise_options;
/** Dense disk streaming load options (eredu/runtime/residency_policy.h). */
typedef struct eredu_dense_stream_options eredu_dense_stream_options;
/** Independent parameter-bank cache options (eredu/runtime/residency_policy.h). */
typedef struct eredu_parameter_bank_options eredu_parameter_bank_options;
/** A complete weight-residency description (eredu/runtime/residency_policy.h). */
typedef struct eredu_weight_residency_desc eredu_weight_residency_desc;
/** What a weight residency derives, filled by eredu_residency_validate. */
typedef struct eredu_residency_summary eredu_residency_summary;
/** A parallel-execution request (eredu/runtime/request.h). */
typedef struct eredu_parallel_load_desc eredu_parallel_load_desc;
/** A load-time quantization request (eredu/runtime/request.h). */
typedef struct eredu_quantization_request eredu_quantization_request;
/** An execution plan's drafting mode (eredu/runtime/request.h). */
typedef struct eredu_drafting_plan eredu_drafting_plan;
/** A validated preparation policy (eredu/runtime/request.h). */
typedef struct eredu_preparation_policy eredu_preparation_policy;
/** The figures of a ParallelModelInfo (eredu/runtime/projection.h). */
typedef struct eredu_parallel_model_summary eredu_parallel_model_summary;
/** Config, planned bytes and unit count of an offload plan (eredu/runtime/residency.h). */
typedef struct eredu_offload_plan_info eredu_offload_plan_info;
/** The plain fields of a load request (eredu/runtime/request.h). */
typedef struct eredu_load_request_info eredu_load_request_info;
/** Every field of layerwise model metadata (eredu/runtime/layerwise_metadata.h). */
typedef struct eredu_layerwise_model_metadata_info eredu_layerwise_model_metadata_info;
/** The residency policy of an admission check (eredu/world.h). */
typedef struct eredu_check_options eredu_check_options;
/** What eredu_fit_json searches (eredu/world.h). */
typedef struct eredu_fit_options eredu_fit_options;

#endif /* EREDU_TYPES_H */
