// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

/*
 * eredu/status.h: status codes and the error object.
 *
 * Every fallible function returns an eredu_status and takes a last parameter
 * `eredu_error **error` that may be NULL. On success it returns EREDU_OK and
 * sets `*error` to NULL; on failure it returns the code and, when `error` is
 * not NULL, stores a heap error object holding the same code and a message.
 * There is no thread-local "last error": the error travels with the call.
 *
 * The numbers are those of docs/status.md ("Rules"): each block of codes is
 * one family of errors, one code per error variant, in declaration order.
 * They never change once released; new codes are appended inside their
 * block.
 */
#ifndef EREDU_STATUS_H
#define EREDU_STATUS_H

#include <eredu/types.h>

/* ---- General ---------------------------------------------------------- */

/** Success. */
#define EREDU_OK 0
/** API misuse: a required pointer was NULL. */
#define EREDU_E_NULL_ARGUMENT 1
/** API misuse: unknown enum value, bad flag, wrong struct_size, bad UTF-8,
 * index out of range. */
#define EREDU_E_INVALID_ARGUMENT 2
/** An allocation failed. */
#define EREDU_E_OUT_OF_MEMORY 3
/** A caller buffer is too small; the needed size is reported. */
#define EREDU_E_BUFFER_TOO_SMALL 4
/** A lookup by name found nothing. */
#define EREDU_E_NOT_FOUND 5
/** Malformed JSON / interchange document. */
#define EREDU_E_PARSE 6
/** A binary artifact failed its checks (magic, checksum, bounds). */
#define EREDU_E_CORRUPT_DATA 7
/** Schema or artifact version not understood. */
#define EREDU_E_UNSUPPORTED_VERSION 8
/** A file could not be read or written. */
#define EREDU_E_IO 9
/** A model folder whose architecture or checkpoint encoding the describer
 * does not support (named in the message). */
#define EREDU_E_UNSUPPORTED_MODEL 10
/** A described model disagrees with its checkpoint (names or byte totals). */
#define EREDU_E_CHECKPOINT_MISMATCH 11
/** A long call was cancelled by its progress callback (eredu_progress_fn);
 * nothing was written. */
#define EREDU_E_CANCELLED 12
/** A plan file (eredu/plan_file.h) was written for another description,
 * topology, policy or library version than the caller's. */
#define EREDU_E_PLAN_FILE_MISMATCH 13
/** A bug: an exception reached the C boundary. */
#define EREDU_E_INTERNAL 99

/* ---- ParallelPlanError ------------------------------------------------ */

/** ParallelPlanError::InvalidGroup. */
#define EREDU_E_INVALID_GROUP 100
/** ParallelPlanError::InvalidTensor. */
#define EREDU_E_INVALID_TENSOR 101

/* ---- TopologyError ---------------------------------------------------- */

/** TopologyError::ZeroAxis. */
#define EREDU_E_ZERO_AXIS 200
/** TopologyError::WorldSizeOverflow. */
#define EREDU_E_WORLD_SIZE_OVERFLOW 201
/** TopologyError::RankOutOfRange. */
#define EREDU_E_RANK_OUT_OF_RANGE 202
/** TopologyError::CoordinateOutOfRange. */
#define EREDU_E_COORDINATE_OUT_OF_RANGE 203
/** TopologyError::SubgroupIdentity. */
#define EREDU_E_SUBGROUP_IDENTITY 204
/** TopologyError::MissingLayerCount. */
#define EREDU_E_MISSING_LAYER_COUNT 205
/** TopologyError::MissingExpertCount. */
#define EREDU_E_MISSING_EXPERT_COUNT 206
/** TopologyError::ZeroPartitions. */
#define EREDU_E_ZERO_PARTITIONS 207
/** TopologyError::PartitionOutOfRange. */
#define EREDU_E_PARTITION_OUT_OF_RANGE 208
/** TopologyError::EmptyPartition. */
#define EREDU_E_EMPTY_PARTITION 209
/** TopologyError::PartitionOverflow. */
#define EREDU_E_PARTITION_OVERFLOW 210
/** A launcher's world size (eredu/launch.h) differs from the topology's;
 * not a Rust variant: the message names both sizes. */
#define EREDU_E_WORLD_SIZE_MISMATCH 211

/* ---- OffloadError ----------------------------------------------------- */

/** OffloadError::UnsupportedSchemaVersion. */
#define EREDU_E_UNSUPPORTED_SCHEMA_VERSION 300
/** OffloadError::EmptyUnitId. */
#define EREDU_E_EMPTY_UNIT_ID 301
/** OffloadError::ZeroSizedUnit. */
#define EREDU_E_ZERO_SIZED_UNIT 302
/** OffloadError::DuplicateUnitId. */
#define EREDU_E_DUPLICATE_UNIT_ID 303
/** OffloadError::ByteTotalOverflow. */
#define EREDU_E_BYTE_TOTAL_OVERFLOW 304
/** OffloadError::BudgetExceeded. */
#define EREDU_E_BUDGET_EXCEEDED 305
/** OffloadError::ContradictoryAssignment. */
#define EREDU_E_CONTRADICTORY_ASSIGNMENT 306
/** OffloadError::ZeroPrefetchDepth. */
#define EREDU_E_ZERO_PREFETCH_DEPTH 307

/* ---- WeightResidencyPolicyError --------------------------------------- */

/** WeightResidencyPolicyError::ZeroHostLookahead. */
#define EREDU_E_ZERO_HOST_LOOKAHEAD 400
/** WeightResidencyPolicyError::ZeroQueueCapacity. */
#define EREDU_E_ZERO_QUEUE_CAPACITY 401
/** WeightResidencyPolicyError::HostDisabledControls. */
#define EREDU_E_HOST_DISABLED_CONTROLS 402
/** WeightResidencyPolicyError::ZeroParameterBankScratchLimit. */
#define EREDU_E_ZERO_PARAMETER_BANK_SCRATCH_LIMIT 403
/** WeightResidencyPolicyError::ZeroParameterBankPrefillTarget. */
#define EREDU_E_ZERO_PARAMETER_BANK_PREFILL_TARGET 404
/** WeightResidencyPolicyError::ParameterBankPrefillTargetExceedsScratch. */
#define EREDU_E_PARAMETER_BANK_PREFILL_TARGET_EXCEEDS_SCRATCH 405

/* ---- DenseTransferScheduleError --------------------------------------- */

/** DenseTransferScheduleError::ZeroCapacity. */
#define EREDU_E_ZERO_CAPACITY 500
/** DenseTransferScheduleError::UnorderedPending. */
#define EREDU_E_UNORDERED_PENDING 501
/** DenseTransferScheduleError::CapacityExceeded. */
#define EREDU_E_CAPACITY_EXCEEDED 502
/** DenseTransferScheduleError::NoPendingUnit. */
#define EREDU_E_NO_PENDING_UNIT 503
/** DenseTransferScheduleError::OutOfOrder. */
#define EREDU_E_OUT_OF_ORDER 504

/* ---- NormalizedLoadRequestError --------------------------------------- */

/** NormalizedLoadRequestError::ZeroCachedShards. */
#define EREDU_E_ZERO_CACHED_SHARDS 600
/** NormalizedLoadRequestError::InvalidInvocationLimits. */
#define EREDU_E_INVALID_INVOCATION_LIMITS 601
/** NormalizedLoadRequestError::ReplicatedParallelTopology. */
#define EREDU_E_REPLICATED_PARALLEL_TOPOLOGY 602
/** NormalizedLoadRequestError::ConflictingCompletionPolicy. */
#define EREDU_E_CONFLICTING_COMPLETION_POLICY 603
/** NormalizedLoadRequestError::OrphanedModelCompletion. */
#define EREDU_E_ORPHANED_MODEL_COMPLETION 604
/** NormalizedLoadRequestError::ZeroEmbeddedDraftCapacity. */
#define EREDU_E_ZERO_EMBEDDED_DRAFT_CAPACITY 605
/** NormalizedLoadRequestError::UnsupportedDraftingPlan. */
#define EREDU_E_UNSUPPORTED_DRAFTING_PLAN 606
/** NormalizedLoadRequestError::Completion. */
#define EREDU_E_COMPLETION 607
/** NormalizedLoadRequestError::Quantization. */
#define EREDU_E_QUANTIZATION 608

/* ---- Checkpoint formats, bindings, completion ------------------------- */

/** Checkpoint-format construction errors (affine group/bits, block-FP8
 * geometry, unsupported GGML type, companion cardinality, empty id). */
#define EREDU_E_INVALID_FORMAT 700
/** WeightBinding name (or logical target) empty. */
#define EREDU_E_INVALID_BINDING_NAME 800
/** WeightBinding checkpoint key empty. */
#define EREDU_E_INVALID_CHECKPOINT_KEY 801
/** WeightBinding of zero bytes. */
#define EREDU_E_ZERO_SIZED_BINDING 802
/** CommunicationCompletionPolicy::new with a zero-millisecond deadline. */
#define EREDU_E_INVALID_COMPLETION_POLICY 900

/**
 * One problem of an error object (eredu_error_get_entry): a planning
 * failure lists every problem it found, in the order of docs/interchange.md
 * ("Planning errors": the groups in document order, then the topology
 * preflight); any other error is one problem, its own code and message. An
 * output struct (docs/abi.md): set struct_size (EREDU_ERROR_ENTRY_INIT or
 * eredu_error_entry_init). Strings are borrowed from the error object and
 * valid until eredu_error_free.
 */
struct eredu_error_entry {
  /** The caller's sizeof(eredu_error_entry). */
  uint32_t struct_size;
  /** The problem's status code. */
  eredu_status code;
  /** The logical group it concerns, NUL-terminated UTF-8, and its length;
   * NULL and 0 when none (a topology problem). */
  const char *group;
  size_t group_length;
  /** The tensor (member target) it concerns; NULL and 0 when the problem is
   * the group's as a whole. */
  const char *tensor;
  size_t tensor_length;
  /** Its message, as eredu_error_message gives a single problem's. */
  const char *message;
  size_t message_length;
};

#define EREDU_ERROR_ENTRY_INIT \
  { (uint32_t)sizeof(eredu_error_entry), 0, NULL, 0, NULL, 0, NULL, 0 }

EREDU_BEGIN_DECLS

/**
 * The stable symbolic name of a status code, e.g. "EREDU_E_INVALID_GROUP"
 * for 100 and "EREDU_OK" for 0, for logs and bindings.
 *
 * @param status any value, known or not.
 * @return a NUL-terminated ASCII string in static storage (never NULL, never
 *         freed); "EREDU_E_UNKNOWN" for a value this library does not know.
 * Thread-safe. Cannot fail.
 */
EREDU_API const char *eredu_status_name(eredu_status status);

/**
 * The status code carried by an error object.
 *
 * @param error an error object, or NULL.
 * @return its code (never EREDU_OK for a real error); EREDU_OK for NULL,
 *         since a NULL error means success.
 * Thread-safe: error objects are immutable. Cannot fail.
 */
EREDU_API eredu_status eredu_error_code(const eredu_error *error);

/**
 * The human-readable message of an error object: UTF-8, NUL-terminated,
 * naming the group, tensor, axis and numbers involved.
 *
 * @param error an error object, or NULL.
 * @return a borrowed string valid until eredu_error_free(error); "" for NULL.
 * Thread-safe: error objects are immutable. Cannot fail.
 */
EREDU_API const char *eredu_error_message(const eredu_error *error);

/**
 * Releases an error object. NULL is a no-op. The static object that may be
 * returned with EREDU_E_OUT_OF_MEMORY is recognised and left alone, so every
 * error received may (and should) be passed here exactly once.
 *
 * Thread-safe for distinct objects. Cannot fail.
 */
EREDU_API void eredu_error_free(eredu_error *error);

/**
 * The number of problems an error object lists: every problem of a
 * planning failure (eredu_plan_rank, eredu_plan_world_json,
 * eredu_check_json, eredu_fit_json report all of them at once), else 1.
 * eredu_error_code and eredu_error_message stay the ones a planner that
 * stopped at the first problem reported.
 *
 * @param error an error object, or NULL.
 * @return the count; 0 for NULL.
 * Thread-safe: error objects are immutable. Cannot fail.
 */
EREDU_API size_t eredu_error_count(const eredu_error *error);

/**
 * Whether the error object is a planning failure's list of problems
 * (eredu_plan_rank, eredu_plan_world_json, eredu_check_json; docs/
 * interchange.md, "Planning errors"), also of a single problem, as the
 * `errors` array of the command's JSON error object is present for every
 * planning failure and absent for other errors (docs/interchange.md,
 * section 7). A topology or rank error, which stops planning, is not one.
 *
 * @param error an error object, or NULL.
 * @return true for a planning failure; false for any other error and NULL.
 * Thread-safe: error objects are immutable. Cannot fail.
 */
EREDU_API bool eredu_error_is_planning_failure(const eredu_error *error);

/**
 * Initializes the first `size` bytes of `entry` (pass sizeof *entry):
 * zeroes and struct_size = size.
 *
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (entry); EREDU_E_INVALID_ARGUMENT
 *         (size below 4 or above 4096, or ending inside a field).
 * Thread-safe.
 */
EREDU_API eredu_status eredu_error_entry_init(eredu_error_entry *entry, size_t size,
                                              eredu_error **error);

/**
 * Problem `index` (< eredu_error_count(error)) of an error object.
 *
 * @param error the error object to read; NULL is EREDU_E_NULL_ARGUMENT.
 * @param out   filled within its struct_size; zeroed on failure.
 * @param out_error optional error slot for this call's own failure.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (error, out);
 *         EREDU_E_INVALID_ARGUMENT (index out of range, a struct_size).
 * Thread-safe: error objects are immutable.
 */
EREDU_API eredu_status eredu_error_get_entry(const eredu_error *error, size_t index,
                                             eredu_error_entry *out, eredu_error **out_error);

EREDU_END_DECLS

#endif /* EREDU_STATUS_H */
