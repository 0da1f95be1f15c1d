/*
 * eredu/plan.h: the rank planner (semantics.md section 1, interchange.md
 * "Planning errors").
 */
#ifndef EREDU_PLAN_H
#define EREDU_PLAN_H

#include <eredu/types.h>

/* ---- eredu_policy: seed ShardingPolicy -------------------------------- */

/** A member that cannot be sharded is an EREDU_E_INVALID_TENSOR. */
#define EREDU_POLICY_REQUIRE 0
/** A group with a member that cannot be sharded is replicated whole
 * (fell_back_to_replication); placement-validation errors still fail. */
#define EREDU_POLICY_REPLICATE_UNSUPPORTED 1

EREDU_BEGIN_DECLS

/**
 * Plans global rank `rank` of the topology tensor x pipeline x expert x data
 * for `model`: which slice of every tensor the rank materializes, its local
 * shape, logical range and bytes (seed LocalModelLayout). Pure and atomic:
 * the whole layout is computed before it is published through `out`, so the
 * result is a complete layout or an error, nothing in between.
 *
 * Ranks enumerate expert fastest, then tensor, then pipeline, data
 * outermost: rank = ((d * P + p) * T + t) * E + e.
 *
 * Errors, in this order: arguments (NULL, unknown policy); topology and rank
 * (EREDU_E_ZERO_AXIS, EREDU_E_WORLD_SIZE_OVERFLOW, EREDU_E_RANK_OUT_OF_RANGE);
 * preflight (EREDU_E_MISSING_LAYER_COUNT when pipeline > 1 without a layer
 * count, EREDU_E_MISSING_EXPERT_COUNT when expert > 1 without an expert
 * count, EREDU_E_EMPTY_PARTITION for fewer layers than stages or fewer
 * experts than expert ranks); then, group by group in document order,
 * EREDU_E_INVALID_TENSOR (member resolution under EREDU_POLICY_REQUIRE,
 * placement validation under either policy).
 *
 * @param model    the description; the layout keeps it alive, so the model
 *                 handle may be freed first.
 * @param tensor   tensor-parallel size T (>= 1).
 * @param pipeline pipeline-parallel size P (>= 1).
 * @param expert   expert-parallel size E (>= 1).
 * @param data     data-parallel size D (>= 1).
 * @param rank     global rank, < T * P * E * D.
 * @param policy   an EREDU_POLICY_* value.
 * @param out      receives the new layout (owned; free with
 *                 eredu_layout_free), NULL on failure.
 * @param error    optional error slot.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (model, out);
 *         EREDU_E_INVALID_ARGUMENT (unknown policy); the planning errors
 *         above; EREDU_E_OUT_OF_MEMORY.
 * Thread-safe: any number of ranks may be planned concurrently from one
 * model. Seed ShardingPolicy, LocalModelLayout, LocalTensorLayout,
 * TensorPlacement.
 */
EREDU_API eredu_status eredu_plan_rank(const eredu_model *model, uint64_t tensor, uint64_t pipeline,
                                       uint64_t expert, uint64_t data, uint64_t rank,
                                       eredu_policy policy, eredu_layout **out,
                                       eredu_error **error);

EREDU_END_DECLS

#endif /* EREDU_PLAN_H */
