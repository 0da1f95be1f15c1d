// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

/*
 * eredu/plan.h: the rank planner (docs/planning.md) and how it plans.
 */
#ifndef EREDU_PLAN_H
#define EREDU_PLAN_H

#include <eredu/types.h>

/* ---- eredu_policy: ShardingPolicy ------------------------------------- */

/** A member that cannot be sharded is an EREDU_E_INVALID_TENSOR. */
#define EREDU_POLICY_REQUIRE 0
/** A group with a member that cannot be sharded is replicated whole
 * (fell_back_to_replication); placement-validation errors still fail. */
#define EREDU_POLICY_REPLICATE_UNSUPPORTED 1
/** EREDU_POLICY_REQUIRE, and every split must be exact: a group's
 * partition units and every balanced extent (members, segments) must divide
 * by the tensor size, routed experts by the expert size; an uneven split is
 * an EREDU_E_INVALID_TENSOR naming the extent and the sizes that divide it
 * (docs/planning.md, "Policies"). For runtimes without uneven shards. */
#define EREDU_POLICY_REQUIRE_EVEN 2

/**
 * How to plan: the policy, the threads the library may use, and a progress
 * callback for the calls that plan every rank. A sized struct
 * (docs/abi.md): initialize with EREDU_PLAN_OPTIONS_INIT or
 * eredu_plan_options_init; a NULL options pointer means the defaults.
 */
struct eredu_plan_options {
  /** The caller's sizeof(eredu_plan_options). */
  uint32_t struct_size;
  /** An EREDU_POLICY_* value; default EREDU_POLICY_REQUIRE. */
  eredu_policy policy;
  /** Threads the call may use, the calling one included. 1: the calling
   * thread only, no helper thread is ever started. 0 (the default): for
   * eredu_plan_rank, two threads for a model of 16384 tensors or more and
   * one below; for eredu_plan_world_json and eredu_check_json, one per
   * hardware thread. Results never depend on it. */
  uint32_t threads;
  /** Called after each rank eredu_plan_world_json and eredu_check_json
   * plan (done = ranks planned, total = the world size); a non-zero return
   * cancels the call with EREDU_E_CANCELLED. NULL (the default): none.
   * eredu_plan_rank does not call it. */
  eredu_progress_fn progress;
  /** Passed to `progress` as user_data. */
  void *progress_data;
  /** Pipeline stages of chosen sizes: stage s owns pipeline_layers[s]
   * consecutive decoder layers (`pipeline_layer_count` values, one per
   * pipeline stage, each at least 1, summing to the model's layers;
   * docs/planning.md, "Pipeline stages of chosen sizes"). NULL and 0 (the
   * default): the balanced split. Read for the call. A count other than
   * the pipeline size, a 0 entry or a sum that overflows is
   * EREDU_E_INVALID_ARGUMENT; a sum other than the model's layers is
   * EREDU_E_INVALID_ARGUMENT when planning. */
  const uint64_t *pipeline_layers;
  size_t pipeline_layer_count;
};

/** The defaults: EREDU_POLICY_REQUIRE, threads 0, no progress callback,
 * balanced pipeline stages. */
#define EREDU_PLAN_OPTIONS_INIT \
  { (uint32_t)sizeof(eredu_plan_options), 0, 0, NULL, NULL, NULL, 0 }

EREDU_BEGIN_DECLS

/**
 * Initializes the first `size` bytes of `options` (pass sizeof *options):
 * zeroes, the defaults of EREDU_PLAN_OPTIONS_INIT for the fields they hold,
 * struct_size = size.
 *
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (options);
 *         EREDU_E_INVALID_ARGUMENT (size below 4 or above 4096, or ending
 *         inside a field).
 * Thread-safe.
 */
EREDU_API eredu_status eredu_plan_options_init(eredu_plan_options *options, size_t size,
                                               eredu_error **error);

/**
 * Plans global rank `rank` of `topology` for `model`: which slice of every
 * tensor the rank materializes, its local shape, logical range and bytes
 * (a LocalModelLayout). Pure and atomic: the whole layout is computed
 * before it is published through `out`, so the result is a complete layout
 * or an error, nothing in between.
 *
 * Errors, in this order: arguments (NULL, sized structs, unknown policy);
 * topology and rank (EREDU_E_ZERO_AXIS, EREDU_E_WORLD_SIZE_OVERFLOW,
 * EREDU_E_RANK_OUT_OF_RANGE); preflight (EREDU_E_MISSING_LAYER_COUNT when
 * pipeline > 1 without a layer count, EREDU_E_MISSING_EXPERT_COUNT when
 * expert > 1 without an expert count, EREDU_E_EMPTY_PARTITION for fewer
 * layers than stages or fewer experts than expert ranks); then, group by
 * group in document order, EREDU_E_INVALID_TENSOR (member resolution and
 * the companion rule under EREDU_POLICY_REQUIRE or EREDU_POLICY_REQUIRE_EVEN,
 * the even-split rule under EREDU_POLICY_REQUIRE_EVEN, placement validation
 * under every policy; docs/planning.md). The error's code and message are
 * the first of these; after a preflight or group error planning goes on,
 * and the error object lists every problem, the groups' in document order
 * then the preflight's (eredu_error_count, eredu_error_get_entry;
 * docs/interchange.md, "Planning errors").
 *
 * @param model    the description; the layout keeps it alive, so the model
 *                 handle may be freed first.
 * @param topology the axis sizes (eredu/topology.h); read for the call.
 * @param rank     global rank, < T * P * E * D.
 * @param options  policy and threads; NULL for the defaults. Its progress
 *                 callback is not called.
 * @param out      receives the new layout (owned; free with
 *                 eredu_layout_free), NULL on failure.
 * @param error    optional error slot.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (model, topology, out);
 *         EREDU_E_INVALID_ARGUMENT (a struct_size, unknown policy); the
 *         planning errors above; EREDU_E_OUT_OF_MEMORY.
 * Thread-safe: any number of ranks may be planned concurrently from one
 * model.
 */
EREDU_API eredu_status eredu_plan_rank(const eredu_model *model, const eredu_topology *topology,
                                       uint64_t rank, const eredu_plan_options *options,
                                       eredu_layout **out, eredu_error **error);

EREDU_END_DECLS

#endif /* EREDU_PLAN_H */
