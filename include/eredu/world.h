// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

/*
 * eredu/world.h: bulk entry points over every rank of a topology — the
 * whole-world plan with its coverage proof (eredu.world.v1) and admission
 * under a residency policy (eredu.check.v1), both in docs/interchange.md.
 * One call each, so a foreign runtime plans 128 ranks without 128 round
 * trips.
 */
#ifndef EREDU_WORLD_H
#define EREDU_WORLD_H

#include <eredu/types.h>

/**
 * The residency policy of eredu_check_json. A sized struct (docs/abi.md):
 * initialize with EREDU_CHECK_OPTIONS_INIT or eredu_check_options_init; a
 * NULL options pointer means the defaults.
 */
struct eredu_check_options {
  /** The caller's sizeof(eredu_check_options). */
  uint32_t struct_size;
  /** 1 when `device_budget_bytes` is set (default 0: unbounded). Only for a
   * fully resident policy (its admission device budget); the other kinds
   * carry their budgets in their own options. */
  uint8_t has_device_budget;
  /** An eredu.residency.v1 policy document (UTF-8, `residency_json_length`
   * bytes, need not be NUL-terminated; docs/residency.md), borrowed for the
   * call; NULL (the default) admits every rank fully resident. */
  const char *residency_json;
  /** Length of `residency_json` in bytes, at most 4294967295 (4 GiB - 1);
   * checked before the document is read. */
  size_t residency_json_length;
  /** Fully resident admission device budget in bytes. */
  uint64_t device_budget_bytes;
};

/** The defaults: fully resident, no device budget. */
#define EREDU_CHECK_OPTIONS_INIT \
  { (uint32_t)sizeof(eredu_check_options), 0, NULL, 0, 0 }

/**
 * What eredu_fit_json searches. A sized struct (docs/abi.md): initialize
 * with EREDU_FIT_OPTIONS_INIT or eredu_fit_options_init; a NULL options
 * pointer means the defaults.
 */
struct eredu_fit_options {
  /** The caller's sizeof(eredu_fit_options). */
  uint32_t struct_size;
  /** The largest world T * P * E searched, from 1 to 1024; default 64. */
  uint64_t max_world;
};

/** The defaults: worlds up to 64 ranks. */
#define EREDU_FIT_OPTIONS_INIT \
  { (uint32_t)sizeof(eredu_fit_options), 64 }

EREDU_BEGIN_DECLS

/**
 * Initializes the first `size` bytes of `options` (pass sizeof *options):
 * zeroes, the defaults of EREDU_CHECK_OPTIONS_INIT, struct_size = size.
 *
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (options);
 *         EREDU_E_INVALID_ARGUMENT (size below 4 or above 4096, or ending
 *         inside a field).
 * Thread-safe.
 */
EREDU_API eredu_status eredu_check_options_init(eredu_check_options *options, size_t size,
                                                eredu_error **error);

/**
 * Plans every rank of `topology` for `model` and proves coverage
 * (ownership, tiling and the companion rule), as `eredu plan --all-ranks
 * --format json`: canonical eredu.world.v1 text (compact, keys in the
 * documented order, one trailing newline), byte-identical across bindings.
 * Coverage problems are not an error: they are listed in the text, whose
 * `coverage.ok` is false.
 *
 * Ranks are planned one tensor-parallel group at a time on up to
 * options->threads threads (0: one per hardware thread; 1: the calling
 * thread only); the text does not depend on it. options->progress is called
 * after each planned rank; a non-zero return cancels the call.
 *
 * @param model    the description; borrowed for the call.
 * @param topology the axis sizes; read for the call.
 * @param options  policy, threads and progress; NULL for the defaults.
 * @param out     receives a NUL-terminated UTF-8 buffer owned by the caller,
 *                released with eredu_buffer_free; NULL on failure.
 * @param length  optional (may be NULL): the text length in bytes without
 *                the terminator.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (model, topology, out);
 *         EREDU_E_INVALID_ARGUMENT (a struct_size, unknown policy; a world
 *         of more than 2^20 ranks); the errors of eredu_plan_rank for the
 *         lowest failing rank (EREDU_E_ZERO_AXIS, EREDU_E_WORLD_SIZE_OVERFLOW,
 *         EREDU_E_MISSING_LAYER_COUNT, EREDU_E_MISSING_EXPERT_COUNT,
 *         EREDU_E_EMPTY_PARTITION, EREDU_E_INVALID_TENSOR);
 *         EREDU_E_CANCELLED (the progress callback returned non-zero);
 *         EREDU_E_OUT_OF_MEMORY.
 * Thread-safe (the model is read-only). docs/interchange.md,
 * eredu.world.v1.
 */
EREDU_API eredu_status eredu_plan_world_json(const eredu_model *model,
                                             const eredu_topology *topology,
                                             const eredu_plan_options *options, char **out,
                                             size_t *length, eredu_error **error);

/**
 * Plans every rank, proves coverage and admits each rank's bytes under a
 * residency policy, as `eredu check --format json` does for a model folder:
 * canonical eredu.check.v1 text (compact, one trailing newline). Static
 * units, layer units, device/host/disk figures and fits follow
 * docs/interchange.md (eredu.check.v1). A rank that does not fit is not an
 * error: its `error` member is EREDU_E_BUDGET_EXCEEDED and the top-level
 * `fits` is false. Each rank is planned once; threads and progress are
 * those of eredu_plan_world_json.
 *
 * A residency document with a `parameter_bank_cache` is validated whole;
 * its ranks are admitted under the document's ordinary placement (`kind`),
 * as a check has no parameter-bank units. A non-NULL document of length 0
 * is an empty document (EREDU_E_PARSE).
 *
 * @param model    the description; borrowed for the call.
 * @param topology the axis sizes; read for the call.
 * @param plan     policy, threads and progress; NULL for the defaults.
 * @param options  the residency policy; NULL for the defaults (fully
 *                 resident, unbounded).
 * @param out     receives a NUL-terminated UTF-8 buffer owned by the caller,
 *                released with eredu_buffer_free; NULL on failure.
 * @param length  optional (may be NULL): the text length in bytes without
 *                the terminator.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (model, topology, out, a NULL
 *         residency_json with a nonzero length); EREDU_E_INVALID_ARGUMENT
 *         (a struct_size, residency_json_length above 4294967295, unknown
 *         policy, has_device_budget not 0 or 1; after
 *         the document: a device budget with a residency kind other than
 *         fully resident; more than 2^20 ranks); the residency
 *         document's errors (EREDU_E_PARSE,
 *         EREDU_E_UNSUPPORTED_VERSION, EREDU_E_ZERO_PREFETCH_DEPTH,
 *         EREDU_E_HOST_DISABLED_CONTROLS, EREDU_E_ZERO_HOST_LOOKAHEAD,
 *         EREDU_E_ZERO_QUEUE_CAPACITY, EREDU_E_ZERO_PARAMETER_BANK_*,
 *         EREDU_E_PARAMETER_BANK_PREFILL_TARGET_EXCEEDS_SCRATCH), judged
 *         before planning; then eredu_plan_world_json's planning errors and
 *         EREDU_E_CANCELLED; EREDU_E_OUT_OF_MEMORY.
 * Thread-safe (the model is read-only). Per rank, admission builds a
 * WeightResidency, an OffloadPlan and a LayerwiseModelMetadata
 * (docs/interchange.md, eredu.check.v1).
 */
EREDU_API eredu_status eredu_check_json(const eredu_model *model, const eredu_topology *topology,
                                        const eredu_plan_options *plan,
                                        const eredu_check_options *options, char **out,
                                        size_t *length, eredu_error **error);

/**
 * Initializes the first `size` bytes of `options` (pass sizeof *options):
 * zeroes, the defaults of EREDU_FIT_OPTIONS_INIT for the fields they hold,
 * struct_size = size.
 *
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (options);
 *         EREDU_E_INVALID_ARGUMENT (size below 4 or above 4096, or ending
 *         inside a field).
 * Thread-safe.
 */
EREDU_API eredu_status eredu_fit_options_init(eredu_fit_options *options, size_t size,
                                              eredu_error **error);

/**
 * Which sizes work: plans and admits every topology T x P x E x 1 with
 * T * P * E <= options->max_world, as eredu_check_json would, and writes
 * canonical eredu.fit.v1 text (docs/interchange.md): per topology, ordered
 * by world size then T then P, whether it plans (else its first error's
 * status name and message), the largest device peak of its ranks and
 * whether every rank fits; then the smallest world with a topology that
 * fits. A topology that does not plan or fit is not an error of the call.
 *
 * @param model   the description; borrowed for the call.
 * @param plan    policy, threads (per topology, as eredu_plan_world_json)
 *                and progress, called after each topology with (topologies
 *                done, topologies in all); NULL for the defaults. Its
 *                pipeline_layers must be empty: fit varies the pipeline
 *                size.
 * @param check   the residency policy, as eredu_check_json; NULL for fully
 *                resident, unbounded.
 * @param options the largest world; NULL for the defaults.
 * @param out     receives a NUL-terminated UTF-8 buffer owned by the
 *                caller, released with eredu_buffer_free; NULL on failure.
 * @param length  optional (may be NULL): the text length in bytes without
 *                the terminator.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (model, out, a NULL residency_json
 *         with a nonzero length, a NULL pipeline_layers with a nonzero
 *         count); EREDU_E_INVALID_ARGUMENT (a struct_size,
 *         residency_json_length above 4294967295, unknown policy,
 *         has_device_budget not 0 or 1, pipeline layers given, max_world 0
 *         or above 1024; after the document: a device budget with a
 *         residency kind other than fully resident); the residency
 *         document's errors, as eredu_check_json; EREDU_E_CANCELLED;
 *         EREDU_E_OUT_OF_MEMORY.
 * Thread-safe (the model is read-only). Cost: every rank of every
 * topology is planned once; about 0.7 s for the 64-rank search of an
 * 80-layer, 723-tensor model on two cores.
 */
EREDU_API eredu_status eredu_fit_json(const eredu_model *model, const eredu_plan_options *plan,
                                      const eredu_check_options *check,
                                      const eredu_fit_options *options, char **out, size_t *length,
                                      eredu_error **error);

EREDU_END_DECLS

#endif /* EREDU_WORLD_H */
