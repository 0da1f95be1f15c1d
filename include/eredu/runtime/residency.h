// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

/*
 * eredu/runtime/residency.h: the offload core (memory tiers, unit policies,
 * OffloadConfig, the validated OffloadPlan; docs/residency.md, "Offload
 * plans"), checkpoint weight bindings and StaticUnitBindings
 * (docs/residency.md, "Weight bindings"), the DenseTransferSchedule cursor
 * (docs/residency.md, "Dense transfer schedule"), the ParameterBankKey
 * residency unit id and the ExpertPass -> ParameterBankAccess projection.
 *
 * Units: bytes are bytes; prefetch depths, capacities and unit indices count
 * execution units (or transfers); selection axes, offsets and shapes are in
 * elements.
 *
 * The weight-residency policies themselves (WeightResidency and its options)
 * and eredu_residency_validate are declared in eredu/runtime/residency_policy.h.
 *
 * Thread-safety: offload plans and static unit bindings are immutable once
 * built; any number of threads may read one at once. A dense transfer
 * schedule is a single-threaded cursor: calls on one schedule must not
 * overlap, but it may move between threads. Descriptor structs are sized
 * caller memory (docs/abi.md), only read during a call.
 */
#ifndef EREDU_RESIDENCY_H
#define EREDU_RESIDENCY_H

#include <eredu/types.h>

/** Budgets, prefetch depth, planned bytes and unit count of an offload plan
 * (eredu_offload_plan_get_info). */

/* ---- eredu_memory_tier: MemoryTier (ordered Device < Host < Disk) ------ */

#define EREDU_MEMORY_TIER_DEVICE 0
#define EREDU_MEMORY_TIER_HOST 1
#define EREDU_MEMORY_TIER_DISK 2

/* ---- eredu_residency_policy: ResidencyPolicy -------------------------- */

/** Resident for the whole lifetime; never on EREDU_MEMORY_TIER_DISK. */
#define EREDU_RESIDENCY_POLICY_PINNED 0
/** Resident only within a bounded execution window. */
#define EREDU_RESIDENCY_POLICY_WINDOWED 1
/** Retained or evicted as the cache policy permits. */
#define EREDU_RESIDENCY_POLICY_CACHEABLE 2

/* ---- eredu_eviction_policy: CacheEvictionPolicy ----------------------- */

/** Evict the least recently used copy first (the default). */
#define EREDU_EVICTION_LEAST_RECENTLY_USED 0
/** Evict the least frequently used copy first (ties: recency, unit id). */
#define EREDU_EVICTION_LEAST_FREQUENTLY_USED 1

/* ---- eredu_selection_kind: TensorSelection variants ------------------- */

/** The whole tensor. */
#define EREDU_SELECTION_FULL 0
/** The half-open range [start, end) of `axis`. */
#define EREDU_SELECTION_RANGE 1
/** The listed indices of `axis`, in caller order. */
#define EREDU_SELECTION_INDICES 2
/** One row-major scalar span from `offset_elements`, re-exposed as `shape`. */
#define EREDU_SELECTION_CONTIGUOUS 3

/* ---- eredu_expert_pass: ExpertPass ------------------------------------- */

/** Prompt processing with more than one input token. */
#define EREDU_EXPERT_PASS_PREFILL 0
/** Autoregressive processing of one input token. */
#define EREDU_EXPERT_PASS_DECODE 1

/* ---- eredu_parameter_bank_access: ParameterBankAccess ----------------- */

/** A multi-row access eligible for bounded partitioning. */
#define EREDU_PARAMETER_BANK_ACCESS_BULK 0
/** A latency-sensitive incremental access. */
#define EREDU_PARAMETER_BANK_ACCESS_INCREMENTAL 1

/** Current plus next unit retained by dense streamed execution
 * (DENSE_TRANSFER_WINDOW; docs/residency.md, "Weight-residency policies"). */
#define EREDU_DENSE_TRANSFER_WINDOW 2
/** Default bound of cached checkpoint shards/readers (docs/residency.md,
 * "Weight-residency policies"). */
#define EREDU_DEFAULT_MAX_CACHED_SHARDS 4

/**
 * An OffloadConfig: optional device and host budgets, a prefetch depth and
 * an eviction policy (docs/residency.md, "Offload plans"). A sized struct
 * (docs/abi.md): initialize with EREDU_OFFLOAD_CONFIG_INIT or
 * eredu_offload_config_init, whose defaults are no budgets, prefetch depth
 * 1 and EREDU_EVICTION_LEAST_RECENTLY_USED; a field past the caller's
 * struct_size takes its default.
 */
struct eredu_offload_config {
  /** The caller's sizeof(eredu_offload_config). */
  uint32_t struct_size;
  /** An EREDU_EVICTION_* value. Default LEAST_RECENTLY_USED. */
  eredu_eviction_policy eviction_policy;
  /** Device budget in bytes; 0 forbids any unit on the device tier.
   * Ignored when has_device_budget is 0. */
  uint64_t device_budget_bytes;
  /** Host budget in bytes; ignored when has_host_budget is 0. */
  uint64_t host_budget_bytes;
  /** Units the executor may prefetch ahead; 0 is
   * EREDU_E_ZERO_PREFETCH_DEPTH. Default 1. */
  uint64_t prefetch_depth;
  /** 1 when the device tier has a budget, 0 (default) for unbounded. */
  uint8_t has_device_budget;
  /** 1 when the host tier has a budget, 0 (default) for unbounded. */
  uint8_t has_host_budget;
};

/** No budgets, prefetch depth 1, least-recently-used eviction (the default
 * OffloadConfig). */
#define EREDU_OFFLOAD_CONFIG_INIT \
  { (uint32_t)sizeof(eredu_offload_config), EREDU_EVICTION_LEAST_RECENTLY_USED, 0, 0, 1, 0, 0 }

/**
 * An OffloadUnitSpec: one atomic residency unit. A sized struct
 * (docs/abi.md): initialize with EREDU_OFFLOAD_UNIT_DESC_INIT or
 * eredu_offload_unit_desc_init (id NULL, 0 bytes, PINNED, DEVICE).
 * eredu_offload_plan_unit also fills one as an output.
 */
struct eredu_offload_unit_desc {
  /** The caller's sizeof(eredu_offload_unit_desc). */
  uint32_t struct_size;
  /** Unit identifier: NUL-terminated UTF-8, non-blank (Rust trim), stored
   * untrimmed. */
  const char *id;
  /** Unit size in bytes, at least 1. */
  uint64_t bytes;
  /** An EREDU_RESIDENCY_POLICY_* value. Default PINNED. */
  eredu_residency_policy policy;
  /** An EREDU_MEMORY_TIER_* value. Default DEVICE. */
  eredu_memory_tier tier;
};

/** No id, 0 bytes, EREDU_RESIDENCY_POLICY_PINNED, EREDU_MEMORY_TIER_DEVICE. */
#define EREDU_OFFLOAD_UNIT_DESC_INIT                                                   \
  {                                                                                    \
    (uint32_t)sizeof(eredu_offload_unit_desc), NULL, 0, EREDU_RESIDENCY_POLICY_PINNED, \
        EREDU_MEMORY_TIER_DEVICE                                                       \
  }

/**
 * What an offload plan holds besides its units: its configuration (as
 * eredu_offload_config's fields), the planned bytes of each tier and the
 * unit count. An output struct (docs/abi.md): set struct_size
 * (EREDU_OFFLOAD_PLAN_INFO_INIT or eredu_offload_plan_info_init) and
 * eredu_offload_plan_get_info fills the fields it covers.
 */
struct eredu_offload_plan_info {
  /** The caller's sizeof(eredu_offload_plan_info). */
  uint32_t struct_size;
  /** The configuration's EREDU_EVICTION_* value. */
  eredu_eviction_policy eviction_policy;
  /** 1 when the device tier has a budget (then device_budget_bytes is
   * set), 0 when it is unbounded. */
  uint8_t has_device_budget;
  /** 1 when the host tier has a budget (then host_budget_bytes is set). */
  uint8_t has_host_budget;
  /** The device budget in bytes (0 when unbounded). */
  uint64_t device_budget_bytes;
  /** The host budget in bytes (0 when unbounded). */
  uint64_t host_budget_bytes;
  /** The prefetch depth in units (at least 1). */
  uint64_t prefetch_depth;
  /** The number of units (as eredu_offload_plan_unit_count). */
  size_t unit_count;
  /** Planned bytes of each tier: the sum of its units' bytes. The disk tier
   * has no budget. */
  uint64_t planned_device_bytes;
  uint64_t planned_host_bytes;
  uint64_t planned_disk_bytes;
};

#define EREDU_OFFLOAD_PLAN_INFO_INIT \
  { (uint32_t)sizeof(eredu_offload_plan_info), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 }

/**
 * TensorSelection: which elements of a checkpoint tensor a binding reads
 * (docs/residency.md, "Weight bindings"). Plain data: a checkpoint store
 * validates it against the tensor's shape, eredu does not. A sized struct
 * (docs/abi.md): initialize with EREDU_TENSOR_SELECTION_INIT or
 * eredu_tensor_selection_init (FULL, zeroes); the fields a kind does not
 * use must stay 0/NULL.
 */
struct eredu_tensor_selection {
  /** The caller's sizeof(eredu_tensor_selection). */
  uint32_t struct_size;
  /** An EREDU_SELECTION_* value. Default FULL. */
  eredu_selection_kind kind;
  /** RANGE and INDICES: the selected axis (0-based). */
  uint64_t axis;
  /** RANGE: first selected element of `axis`. */
  uint64_t start;
  /** RANGE: one past the last selected element of `axis`. */
  uint64_t end;
  /** INDICES: `index_count` element indices of `axis`, in caller order;
   * may be NULL when index_count is 0. */
  const uint64_t *indices;
  /** INDICES: number of indices. */
  size_t index_count;
  /** CONTIGUOUS: row-major offset of the span, in elements. */
  uint64_t offset_elements;
  /** CONTIGUOUS: the span's shape, `ndim` values in elements, outermost
   * first; may be NULL when ndim is 0. */
  const uint64_t *shape;
  /** CONTIGUOUS: number of axes of `shape`. */
  size_t ndim;
};

/** EREDU_SELECTION_FULL, every other field 0 / NULL. */
#define EREDU_TENSOR_SELECTION_INIT \
  { (uint32_t)sizeof(eredu_tensor_selection), EREDU_SELECTION_FULL, 0, 0, 0, NULL, 0, 0, NULL, 0 }

/**
 * WeightBinding (direct binding): a named weight read from one checkpoint
 * key. A sized struct (docs/abi.md): initialize with
 * EREDU_WEIGHT_BINDING_DESC_INIT or eredu_weight_binding_desc_init (all
 * NULL / 0). eredu_static_unit_bindings_binding also fills one as an
 * output.
 */
struct eredu_weight_binding_desc {
  /** The caller's sizeof(eredu_weight_binding_desc). */
  uint32_t struct_size;
  /** Binding name: NUL-terminated UTF-8, non-blank. */
  const char *name;
  /** Checkpoint tensor key: NUL-terminated UTF-8, non-blank. */
  const char *checkpoint_key;
  /** The selection (a sized struct), or NULL for EREDU_SELECTION_FULL. */
  const eredu_tensor_selection *selection;
  /** Bytes the binding reads, at least 1. */
  uint64_t expected_bytes;
  /** Optional logical target: NULL for none, else NUL-terminated UTF-8,
   * non-blank. */
  const char *logical_target;
};

/** No name, key, selection (FULL) or logical target; 0 bytes. */
#define EREDU_WEIGHT_BINDING_DESC_INIT \
  { (uint32_t)sizeof(eredu_weight_binding_desc), NULL, NULL, NULL, 0, NULL }

EREDU_BEGIN_DECLS

/* ---- Offload plans ----------------------------------------------------- */

/**
 * Initializes the first `size` bytes of `config` (pass sizeof *config):
 * zeroes, the defaults of EREDU_OFFLOAD_CONFIG_INIT for the fields they
 * hold, struct_size = size.
 *
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (config);
 *         EREDU_E_INVALID_ARGUMENT (size below 4 or above 4096, or ending
 *         inside a field).
 * Thread-safe.
 */
EREDU_API eredu_status eredu_offload_config_init(eredu_offload_config *config, size_t size,
                                                 eredu_error **error);

/** As eredu_offload_config_init, for eredu_offload_unit_desc (id NULL,
 * bytes 0, PINNED, DEVICE). */
EREDU_API eredu_status eredu_offload_unit_desc_init(eredu_offload_unit_desc *desc, size_t size,
                                                    eredu_error **error);

/** As eredu_offload_config_init, for eredu_offload_plan_info (zeroes). */
EREDU_API eredu_status eredu_offload_plan_info_init(eredu_offload_plan_info *info, size_t size,
                                                    eredu_error **error);

/**
 * Builds a validated offload plan (an OffloadPlan) in one atomic call.
 * Everything is copied: descriptors and strings may be released as soon as
 * the call returns.
 *
 * Order of checks (docs/residency.md, "Offload plans"): argument checks in
 * parameter order (NULL pointers, struct_size, flags, enum values, UTF-8);
 * then the config (prefetch depth 0); then each unit in input order (blank
 * id, 0 bytes, PINNED on DISK); then the units are stable-sorted byte-wise
 * by id and checked for the smallest duplicated id, a per-tier byte total
 * that overflows 64 bits (totals summed in sorted order), the device
 * budget, then the host budget. The disk tier has no budget.
 *
 * @param config     the budgets, or NULL for the defaults of
 *                   EREDU_OFFLOAD_CONFIG_INIT.
 * @param units      `unit_count` pointers to descriptors, in any order; may
 *                   be NULL when unit_count is 0 (an empty plan is valid).
 * @param unit_count number of units; more than PTRDIFF_MAX bytes of pointers
 *                   is EREDU_E_INVALID_ARGUMENT.
 * @param out        receives the new plan (owned; free it with
 *                   eredu_offload_plan_free), NULL on failure.
 * @param error      optional error slot.
 * @return EREDU_OK;
 *   EREDU_E_NULL_ARGUMENT (out, NULL units with a nonzero unit_count, a
 *   NULL element, a NULL id);
 *   EREDU_E_INVALID_ARGUMENT (a struct_size (docs/abi.md), a has_* flag
 *   other than 0/1, unknown eviction policy, residency policy or tier,
 *   invalid UTF-8, unit_count too large for any array);
 *   EREDU_E_ZERO_PREFETCH_DEPTH ("offload prefetch depth must be nonzero");
 *   EREDU_E_EMPTY_UNIT_ID ("offload unit identifiers must not be empty");
 *   EREDU_E_ZERO_SIZED_UNIT ("offload unit ID must contain at least one
 *   byte");
 *   EREDU_E_CONTRADICTORY_ASSIGNMENT ("offload unit ID has contradictory
 *   Pinned/Disk assignment: pinned units must be assigned to a resident
 *   memory tier");
 *   EREDU_E_DUPLICATE_UNIT_ID ("duplicate offload unit identifier: ID");
 *   EREDU_E_BYTE_TOTAL_OVERFLOW ("planned byte total overflowed for the
 *   Host tier");
 *   EREDU_E_BUDGET_EXCEEDED ("planned 10 bytes for the Device tier exceed
 *   its 9-byte budget");
 *   EREDU_E_OUT_OF_MEMORY (also, before allocating, a unit_count whose copy
 *   would need more than 1 TiB).
 * Thread-safe.
 */
EREDU_API eredu_status eredu_offload_plan_new(const eredu_offload_config *config,
                                              const eredu_offload_unit_desc *const *units,
                                              size_t unit_count, eredu_offload_plan **out,
                                              eredu_error **error);

/**
 * Releases a plan. NULL is a no-op. Not thread-safe with concurrent readers
 * of the same plan.
 */
EREDU_API void eredu_offload_plan_free(eredu_offload_plan *plan);

/**
 * Re-runs the plan's validation on a copy of its units; a built plan always
 * passes.
 *
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (plan); EREDU_E_OUT_OF_MEMORY
 *         (the copy).
 * Thread-safe.
 */
EREDU_API eredu_status eredu_offload_plan_validate(const eredu_offload_plan *plan,
                                                   eredu_error **error);

/**
 * The plan's configuration (budgets, prefetch depth, eviction), its planned
 * bytes per tier and its unit count, written into the caller's struct up to
 * its struct_size.
 *
 * @param out  an output struct with struct_size set; its covered fields are
 *             zeroed on failure.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (plan, out);
 *         EREDU_E_INVALID_ARGUMENT (out->struct_size).
 * Thread-safe.
 */
EREDU_API eredu_status eredu_offload_plan_get_info(const eredu_offload_plan *plan,
                                                   eredu_offload_plan_info *out,
                                                   eredu_error **error);

/**
 * The number of units. Cannot fail; 0 for a NULL plan. Thread-safe.
 */
EREDU_API size_t eredu_offload_plan_unit_count(const eredu_offload_plan *plan);

/**
 * Unit `index` (0-based) in the plan's order: sorted byte-wise by id.
 *
 * @param unit an eredu_offload_unit_desc with struct_size set, written up to
 *             it; its `id` is a borrowed NUL-terminated string valid until
 *             eredu_offload_plan_free(plan). Its covered fields are zeroed
 *             on failure.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (plan, unit);
 *         EREDU_E_INVALID_ARGUMENT (unit->struct_size, index >= the unit
 *         count).
 * Thread-safe.
 */
EREDU_API eredu_status eredu_offload_plan_unit(const eredu_offload_plan *plan, size_t index,
                                               eredu_offload_unit_desc *unit, eredu_error **error);

/**
 * The index of the unit with this id (binary search, O(log n)).
 *
 * @param id  NUL-terminated UTF-8 unit id, compared byte-wise.
 * @param out receives the index; 0 on failure.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (plan, id, out);
 *         EREDU_E_INVALID_ARGUMENT (id is not valid UTF-8);
 *         EREDU_E_NOT_FOUND (no such unit).
 * Thread-safe.
 */
EREDU_API eredu_status eredu_offload_plan_find_unit(const eredu_offload_plan *plan, const char *id,
                                                    size_t *out, eredu_error **error);

/* ---- Weight bindings --------------------------------------------------- */

/**
 * Initializes the first `size` bytes of `selection` (pass sizeof
 * *selection): zeroes (EREDU_SELECTION_FULL), struct_size = size.
 *
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (selection);
 *         EREDU_E_INVALID_ARGUMENT (size below 4 or above 4096, or ending
 *         inside a field).
 * Thread-safe.
 */
EREDU_API eredu_status eredu_tensor_selection_init(eredu_tensor_selection *selection, size_t size,
                                                   eredu_error **error);

/** As eredu_tensor_selection_init, for eredu_weight_binding_desc (every
 * field NULL / 0). */
EREDU_API eredu_status eredu_weight_binding_desc_init(eredu_weight_binding_desc *desc, size_t size,
                                                      eredu_error **error);

/**
 * Validates one weight binding as WeightBinding::new (then
 * with_logical_target when a logical target is given) would. The selection
 * is checked as C data only (kind, unused fields 0/NULL, arrays present),
 * never against a tensor shape.
 *
 * Argument checks first (NULL pointers, struct_size, kind, unused fields,
 * UTF-8, array counts); then, in this order: a blank name, a blank
 * checkpoint key, 0 expected bytes, a blank logical target.
 *
 * @param desc  the binding; read only during the call.
 * @param error optional error slot.
 * @return EREDU_OK;
 *   EREDU_E_NULL_ARGUMENT (desc, name, checkpoint_key, NULL indices or
 *   shape with a nonzero count);
 *   EREDU_E_INVALID_ARGUMENT (the struct_size of desc or its selection
 *   (docs/abi.md), unknown selection kind, a field the kind does not use
 *   set, invalid UTF-8, a count too large for any array);
 *   EREDU_E_INVALID_BINDING_NAME ("weight binding names must not be empty",
 *   also for a blank logical target);
 *   EREDU_E_INVALID_CHECKPOINT_KEY ("weight binding "NAME" has an empty
 *   checkpoint key");
 *   EREDU_E_ZERO_SIZED_BINDING ("weight binding "NAME" must contain at
 *   least one byte");
 *   EREDU_E_OUT_OF_MEMORY.
 * Thread-safe.
 */
EREDU_API eredu_status eredu_weight_binding_validate(const eredu_weight_binding_desc *desc,
                                                     eredu_error **error);

/**
 * Builds a pinned static unit and its bindings (StaticUnitBindings of one
 * WeightBinding per binding), atomically; everything is copied.
 *
 * Argument checks first (id, the array, then each binding as in
 * eredu_weight_binding_validate, in order); then each binding's rules (as
 * eredu_weight_binding_validate) in input order; then the unit id (blank ->
 * EREDU_E_EMPTY_UNIT_ID): the bindings are built before the unit.
 *
 * @param id            unit id: NUL-terminated UTF-8, non-blank.
 * @param bindings      `binding_count` pointers to descriptors, in order;
 *                      may be NULL when binding_count is 0.
 * @param binding_count number of bindings.
 * @param out           receives the new handle (owned; free it with
 *                      eredu_static_unit_bindings_free), NULL on failure.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT; EREDU_E_INVALID_ARGUMENT;
 *   EREDU_E_INVALID_BINDING_NAME; EREDU_E_INVALID_CHECKPOINT_KEY;
 *   EREDU_E_ZERO_SIZED_BINDING (all as eredu_weight_binding_validate; the
 *   messages name the binding; NULL out is EREDU_E_NULL_ARGUMENT, a
 *   binding_count too large for any array EREDU_E_INVALID_ARGUMENT);
 *   EREDU_E_EMPTY_UNIT_ID ("offload unit identifiers must not be empty");
 *   EREDU_E_OUT_OF_MEMORY.
 * Thread-safe.
 */
EREDU_API eredu_status eredu_static_unit_bindings_new(
    const char *id, const eredu_weight_binding_desc *const *bindings, size_t binding_count,
    eredu_static_unit_bindings **out, eredu_error **error);

/**
 * Releases static unit bindings. NULL is a no-op. Not thread-safe with
 * concurrent readers of the same handle.
 */
EREDU_API void eredu_static_unit_bindings_free(eredu_static_unit_bindings *unit);

/**
 * The unit id, as given (untrimmed).
 *
 * @param out    receives a borrowed NUL-terminated UTF-8 string valid until
 *               eredu_static_unit_bindings_free(unit); NULL on failure.
 * @param length optional (may be NULL): its length in bytes without the
 *               terminator; 0 on failure.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (unit, out).
 * Thread-safe.
 */
EREDU_API eredu_status eredu_static_unit_bindings_id(const eredu_static_unit_bindings *unit,
                                                     const char **out, size_t *length,
                                                     eredu_error **error);

/**
 * The number of bindings. Cannot fail; 0 for a NULL handle. Thread-safe.
 */
EREDU_API size_t eredu_static_unit_bindings_count(const eredu_static_unit_bindings *unit);

/**
 * Binding `index` (0-based, in the given order), written into the caller's
 * descriptor up to its struct_size.
 *
 * @param binding an eredu_weight_binding_desc with struct_size set;
 *                receives borrowed views valid until
 *                eredu_static_unit_bindings_free(unit): name,
 *                checkpoint_key, logical_target (NULL when none) and
 *                `selection`, which points to a full-size
 *                eredu_tensor_selection owned by the handle (never NULL; its
 *                arrays NULL when empty). Its covered fields are zeroed on
 *                failure. The descriptor is itself a valid binding.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (unit, binding);
 *         EREDU_E_INVALID_ARGUMENT (binding->struct_size, index >= count).
 * Thread-safe.
 */
EREDU_API eredu_status eredu_static_unit_bindings_binding(const eredu_static_unit_bindings *unit,
                                                          size_t index,
                                                          eredu_weight_binding_desc *binding,
                                                          eredu_error **error);

/* ---- Dense transfer schedule ------------------------------------------ */

/**
 * A cursor over pending unit indices (DenseTransferSchedule;
 * docs/residency.md, "Dense transfer schedule"): transfers are admitted
 * strictly in pending order into a ready window of at most `capacity`, each
 * with a caller token (e.g. a transfer handle), and popped oldest first.
 *
 * @param pending       `pending_count` unit indices, strictly increasing;
 *                      copied. May be NULL when pending_count is 0.
 * @param pending_count number of pending indices.
 * @param capacity      ready-window capacity in transfers, at least 1.
 * @param out           receives the new schedule (owned; free it with
 *                      eredu_dense_transfer_schedule_free), NULL on failure.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (out, NULL pending with a nonzero
 *   count); EREDU_E_INVALID_ARGUMENT (pending_count too large for any
 *   array); then EREDU_E_ZERO_CAPACITY ("dense transfer window capacity
 *   must be nonzero"); EREDU_E_UNORDERED_PENDING ("dense transfer pending
 *   unit 3 does not follow 5", at the first index not above its
 *   predecessor); EREDU_E_OUT_OF_MEMORY. Memory is O(runs of consecutive
 *   indices).
 * Thread-safe.
 */
EREDU_API eredu_status eredu_dense_transfer_schedule_new(const uint64_t *pending,
                                                         size_t pending_count, size_t capacity,
                                                         eredu_dense_transfer_schedule **out,
                                                         eredu_error **error);

/**
 * A cursor over the unit indices [start, end) (none when start >= end),
 * pending in ascending order, with a ready window of at most `capacity`.
 * Memory is O(1) whatever the range length.
 *
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (out); EREDU_E_ZERO_CAPACITY;
 *         EREDU_E_OUT_OF_MEMORY.
 * Thread-safe.
 */
EREDU_API eredu_status eredu_dense_transfer_schedule_new_range(uint64_t start, uint64_t end,
                                                               size_t capacity,
                                                               eredu_dense_transfer_schedule **out,
                                                               eredu_error **error);

/** Releases a schedule. NULL is a no-op. Needs exclusive access. */
EREDU_API void eredu_dense_transfer_schedule_free(eredu_dense_transfer_schedule *schedule);

/**
 * Commits one submitted transfer. A failure changes nothing.
 *
 * @param index the unit index; must be the next pending one.
 * @param token an opaque caller value returned by pop_ready with `index`.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (schedule); then in order
 *   EREDU_E_CAPACITY_EXCEEDED ("dense transfer window exceeds its capacity
 *   of 2"); EREDU_E_NO_PENDING_UNIT ("dense transfer schedule has no pending
 *   unit"); EREDU_E_OUT_OF_ORDER ("dense transfer schedule expected unit 3,
 *   received 4"); EREDU_E_OUT_OF_MEMORY.
 * Not thread-safe (mutates the schedule).
 */
EREDU_API eredu_status eredu_dense_transfer_schedule_admit(eredu_dense_transfer_schedule *schedule,
                                                           uint64_t index, uint64_t token,
                                                           eredu_error **error);

/**
 * Removes the oldest ready transfer, if any.
 *
 * @param index  receives its unit index (0 when none).
 * @param token  receives its token (0 when none).
 * @param popped receives true when a transfer was removed, false when none
 *               was ready (still EREDU_OK).
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (schedule, index, token, popped).
 * Not thread-safe (mutates the schedule).
 */
EREDU_API eredu_status
eredu_dense_transfer_schedule_pop_ready(eredu_dense_transfer_schedule *schedule, uint64_t *index,
                                        uint64_t *token, bool *popped, eredu_error **error);

/**
 * The ready indices (oldest first) followed by the pending ones, truncated
 * to `lookahead` indices, written into a caller buffer.
 *
 * @param lookahead the most indices wanted.
 * @param buffer    caller memory of `capacity` indices; may be NULL when
 *                  capacity is 0. Left unmodified on failure.
 * @param capacity  size of `buffer` in indices.
 * @param count     receives the number of indices, on success and on
 *                  EREDU_E_BUFFER_TOO_SMALL (the needed capacity); 0 on
 *                  other failures.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (schedule, count, NULL buffer with
 *         a nonzero capacity); EREDU_E_BUFFER_TOO_SMALL (capacity < *count).
 * Not thread-safe with mutating calls.
 */
EREDU_API eredu_status eredu_dense_transfer_schedule_desired_indices(
    const eredu_dense_transfer_schedule *schedule, size_t lookahead, uint64_t *buffer,
    size_t capacity, size_t *count, eredu_error **error);

/**
 * Whether another transfer may be admitted: the ready window has room and
 * a unit is pending. Cannot fail; false for a NULL schedule.
 * Not thread-safe with mutating calls.
 */
EREDU_API bool eredu_dense_transfer_schedule_can_admit(
    const eredu_dense_transfer_schedule *schedule);

/**
 * Whether at least one admitted transfer is ready. Cannot fail; false for a
 * NULL schedule.
 * Not thread-safe with mutating calls.
 */
EREDU_API bool eredu_dense_transfer_schedule_has_ready(
    const eredu_dense_transfer_schedule *schedule);

/**
 * Whether no ready or pending unit remains. Cannot fail; false for a NULL
 * schedule.
 * Not thread-safe with mutating calls.
 */
EREDU_API bool eredu_dense_transfer_schedule_is_exhausted(
    const eredu_dense_transfer_schedule *schedule);

/**
 * The next unit that must be submitted.
 *
 * @param index   receives it (0 when none or on failure).
 * @param present receives false when nothing is pending (or on failure).
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (schedule, index, present).
 * Not thread-safe with mutating calls.
 */
EREDU_API eredu_status
eredu_dense_transfer_schedule_next_pending(const eredu_dense_transfer_schedule *schedule,
                                           uint64_t *index, bool *present, eredu_error **error);

/* ---- Parameter banks --------------------------------------------------- */

/**
 * Writes the residency unit id of a parameter-bank member (ParameterBankKey;
 * docs/residency.md, "Weight-residency policies"):
 * "bank.unit.UUUUU.member.MMMMM", each number zero-padded to 5 digits (wider
 * numbers in full), e.g. (3, 7) -> "bank.unit.00003.member.00007", followed
 * by a NUL terminator. Call with buffer NULL and capacity 0 to learn the
 * size.
 *
 * @param unit     the owning execution-unit ordinal.
 * @param member   the member ordinal in the bank namespace.
 * @param buffer   caller memory of `capacity` bytes; may be NULL when
 *                 capacity is 0. Left unmodified on failure.
 * @param capacity size of `buffer` in bytes.
 * @param required receives the bytes needed including the NUL terminator,
 *                 on success and on EREDU_E_BUFFER_TOO_SMALL (0 otherwise).
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (required, NULL buffer with a
 *         nonzero capacity); EREDU_E_BUFFER_TOO_SMALL (capacity <
 *         *required); EREDU_E_OUT_OF_MEMORY (the id is formatted in
 *         library memory first).
 * Thread-safe.
 */
EREDU_API eredu_status eredu_parameter_bank_key_unit_id(uint64_t unit, uint64_t member,
                                                        char *buffer, size_t capacity,
                                                        size_t *required, eredu_error **error);

/**
 * The storage access class of an execution pass:
 * EREDU_EXPERT_PASS_PREFILL -> EREDU_PARAMETER_BANK_ACCESS_BULK,
 * EREDU_EXPERT_PASS_DECODE -> EREDU_PARAMETER_BANK_ACCESS_INCREMENTAL.
 *
 * @param pass an EREDU_EXPERT_PASS_* value.
 * @param out  receives an EREDU_PARAMETER_BANK_ACCESS_* value; 0 on
 *             failure.
 * @return EREDU_OK; EREDU_E_INVALID_ARGUMENT (unknown pass, checked first);
 *         EREDU_E_NULL_ARGUMENT (out).
 * Thread-safe.
 */
EREDU_API eredu_status eredu_expert_pass_parameter_bank_access(eredu_expert_pass pass,
                                                               eredu_parameter_bank_access *out,
                                                               eredu_error **error);

EREDU_END_DECLS

#endif /* EREDU_RESIDENCY_H */
