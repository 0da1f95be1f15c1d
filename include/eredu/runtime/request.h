// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

/*
 * eredu/runtime/request.h: the normalized cold-load request
 * (NormalizedLoadRequest, ParallelLoadRequest, DraftingLoadRequest) and the
 * vocabulary it uses (CommunicationCompletionPolicy, PipelineWireContract,
 * QuantizationRequest, DraftingPlan, SessionCapabilities,
 * CacheResidencyPolicy, PreparationPolicy); docs/residency.md, "Load
 * requests".
 *
 * An eredu_load_request is a builder handle: each eredu_load_request_set_*
 * function sets one part of the request (the `with_*` builder methods of
 * NormalizedLoadRequest) and applies it in place, atomically (a failed call
 * leaves the request unchanged). Order matters: a local completion policy
 * set before eredu_load_request_set_parallel_execution makes that call fail
 * with EREDU_E_CONFLICTING_COMPLETION_POLICY; one set after it goes into the
 * parallel request. eredu_load_request_get_info reads the plain fields at
 * once; eredu_load_request_validate_model_preparation checks the cross-field
 * rules and returns the portable preparation policy.
 *
 * Units: deadlines are whole milliseconds; limits are a batch size and a
 * sequence length in tokens; sizes and ranks as in eredu/topology.h.
 *
 * Ownership: pointers a request hands out (the parallel request's topology)
 * are borrowed from it and valid until the next call that changes the
 * request, or until eredu_load_request_free.
 *
 * Thread-safety: a request is a single-threaded object: calls that change
 * it must not overlap with any other call on the same request; read-only
 * calls (const request) may run concurrently with each other. A request may
 * move between threads. Descriptor structs are sized caller memory
 * (docs/abi.md), only read during the call.
 */
#ifndef EREDU_REQUEST_H
#define EREDU_REQUEST_H

#include <eredu/runtime/residency_policy.h>
#include <eredu/topology.h>
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

/** The bits a SessionCapabilities set may hold: three capabilities required
 * from the realized session, bits 0, 1 and 2, in order (docs/residency.md,
 * "Load requests"). */
#define EREDU_SESSION_CAPABILITIES_MASK 7

/**
 * One complete parallel-execution request (a ParallelLoadRequest with its
 * ParallelRankTopology, PipelineWireContract and
 * CommunicationCompletionPolicy). A sized struct (docs/abi.md): initialize
 * with EREDU_PARALLEL_LOAD_DESC_INIT or eredu_parallel_load_desc_init:
 * EREDU_ACTIVATION_DTYPE_FLOAT32, no topology (it must be set), rank 0,
 * limits 0 (invalid until set), completion 30000 ms
 * EREDU_CANCELLATION_QUARANTINE_UNTIL_COMPLETE.
 * eredu_load_request_parallel_execution also fills one as an output.
 */
struct eredu_parallel_load_desc {
  /** The caller's sizeof(eredu_parallel_load_desc). */
  uint32_t struct_size;
  /** Pipeline activation wire: an EREDU_ACTIVATION_DTYPE_* value. Default
   * FLOAT32. */
  eredu_activation_dtype activation_dtype;
  /** The axis sizes (a sized eredu_topology, read during the call): each at
   * least 1, their product is the world size, which must be at least 2.
   * Required. */
  const eredu_topology *topology;
  /** This process's global rank, below the world size. */
  uint64_t rank;
  /** Largest admitted batch size; at least 1. */
  int32_t maximum_batch_size;
  /** Largest admitted sequence length in tokens; at least 1. */
  int32_t maximum_sequence_length;
  /** Communication completion deadline in milliseconds; at least 1.
   * Default 30000. */
  uint64_t completion_timeout_millis;
  /** An EREDU_CANCELLATION_* value. Default QUARANTINE_UNTIL_COMPLETE. */
  eredu_cancellation_mode completion_cancellation;
};

/** FLOAT32 wire, no topology, rank 0, limits 0, 30000 ms quarantined. */
#define EREDU_PARALLEL_LOAD_DESC_INIT                                                          \
  {                                                                                            \
    (uint32_t)sizeof(eredu_parallel_load_desc), EREDU_ACTIVATION_DTYPE_FLOAT32, NULL, 0, 0, 0, \
        30000, EREDU_CANCELLATION_QUARANTINE_UNTIL_COMPLETE                                    \
  }

/**
 * A load-time quantization request (QuantizationRequest). A sized
 * struct (docs/abi.md): initialize with EREDU_QUANTIZATION_REQUEST_INIT or
 * eredu_quantization_request_init: EREDU_QUANTIZATION_AFFINE, group 64,
 * 4 bits. eredu_load_request_quantization also fills one as an output.
 */
struct eredu_quantization_request {
  /** The caller's sizeof(eredu_quantization_request). */
  uint32_t struct_size;
  /** An EREDU_QUANTIZATION_* value. Any other value is kept here, and
   * validation rejects it with EREDU_E_QUANTIZATION (an unknown kind). */
  eredu_quantization_kind kind;
  /** AFFINE: values per quantization group (16 or a positive multiple of
   * 32, checked on validation). Ignored for the other kinds. Default 64. */
  uint32_t group_size;
  /** AFFINE: bits per value (2, 3, 4, 5, 6 or 8, checked on validation).
   * Ignored for the other kinds. Default 4. */
  uint8_t bits;
};

/** Affine quantization, group 64, 4 bits (the AffineQuantization
 * default). */
#define EREDU_QUANTIZATION_REQUEST_INIT \
  { (uint32_t)sizeof(eredu_quantization_request), EREDU_QUANTIZATION_AFFINE, 64, 4 }

/**
 * The drafting mode of a portable execution plan (DraftingPlan; only what a
 * load request reads). A sized struct (docs/abi.md): initialize with
 * EREDU_DRAFTING_PLAN_INIT or eredu_drafting_plan_init:
 * EREDU_DRAFTING_PLAN_DISABLED, 0 tokens.
 */
struct eredu_drafting_plan {
  /** The caller's sizeof(eredu_drafting_plan). */
  uint32_t struct_size;
  /** An EREDU_DRAFTING_PLAN_* value; any other value is
   * EREDU_E_UNSUPPORTED_DRAFTING_PLAN. */
  eredu_drafting_plan_kind kind;
  /** EMBEDDED: draft tokens proposed per target step, at least 1. Ignored
   * for the other kinds. */
  uint64_t max_draft_tokens;
};

/** Drafting disabled, 0 tokens. */
#define EREDU_DRAFTING_PLAN_INIT \
  { (uint32_t)sizeof(eredu_drafting_plan), EREDU_DRAFTING_PLAN_DISABLED, 0 }

/**
 * The portable preparation policy of a validated request
 * (PreparationPolicy). An output struct (docs/abi.md): set struct_size
 * (EREDU_PREPARATION_POLICY_INIT or eredu_preparation_policy_init) and
 * eredu_load_request_validate_model_preparation fills the fields it covers.
 */
struct eredu_preparation_policy {
  /** The caller's sizeof(eredu_preparation_policy). */
  uint32_t struct_size;
  /** An EREDU_RESIDENCY_REQUEST_* value. */
  eredu_residency_request residency;
  /** An EREDU_QUANTIZATION_* value when has_quantization, else 0. */
  eredu_quantization_kind quantization_kind;
  /** AFFINE: values per group; 0 otherwise. */
  uint32_t quantization_group_size;
  /** The parallel topology (a full-size eredu_topology borrowed from the
   * request: valid until the next call that changes the request, or until
   * eredu_load_request_free), or NULL without parallel execution. */
  const eredu_topology *topology;
  /** Required session capabilities, bits within
   * EREDU_SESSION_CAPABILITIES_MASK. */
  uint32_t required_session_capabilities;
  /** 1 when the request quantizes on load, else 0 (and the quantization_*
   * fields are 0). */
  uint8_t has_quantization;
  /** AFFINE: bits per value; 0 otherwise. */
  uint8_t quantization_bits;
};

#define EREDU_PREPARATION_POLICY_INIT \
  { (uint32_t)sizeof(eredu_preparation_policy), 0, 0, 0, NULL, 0, 0, 0 }

/**
 * The plain fields of a load request, read in one call (the accessors of
 * NormalizedLoadRequest). An output struct (docs/abi.md): set
 * struct_size (EREDU_LOAD_REQUEST_INFO_INIT or eredu_load_request_info_init)
 * and eredu_load_request_get_info fills the fields it covers. The optional
 * parts have their own calls: eredu_load_request_quantization,
 * eredu_load_request_parallel_execution,
 * eredu_load_request_communication_completion_policy and
 * eredu_load_request_weight_residency.
 */
struct eredu_load_request_info {
  /** The caller's sizeof(eredu_load_request_info). */
  uint32_t struct_size;
  /** The mutable-state residency: an EREDU_CACHE_RESIDENCY_* value. */
  eredu_cache_residency state_residency;
  /** The capabilities required from the realized session: bits within
   * EREDU_SESSION_CAPABILITIES_MASK, 0 unless set. */
  uint32_t required_session_capabilities;
  /** The drafting intent: an EREDU_DRAFTING_* value. */
  eredu_drafting_kind drafting;
  /** The realtime completion policy's EREDU_CANCELLATION_* value (see
   * realtime_completion_timeout_millis). */
  eredu_cancellation_mode realtime_completion_cancellation;
  /** 1 when persisted prompt-prefix import/export is required. */
  uint8_t prompt_cache_persistence;
  /** 1 when the request quantizes on load (eredu_load_request_quantization
   * reads it). */
  uint8_t has_quantization;
  /** 1 when parallel execution is attached
   * (eredu_load_request_parallel_execution reads it). */
  uint8_t has_parallel_execution;
  /** The reader-cache bound: the explicit override, else the weight
   * residency's (4 when fully resident; may be 0, which validation
   * rejects). */
  uint64_t max_cached_shards;
  /** The completion policy of realtime work, in milliseconds: the parallel
   * request's, else the local one, else 30000 (with
   * QUARANTINE_UNTIL_COMPLETE). */
  uint64_t realtime_completion_timeout_millis;
  /** EREDU_DRAFTING_EMBEDDED: the proposal capacity (at least 1); 0 for the
   * other kinds. */
  uint64_t max_draft_tokens;
};

#define EREDU_LOAD_REQUEST_INFO_INIT \
  { (uint32_t)sizeof(eredu_load_request_info), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 }

EREDU_BEGIN_DECLS

/**
 * Initializes the first `size` bytes of `desc` (pass sizeof *desc): zeroes,
 * the defaults of EREDU_PARALLEL_LOAD_DESC_INIT for the fields they hold,
 * struct_size = size.
 *
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (desc);
 *         EREDU_E_INVALID_ARGUMENT (size below 4 or above 4096, or ending
 *         inside a field).
 * Thread-safe.
 */
EREDU_API eredu_status eredu_parallel_load_desc_init(eredu_parallel_load_desc *desc, size_t size,
                                                     eredu_error **error);

/** As eredu_parallel_load_desc_init, for eredu_quantization_request
 * (EREDU_QUANTIZATION_REQUEST_INIT). */
EREDU_API eredu_status eredu_quantization_request_init(eredu_quantization_request *request,
                                                       size_t size, eredu_error **error);

/** As eredu_parallel_load_desc_init, for eredu_drafting_plan (DISABLED, 0
 * tokens). */
EREDU_API eredu_status eredu_drafting_plan_init(eredu_drafting_plan *plan, size_t size,
                                                eredu_error **error);

/** As eredu_parallel_load_desc_init, for eredu_preparation_policy (zeroes). */
EREDU_API eredu_status eredu_preparation_policy_init(eredu_preparation_policy *policy, size_t size,
                                                     eredu_error **error);

/** As eredu_parallel_load_desc_init, for eredu_load_request_info (zeroes). */
EREDU_API eredu_status eredu_load_request_info_init(eredu_load_request_info *info, size_t size,
                                                    eredu_error **error);

/**
 * Checks a communication completion policy (CommunicationCompletionPolicy,
 * with a whole-millisecond duration):
 * valid if and only if timeout_millis is at least 1, without any clock
 * check.
 *
 * @param timeout_millis the deadline in milliseconds.
 * @param cancellation   an EREDU_CANCELLATION_* value.
 * @param error          optional error slot.
 * @return EREDU_OK; EREDU_E_INVALID_ARGUMENT (unknown cancellation, checked
 *         first); EREDU_E_INVALID_COMPLETION_POLICY (timeout_millis is 0:
 *         "communication completion policy must have a positive millisecond
 *         deadline").
 * Thread-safe.
 */
EREDU_API eredu_status eredu_completion_policy_validate(uint64_t timeout_millis,
                                                        eredu_cancellation_mode cancellation,
                                                        eredu_error **error);

/**
 * Creates a request: the default request when `quantization` is NULL, else
 * the default request with that quantization.
 * The default has no cache override, no parallel execution, no completion
 * policy, fully resident weights, Device state, no required session
 * capabilities, no prompt-cache persistence and ARCHITECTURE_DEFAULT
 * drafting. The quantization is copied unchecked (fields past its
 * struct_size take the defaults of EREDU_QUANTIZATION_REQUEST_INIT) and
 * lowered on validation.
 *
 * @param quantization optional quantization request (NULL for none); read
 *                     only during the call.
 * @param out          receives the new request (owned; free it with
 *                     eredu_load_request_free), NULL on failure.
 * @param error        optional error slot.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (out);
 *         EREDU_E_INVALID_ARGUMENT (quantization->struct_size,
 *         docs/abi.md); EREDU_E_OUT_OF_MEMORY.
 * Thread-safe.
 */
EREDU_API eredu_status eredu_load_request_new(const eredu_quantization_request *quantization,
                                              eredu_load_request **out, eredu_error **error);

/**
 * Releases a request. NULL is a no-op. Needs exclusive access.
 */
EREDU_API void eredu_load_request_free(eredu_load_request *request);

/**
 * Attaches one complete parallel-execution request (it builds the
 * ParallelLoadRequest, then sets it on the request), replacing any earlier
 * one.
 *
 * Order of checks: argument checks (request, parallel and its struct_size,
 * activation dtype, cancellation, then parallel->topology: NULL and
 * struct_size); the topology (ParallelTopology::new: zero axis, then
 * world-size overflow; then the rank); the completion deadline; a
 * replicated topology (world size 1); the invocation limits; then a local
 * completion policy set earlier.
 *
 * @param request  the request, changed only on success.
 * @param parallel the parallel request and its topology; read only during
 *                 the call (the topology is copied). Fields past a
 *                 struct_size take their defaults (a topology axis 1).
 * @param error    optional error slot.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (request, parallel,
 *   parallel->topology);
 *   EREDU_E_INVALID_ARGUMENT (the struct_size of parallel or its topology
 *   (docs/abi.md), unknown activation dtype or cancellation);
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
 * Not thread-safe (changes the request).
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
 * Not thread-safe.
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
 *   EREDU_E_INVALID_ARGUMENT (plan->struct_size, docs/abi.md);
 *   EREDU_E_UNSUPPORTED_DRAFTING_PLAN (an unknown plan->kind:
 *   "unsupported speculative drafting plan");
 *   EREDU_E_ZERO_EMBEDDED_DRAFT_CAPACITY (EMBEDDED with 0 tokens:
 *   "embedded draft capacity must be positive").
 * Not thread-safe.
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
 * Not thread-safe.
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
 * Not thread-safe.
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
 * Not thread-safe.
 */
EREDU_API eredu_status eredu_load_request_set_weight_residency(
    eredu_load_request *request, const eredu_weight_residency_desc *desc, eredu_error **error);

/**
 * Requires capabilities from the realized session.
 *
 * @param capabilities bits within EREDU_SESSION_CAPABILITIES_MASK.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (request);
 *         EREDU_E_INVALID_ARGUMENT (a bit outside the mask).
 * Not thread-safe.
 */
EREDU_API eredu_status eredu_load_request_set_required_session_capabilities(
    eredu_load_request *request, uint32_t capabilities, eredu_error **error);

/**
 * Selects the mutable-state residency.
 *
 * @param residency an EREDU_CACHE_RESIDENCY_* value.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (request);
 *         EREDU_E_INVALID_ARGUMENT (unknown value).
 * Not thread-safe.
 */
EREDU_API eredu_status eredu_load_request_set_state_residency(eredu_load_request *request,
                                                              eredu_cache_residency residency,
                                                              eredu_error **error);

/**
 * Requires (1) or not (0) persisted prompt-prefix import/export.
 *
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (request);
 *         EREDU_E_INVALID_ARGUMENT (required is not 0 or 1).
 * Not thread-safe.
 */
EREDU_API eredu_status eredu_load_request_set_prompt_cache_persistence(eredu_load_request *request,
                                                                       uint8_t required,
                                                                       eredu_error **error);

/**
 * The request's plain fields (eredu_load_request_info), written into the
 * caller's struct up to its struct_size.
 *
 * @param out an output struct with struct_size set; its covered fields are
 *            zeroed on failure.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (request, out);
 *         EREDU_E_INVALID_ARGUMENT (out->struct_size);
 *         EREDU_E_COMPLETION (the realtime default could not be built;
 *         unreachable).
 * Thread-safe with other read-only calls.
 */
EREDU_API eredu_status eredu_load_request_get_info(const eredu_load_request *request,
                                                   eredu_load_request_info *out,
                                                   eredu_error **error);

/**
 * The requested load-time quantization, as given: it is checked only when
 * validation lowers it, so an unknown kind is returned unchanged.
 *
 * @param out     an eredu_quantization_request with struct_size set; when
 *                present it receives the kind and, for AFFINE, group_size
 *                and bits (0 for the other kinds); its covered fields are
 *                zeroed otherwise and on failure.
 * @param present receives true when the request quantizes on load (false
 *                on failure).
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (request, out, present);
 *         EREDU_E_INVALID_ARGUMENT (out->struct_size).
 * Thread-safe with other read-only calls.
 */
EREDU_API eredu_status eredu_load_request_quantization(const eredu_load_request *request,
                                                       eredu_quantization_request *out,
                                                       bool *present, eredu_error **error);

/**
 * The attached parallel request.
 *
 * @param out     an eredu_parallel_load_desc with struct_size set; filled up
 *                to it when present: its `topology` points to a full-size
 *                eredu_topology borrowed from the request (valid until the
 *                next call that changes the request, or until
 *                eredu_load_request_free). Its covered fields are zeroed
 *                otherwise and on failure.
 * @param present receives true when parallel execution is attached (false
 *                on failure).
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (request, out, present);
 *         EREDU_E_INVALID_ARGUMENT (out->struct_size).
 * Thread-safe with other read-only calls.
 */
EREDU_API eredu_status eredu_load_request_parallel_execution(const eredu_load_request *request,
                                                             eredu_parallel_load_desc *out,
                                                             bool *present, eredu_error **error);

/**
 * The communication completion policy of model preparation: the parallel
 * request's, or none (present false) without parallel execution.
 *
 * @param timeout_millis receives the deadline in milliseconds (0 when none
 *                       or on failure).
 * @param cancellation   receives an EREDU_CANCELLATION_* value (0 when none
 *                       or on failure).
 * @param present        receives whether there is a policy.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (request or an out-parameter);
 *   EREDU_E_ORPHANED_MODEL_COMPLETION (a local policy without parallel
 *   execution: "a communication completion policy requires a parallel
 *   topology");
 *   EREDU_E_CONFLICTING_COMPLETION_POLICY (both; unreachable through this
 *   API).
 * Thread-safe with other read-only calls.
 */
EREDU_API eredu_status eredu_load_request_communication_completion_policy(
    const eredu_load_request *request, uint64_t *timeout_millis,
    eredu_cancellation_mode *cancellation, bool *present, eredu_error **error);

/**
 * The immutable-weight residency, summarized for `unit_count` ordinary
 * execution units exactly as eredu_residency_validate summarizes a
 * description: the derived values and every option (the fully resident
 * default when none was set).
 *
 * @param unit_count ordinary execution units, for out->device_depth.
 * @param out        an output struct with struct_size set; filled up to it
 *                   on success, its covered fields zeroed on failure.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (request, out);
 *         EREDU_E_INVALID_ARGUMENT (out->struct_size).
 * Thread-safe with other read-only calls.
 */
EREDU_API eredu_status eredu_load_request_weight_residency(const eredu_load_request *request,
                                                           uint64_t unit_count,
                                                           eredu_residency_summary *out,
                                                           eredu_error **error);

/**
 * Validates the complete model-preparation request and returns its
 * portable preparation policy: the quantization as requested, the
 * residency (ADDRESSABLE_PARAMETER_BANKS with an independent bank cache,
 * else the ordinary layers'), the parallel topology when attached and the
 * required session capabilities.
 *
 * Order of checks (docs/residency.md, "Load requests"): arguments; a
 * reader-cache bound of 0; the quantization lowering; the completion
 * policies.
 *
 * @param out an output struct with struct_size set; filled up to it on
 *            success (its `topology` borrowed from the request, as
 *            eredu_preparation_policy says), its covered fields zeroed on
 *            failure.
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
 * Thread-safe with other read-only calls.
 */
EREDU_API eredu_status eredu_load_request_validate_model_preparation(
    const eredu_load_request *request, eredu_preparation_policy *out, eredu_error **error);

EREDU_END_DECLS

#endif /* EREDU_REQUEST_H */
