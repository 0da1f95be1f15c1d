/*
 * eredu/request.h: seed 002's normalized cold-load request
 * (NormalizedLoadRequest, ParallelLoadRequest, DraftingLoadRequest) and the
 * vocabulary it uses (CommunicationCompletionPolicy, PipelineWireContract,
 * QuantizationRequest, DraftingPlan, SessionCapabilities,
 * CacheResidencyPolicy, PreparationPolicy).
 *
 * An eredu_load_request is a builder handle: each eredu_load_request_set_*
 * function mirrors one of the seed's `with_*` methods and applies it in
 * place, atomically (a failed call leaves the request unchanged). Order
 * matters as in the seed (project decision 13): a local completion policy
 * set before eredu_load_request_set_parallel_execution makes that call fail
 * with EREDU_E_CONFLICTING_COMPLETION_POLICY; one set after it goes into the
 * parallel request. eredu_load_request_validate_model_preparation checks
 * the cross-field rules and returns the portable preparation policy.
 *
 * Thread-safety: a request is a single-threaded object: calls that change
 * it must not overlap with any other call on the same request; read-only
 * calls (const request) may run concurrently with each other. A request may
 * move between threads. Descriptor structs are plain caller memory, only
 * read during the call.
 */
#ifndef EREDU_REQUEST_H
#define EREDU_REQUEST_H

#include <eredu/residency_policy.h>
#include <eredu/types.h>

/* ---- eredu_cancellation_mode: CompletionCancellationMode --------------- */

/** The backend cancels overdue work natively. */
#define EREDU_CANCELLATION_NATIVE_CANCEL 0
/** The backend keeps orphaned work and its borrowed resources until exact
 * completion is observed. */
#define EREDU_CANCELLATION_QUARANTINE_UNTIL_COMPLETE 1

/* ---- eredu_activation_dtype: PipelineActivationDtype ------------------ */

#define EREDU_ACTIVATION_DTYPE_FLOAT16 0
#define EREDU_ACTIVATION_DTYPE_BFLOAT16 1
#define EREDU_ACTIVATION_DTYPE_FLOAT32 2

/* ---- eredu_quantization_kind: QuantizationRequest variants ------------ */

/** Affine integer quantization with `group_size` and `bits`. */
#define EREDU_QUANTIZATION_AFFINE 0
/** Microscaling FP4 (group 32, 4 bits, no bias). */
#define EREDU_QUANTIZATION_MXFP4 1

/* ---- eredu_drafting_plan_kind: DraftingPlan variants ------------------ */

#define EREDU_DRAFTING_PLAN_DISABLED 0
#define EREDU_DRAFTING_PLAN_EMBEDDED 1
#define EREDU_DRAFTING_PLAN_EXTERNAL 2

/* ---- eredu_drafting_kind: DraftingLoadRequest variants ---------------- */

/** Install an admitted embedded extension, as a direct load does (the
 * default). */
#define EREDU_DRAFTING_ARCHITECTURE_DEFAULT 0
/** Materialize only the ordinary target. */
#define EREDU_DRAFTING_DISABLED 1
/** Require and install an embedded extension with a proposal bound. */
#define EREDU_DRAFTING_EMBEDDED 2
/** Prepare only the ordinary target for later external-assistant pairing. */
#define EREDU_DRAFTING_EXTERNAL_TARGET 3

/* ---- eredu_cache_residency: CacheResidencyPolicy kinds ---------------- */

/** Mutable state stays on the execution device (the default). */
#define EREDU_CACHE_RESIDENCY_DEVICE 0
/** Mutable state is paged; the paging options are the runtime's own. */
#define EREDU_CACHE_RESIDENCY_PAGED 1

/** The bits a SessionCapabilities set may hold: bit i is the seed's i-th
 * positional boolean of SessionCapabilities::new (project decision 13). */
#define EREDU_SESSION_CAPABILITIES_MASK 7

/**
 * One complete parallel-execution request (seed ParallelLoadRequest::new
 * with its ParallelRankTopology, PipelineWireContract and
 * CommunicationCompletionPolicy). Fill with eredu_parallel_load_desc_init():
 * axis sizes 1, rank 0, EREDU_ACTIVATION_DTYPE_FLOAT32, limits 0 (invalid
 * until set), completion 30000 ms EREDU_CANCELLATION_QUARANTINE_UNTIL_COMPLETE.
 */
struct eredu_parallel_load_desc {
  /** sizeof(eredu_parallel_load_desc), set by eredu_parallel_load_desc_init. */
  uint32_t struct_size;
  /** Axis sizes T, P, E, D, each at least 1; their product is the world
   * size, which must be at least 2. */
  uint64_t tensor;
  uint64_t pipeline;
  uint64_t expert;
  uint64_t data;
  /** This process's global rank, below the world size. */
  uint64_t rank;
  /** Pipeline activation wire: an EREDU_ACTIVATION_DTYPE_* value. */
  eredu_activation_dtype activation_dtype;
  /** Largest admitted batch size; at least 1. */
  int32_t maximum_batch_size;
  /** Largest admitted sequence length in tokens; at least 1. */
  int32_t maximum_sequence_length;
  /** Communication completion deadline in milliseconds; at least 1. */
  uint64_t completion_timeout_millis;
  /** An EREDU_CANCELLATION_* value. */
  eredu_cancellation_mode completion_cancellation;
};

/**
 * A load-time quantization request (seed QuantizationRequest). Fill with
 * eredu_quantization_request_init(): EREDU_QUANTIZATION_AFFINE, group 64,
 * 4 bits.
 */
struct eredu_quantization_request {
  /** sizeof(eredu_quantization_request), set by
   * eredu_quantization_request_init. */
  uint32_t struct_size;
  /** An EREDU_QUANTIZATION_* value. Another value is kept and rejected by
   * validation with EREDU_E_QUANTIZATION, as the seed's catch-all does. */
  eredu_quantization_kind kind;
  /** AFFINE: values per quantization group (16 or a positive multiple of
   * 32, checked on validation). Ignored for the other kinds. */
  uint32_t group_size;
  /** AFFINE: bits per value (2, 3, 4, 5, 6 or 8, checked on validation).
   * Ignored for the other kinds. */
  uint8_t bits;
};

/**
 * The drafting mode of a portable execution plan (seed DraftingPlan; only
 * what a load request reads). Fill with eredu_drafting_plan_init():
 * EREDU_DRAFTING_PLAN_DISABLED, 0 tokens.
 */
struct eredu_drafting_plan {
  /** sizeof(eredu_drafting_plan), set by eredu_drafting_plan_init. */
  uint32_t struct_size;
  /** An EREDU_DRAFTING_PLAN_* value; any other value is
   * EREDU_E_UNSUPPORTED_DRAFTING_PLAN. */
  eredu_drafting_plan_kind kind;
  /** EMBEDDED: draft tokens proposed per target step, at least 1. Ignored
   * for the other kinds. */
  uint64_t max_draft_tokens;
};

/**
 * The portable preparation policy of a validated request (seed
 * PreparationPolicy). Fill struct_size with eredu_preparation_policy_init()
 * before calling eredu_load_request_validate_model_preparation.
 */
struct eredu_preparation_policy {
  /** sizeof(eredu_preparation_policy), set by eredu_preparation_policy_init. */
  uint32_t struct_size;
  /** 1 when the request quantizes on load, else 0 (and the quantization_*
   * fields are 0). */
  uint8_t has_quantization;
  /** An EREDU_QUANTIZATION_* value. */
  eredu_quantization_kind quantization_kind;
  /** AFFINE: values per group; 0 otherwise. */
  uint32_t quantization_group_size;
  /** AFFINE: bits per value; 0 otherwise. */
  uint8_t quantization_bits;
  /** An EREDU_RESIDENCY_REQUEST_* value. */
  eredu_residency_request residency;
  /** 1 when parallel execution is attached, else 0 (and the sizes are 0). */
  uint8_t has_topology;
  /** Axis sizes T, P, E, D of the parallel topology. */
  uint64_t tensor;
  uint64_t pipeline;
  uint64_t expert;
  uint64_t data;
  /** Required session capabilities, bits within
   * EREDU_SESSION_CAPABILITIES_MASK. */
  uint32_t required_session_capabilities;
};

EREDU_BEGIN_DECLS

/**
 * Fills `desc` with the defaults given at eredu_parallel_load_desc.
 *
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT when desc is NULL.
 * Thread-safe. Seed ParallelLoadRequest.
 */
EREDU_API eredu_status eredu_parallel_load_desc_init(eredu_parallel_load_desc *desc,
                                                     eredu_error **error);

/**
 * Fills `request` with the defaults given at eredu_quantization_request.
 *
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT when request is NULL.
 * Thread-safe. Seed QuantizationRequest.
 */
EREDU_API eredu_status eredu_quantization_request_init(eredu_quantization_request *request,
                                                       eredu_error **error);

/**
 * Fills `plan` with the defaults given at eredu_drafting_plan.
 *
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT when plan is NULL.
 * Thread-safe. Seed DraftingPlan.
 */
EREDU_API eredu_status eredu_drafting_plan_init(eredu_drafting_plan *plan, eredu_error **error);

/**
 * Fills `policy` with struct_size = sizeof(eredu_preparation_policy) and
 * zeroes.
 *
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT when policy is NULL.
 * Thread-safe. Seed PreparationPolicy.
 */
EREDU_API eredu_status eredu_preparation_policy_init(eredu_preparation_policy *policy,
                                                     eredu_error **error);

/**
 * Checks a communication completion policy (seed
 * CommunicationCompletionPolicy::new with a whole-millisecond duration;
 * project decision 12: valid if and only if timeout_millis is at least 1,
 * without any clock check).
 *
 * @param timeout_millis the deadline in milliseconds.
 * @param cancellation   an EREDU_CANCELLATION_* value.
 * @param error          optional error slot.
 * @return EREDU_OK; EREDU_E_INVALID_ARGUMENT (unknown cancellation);
 *         EREDU_E_INVALID_COMPLETION_POLICY (timeout_millis is 0:
 *         "communication completion policy must have a positive millisecond
 *         deadline").
 * Thread-safe. Seed CommunicationCompletionPolicy::new.
 */
EREDU_API eredu_status eredu_completion_policy_validate(uint64_t timeout_millis,
                                                        eredu_cancellation_mode cancellation,
                                                        eredu_error **error);

/**
 * Creates a request: the seed's NormalizedLoadRequest::default() when
 * `quantization` is NULL, else NormalizedLoadRequest::with_quantization.
 * The default has no cache override, no parallel execution, no completion
 * policy, fully resident weights, Device state, no required session
 * capabilities, no prompt-cache persistence and ARCHITECTURE_DEFAULT
 * drafting. The quantization is copied unchecked and lowered on validation.
 *
 * @param quantization optional quantization request (NULL for none).
 * @param out          receives the new request (owned; free it with
 *                     eredu_load_request_free), NULL on failure.
 * @param error        optional error slot.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (out);
 *         EREDU_E_INVALID_ARGUMENT (quantization->struct_size);
 *         EREDU_E_OUT_OF_MEMORY.
 * Thread-safe. Seed NormalizedLoadRequest::default, ::with_quantization.
 */
EREDU_API eredu_status eredu_load_request_new(const eredu_quantization_request *quantization,
                                              eredu_load_request **out, eredu_error **error);

/**
 * Releases a request. NULL is a no-op. Needs exclusive access.
 */
EREDU_API void eredu_load_request_free(eredu_load_request *request);

/**
 * Attaches one complete parallel-execution request (seed
 * ParallelLoadRequest::new, then NormalizedLoadRequest::
 * with_parallel_execution), replacing any earlier one.
 *
 * Order of checks: argument checks (request, parallel, struct_size,
 * activation dtype, cancellation); the topology (ParallelTopology::new:
 * zero axis, then world-size overflow; then the rank); the completion
 * deadline; a replicated topology (world size 1); the invocation limits;
 * then a local completion policy set earlier.
 *
 * @param request  the request, changed only on success.
 * @param parallel the parallel request; read only during the call.
 * @param error    optional error slot.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (request, parallel);
 *   EREDU_E_INVALID_ARGUMENT (struct_size, unknown activation dtype or
 *   cancellation);
 *   EREDU_E_ZERO_AXIS, EREDU_E_WORLD_SIZE_OVERFLOW,
 *   EREDU_E_RANK_OUT_OF_RANGE (the topology);
 *   EREDU_E_INVALID_COMPLETION_POLICY (completion_timeout_millis is 0);
 *   EREDU_E_REPLICATED_PARALLEL_TOPOLOGY (world size 1: "explicit parallel
 *   execution requires a non-replicated topology");
 *   EREDU_E_INVALID_INVOCATION_LIMITS (a limit <= 0: "partitioned
 *   invocation limits must be positive, got batch B and sequence S");
 *   EREDU_E_CONFLICTING_COMPLETION_POLICY (a local completion policy was set
 *   before: "parallel execution cannot replace an existing local completion
 *   policy");
 *   EREDU_E_OUT_OF_MEMORY.
 * Not thread-safe (changes the request). Seed ParallelLoadRequest::new,
 * NormalizedLoadRequest::with_parallel_execution.
 */
EREDU_API eredu_status eredu_load_request_set_parallel_execution(
    eredu_load_request *request, const eredu_parallel_load_desc *parallel, eredu_error **error);

/**
 * Sets the bounded completion policy: into the parallel request when one is
 * attached, else into the local slot (used for local realtime work; it makes
 * a later eredu_load_request_set_parallel_execution fail, and model
 * validation fail while no parallel request is attached).
 *
 * @param timeout_millis the deadline in milliseconds, at least 1.
 * @param cancellation   an EREDU_CANCELLATION_* value.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (request);
 *         EREDU_E_INVALID_ARGUMENT (unknown cancellation);
 *         EREDU_E_INVALID_COMPLETION_POLICY (timeout_millis is 0).
 * Not thread-safe. Seed NormalizedLoadRequest::
 * set_communication_completion_policy.
 */
EREDU_API eredu_status eredu_load_request_set_communication_completion_policy(
    eredu_load_request *request, uint64_t timeout_millis, eredu_cancellation_mode cancellation,
    eredu_error **error);

/**
 * Applies a portable execution plan's drafting mode: DISABLED -> drafting
 * DISABLED; EMBEDDED{n} -> EMBEDDED with capacity n; EXTERNAL ->
 * EXTERNAL_TARGET.
 *
 * @param plan the plan; read only during the call.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (request, plan);
 *   EREDU_E_INVALID_ARGUMENT (plan->struct_size);
 *   EREDU_E_UNSUPPORTED_DRAFTING_PLAN (an unknown plan->kind:
 *   "unsupported speculative drafting plan");
 *   EREDU_E_ZERO_EMBEDDED_DRAFT_CAPACITY (EMBEDDED with 0 tokens:
 *   "embedded draft capacity must be positive").
 * Not thread-safe. Seed NormalizedLoadRequest::with_drafting_plan.
 */
EREDU_API eredu_status eredu_load_request_set_drafting_plan(eredu_load_request *request,
                                                            const eredu_drafting_plan *plan,
                                                            eredu_error **error);

/**
 * Sets the drafting intent directly.
 *
 * @param kind             an EREDU_DRAFTING_* value.
 * @param max_draft_tokens EMBEDDED: the proposal capacity, at least 1; must
 *                         be 0 for the other kinds.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (request);
 *   EREDU_E_INVALID_ARGUMENT (unknown kind; nonzero max_draft_tokens for a
 *   kind other than EMBEDDED);
 *   EREDU_E_ZERO_EMBEDDED_DRAFT_CAPACITY (EMBEDDED with 0).
 * Not thread-safe. Seed NormalizedLoadRequest::with_drafting,
 * DraftingLoadRequest::embedded.
 */
EREDU_API eredu_status eredu_load_request_set_drafting(eredu_load_request *request,
                                                       eredu_drafting_kind kind,
                                                       uint64_t max_draft_tokens,
                                                       eredu_error **error);

/**
 * Selects the exact checkpoint reader-cache bound, overriding the weight
 * residency's.
 *
 * @param maximum shards/readers kept open, at least 1.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (request);
 *         EREDU_E_ZERO_CACHED_SHARDS (maximum is 0: "source reader-cache
 *         limit must be positive").
 * Not thread-safe. Seed NormalizedLoadRequest::with_max_cached_shards.
 */
EREDU_API eredu_status eredu_load_request_set_max_cached_shards(eredu_load_request *request,
                                                                uint64_t maximum,
                                                                eredu_error **error);

/**
 * Selects the immutable-weight residency, described as for
 * eredu_residency_validate (same checks, same order).
 *
 * @param desc the description; read only during the call.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (request, desc); every error of
 *         eredu_residency_validate except those about its `out`.
 * Not thread-safe. Seed NormalizedLoadRequest::with_weight_residency.
 */
EREDU_API eredu_status eredu_load_request_set_weight_residency(
    eredu_load_request *request, const eredu_weight_residency_desc *desc, eredu_error **error);

/**
 * Requires capabilities from the realized session.
 *
 * @param capabilities bits within EREDU_SESSION_CAPABILITIES_MASK.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (request);
 *         EREDU_E_INVALID_ARGUMENT (a bit outside the mask).
 * Not thread-safe. Seed NormalizedLoadRequest::
 * with_required_session_capabilities.
 */
EREDU_API eredu_status eredu_load_request_set_required_session_capabilities(
    eredu_load_request *request, uint32_t capabilities, eredu_error **error);

/**
 * Selects the mutable-state residency.
 *
 * @param residency an EREDU_CACHE_RESIDENCY_* value.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (request);
 *         EREDU_E_INVALID_ARGUMENT (unknown value).
 * Not thread-safe. Seed NormalizedLoadRequest::with_state_residency.
 */
EREDU_API eredu_status eredu_load_request_set_state_residency(eredu_load_request *request,
                                                              eredu_cache_residency residency,
                                                              eredu_error **error);

/**
 * Requires (1) or not (0) persisted prompt-prefix import/export.
 *
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (request);
 *         EREDU_E_INVALID_ARGUMENT (required is not 0 or 1).
 * Not thread-safe. Seed NormalizedLoadRequest::
 * with_prompt_cache_persistence.
 */
EREDU_API eredu_status eredu_load_request_set_prompt_cache_persistence(eredu_load_request *request,
                                                                       uint8_t required,
                                                                       eredu_error **error);

/**
 * The reader-cache bound: the explicit override, else the weight
 * residency's (4 when fully resident).
 *
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (request, out).
 * Seed NormalizedLoadRequest::max_cached_shards.
 */
EREDU_API eredu_status eredu_load_request_max_cached_shards(const eredu_load_request *request,
                                                            uint64_t *out, eredu_error **error);

/**
 * The requested load-time quantization, as given: it is checked only when
 * validation lowers it, so an unknown kind is returned unchanged.
 *
 * @param out     caller struct with struct_size set by
 *                eredu_quantization_request_init; when present it receives
 *                the kind and, for AFFINE, group_size and bits (0 for the
 *                other kinds); zeroed (except struct_size) otherwise.
 * @param present receives true when the request quantizes on load.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (request, out, present);
 *         EREDU_E_INVALID_ARGUMENT (out->struct_size).
 * Seed NormalizedLoadRequest::quantization.
 */
EREDU_API eredu_status eredu_load_request_quantization(const eredu_load_request *request,
                                                       eredu_quantization_request *out,
                                                       bool *present, eredu_error **error);

/**
 * The attached parallel request.
 *
 * @param out     caller struct with struct_size set by
 *                eredu_parallel_load_desc_init; filled when present, zeroed
 *                (except struct_size) otherwise.
 * @param present receives true when parallel execution is attached.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (request, out, present);
 *         EREDU_E_INVALID_ARGUMENT (out->struct_size).
 * Seed NormalizedLoadRequest::parallel_execution, parallel_topology,
 * pipeline_wire_contract, partitioned_invocation_limits.
 */
EREDU_API eredu_status eredu_load_request_parallel_execution(const eredu_load_request *request,
                                                             eredu_parallel_load_desc *out,
                                                             bool *present, eredu_error **error);

/**
 * The communication completion policy of model preparation: the parallel
 * request's, or none (present false) without parallel execution.
 *
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (request or an out-parameter);
 *   EREDU_E_ORPHANED_MODEL_COMPLETION (a local policy without parallel
 *   execution: "a communication completion policy requires a parallel
 *   topology");
 *   EREDU_E_CONFLICTING_COMPLETION_POLICY (both; unreachable through this
 *   API).
 * Seed NormalizedLoadRequest::communication_completion_policy.
 */
EREDU_API eredu_status eredu_load_request_communication_completion_policy(
    const eredu_load_request *request, uint64_t *timeout_millis,
    eredu_cancellation_mode *cancellation, bool *present, eredu_error **error);

/**
 * The completion policy of realtime work: the parallel request's, else the
 * local one, else 30000 ms EREDU_CANCELLATION_QUARANTINE_UNTIL_COMPLETE.
 *
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (request or an out-parameter);
 *         EREDU_E_COMPLETION (the default could not be built; unreachable).
 * Seed NormalizedLoadRequest::realtime_completion_policy.
 */
EREDU_API eredu_status eredu_load_request_realtime_completion_policy(
    const eredu_load_request *request, uint64_t *timeout_millis,
    eredu_cancellation_mode *cancellation, eredu_error **error);

/**
 * The drafting intent.
 *
 * @param kind             receives an EREDU_DRAFTING_* value.
 * @param max_draft_tokens receives the embedded capacity, 0 for the other
 *                         kinds.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (request or an out-parameter).
 * Seed NormalizedLoadRequest::drafting, DraftingLoadRequest::
 * embedded_capacity.
 */
EREDU_API eredu_status eredu_load_request_drafting(const eredu_load_request *request,
                                                   eredu_drafting_kind *kind,
                                                   uint64_t *max_draft_tokens, eredu_error **error);

/**
 * The immutable-weight residency, summarized for `unit_count` ordinary
 * execution units exactly as eredu_residency_validate summarizes a
 * description: the derived values and every option (the fully resident
 * default when none was set).
 *
 * @param unit_count ordinary execution units, for out->device_depth.
 * @param out        caller struct with struct_size set by
 *                   eredu_residency_summary_init; filled on success, zeroed
 *                   (except struct_size) on failure.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (request, out);
 *         EREDU_E_INVALID_ARGUMENT (out->struct_size).
 * Seed NormalizedLoadRequest::weight_residency.
 */
EREDU_API eredu_status eredu_load_request_weight_residency(const eredu_load_request *request,
                                                           uint64_t unit_count,
                                                           eredu_residency_summary *out,
                                                           eredu_error **error);

/**
 * The capabilities required from the realized session: bits within
 * EREDU_SESSION_CAPABILITIES_MASK (0 unless set).
 *
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (request, out).
 * Seed NormalizedLoadRequest::required_session_capabilities.
 */
EREDU_API eredu_status eredu_load_request_required_session_capabilities(
    const eredu_load_request *request, uint32_t *out, eredu_error **error);

/**
 * The mutable-state residency (an EREDU_CACHE_RESIDENCY_* value).
 *
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (request, out).
 * Seed NormalizedLoadRequest::state_residency.
 */
EREDU_API eredu_status eredu_load_request_state_residency(const eredu_load_request *request,
                                                          eredu_cache_residency *out,
                                                          eredu_error **error);

/**
 * Whether persisted prompt-prefix import/export is required.
 *
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (request, out).
 * Seed NormalizedLoadRequest::prompt_cache_persistence.
 */
EREDU_API eredu_status eredu_load_request_prompt_cache_persistence(
    const eredu_load_request *request, bool *out, eredu_error **error);

/**
 * Validates the complete model-preparation request and returns its
 * portable preparation policy: the quantization as requested, the
 * residency (ADDRESSABLE_PARAMETER_BANKS with an independent bank cache,
 * else the ordinary layers'), the parallel topology's sizes when attached
 * and the required session capabilities.
 *
 * Order of checks (semantics 5): arguments; a reader-cache bound of 0;
 * the quantization lowering; the completion policies.
 *
 * @param out caller struct with struct_size set by
 *            eredu_preparation_policy_init; filled on success, zeroed
 *            (except struct_size) on failure.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (request, out);
 *   EREDU_E_INVALID_ARGUMENT (out->struct_size);
 *   EREDU_E_ZERO_CACHED_SHARDS (no override and the weight residency's
 *   bound is 0);
 *   EREDU_E_QUANTIZATION (an AFFINE group_size above INT32_MAX: "group_size
 *   must fit in i32, got G"; an invalid group: "group_size must be 16 or a
 *   positive multiple of 32, got G"; then invalid bits: "bits must be one of
 *   2, 3, 4, 5, 6, or 8, got B"; an unknown kind: "unknown load-time
 *   transformation request");
 *   EREDU_E_ORPHANED_MODEL_COMPLETION (a local completion policy without
 *   parallel execution);
 *   EREDU_E_CONFLICTING_COMPLETION_POLICY (unreachable through this API).
 * Thread-safe with other read-only calls. Seed NormalizedLoadRequest::
 * validate_model_preparation, preparation_policy.
 */
EREDU_API eredu_status eredu_load_request_validate_model_preparation(
    const eredu_load_request *request, eredu_preparation_policy *out, eredu_error **error);

EREDU_END_DECLS

#endif /* EREDU_REQUEST_H */
