// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

/*
 * eredu/eredu.h: the eredu C API, umbrella header.
 *
 * liberedu is the parameter-placement planner of an LLM runtime: for one rank
 * of a tensor x pipeline x expert x data parallel topology it says which
 * slice of every checkpoint tensor the rank materializes, before a single
 * weight byte is read.
 *
 *   eredu_group_new            -> eredu_group   (one logical parameter)
 *   eredu_model_new            -> eredu_model   (groups in document order)
 *   eredu_model_from_json      -> eredu_model   (bulk path: eredu.groups.v1)
 *   eredu_plan_rank            -> eredu_layout  (one rank's plan)
 *   eredu_layout_get_tensor_info, eredu_layout_to_json
 *                              -> every field of eredu.layout.v1, or its JSON
 *   eredu_plan_world_json, eredu_check_json
 *                              -> every rank at once (eredu/world.h)
 *   eredu_plan_file_write, eredu_plan_file_open
 *                              -> every rank's layout in one compressed
 *                                 file, one rank read at a time
 *                                 (eredu/plan_file.h)
 *
 * The formats are in docs/interchange.md, the planning rules in
 * docs/planning.md, the status codes in docs/status.md, and how the ABI
 * grows in docs/abi.md. Conventions:
 *
 * - Plain C99; every exported name starts with eredu_, every macro with
 *   EREDU_. Enumerations are fixed-width integer typedefs with #define'd
 *   constants; an unknown value passed in is EREDU_E_INVALID_ARGUMENT.
 * - Errors: every fallible function returns eredu_status and takes a last
 *   `eredu_error **error`, which may be NULL. On success `*error` is set to
 *   NULL; on failure it receives an error object (free it with
 *   eredu_error_free). When even that allocation fails the call returns
 *   EREDU_E_OUT_OF_MEMORY with a static error object. EREDU_E_INTERNAL marks
 *   a library bug. No exception or abort crosses the ABI.
 * - Arguments: a NULL required pointer is EREDU_E_NULL_ARGUMENT; an input
 *   array may be NULL when its count is 0; strings in are NUL-terminated
 *   UTF-8 (invalid UTF-8 is EREDU_E_INVALID_ARGUMENT). Out-parameters come
 *   after the inputs; on failure every out-parameter is set to NULL/0.
 * - Sizes: dimensions, ranks and bytes are uint64_t, counts of things in
 *   memory size_t; all arithmetic on them is overflow-checked. A count of
 *   array elements whose bytes could not be an array (above PTRDIFF_MAX) is
 *   EREDU_E_INVALID_ARGUMENT, one whose copy would need more than 1 TiB is
 *   EREDU_E_OUT_OF_MEMORY; both are checked before allocating or reading.
 * - Optional values are explicit: `uint8_t has_x` beside `x` in structs.
 * - Structs the caller allocates start with `uint32_t struct_size`, the
 *   caller's sizeof: set it with the struct's EREDU_<NAME>_INIT macro or its
 *   eredu_<name>_init(ptr, sizeof *ptr, error). The library reads only the
 *   fields inside it (later fields take their defaults), writes output
 *   structs only up to it, and accepts a larger struct whose unknown bytes
 *   are zero (docs/abi.md).
 * - Plain values that cannot fail are returned directly (counts), 0 for a
 *   NULL handle.
 * - Ownership: _new/_from_* return owned handles freed by the matching _free
 *   (NULL-safe). Getters return borrowed views valid until the owning handle
 *   is freed. Library-allocated buffers are freed with eredu_buffer_free.
 *   Building a model copies its groups; a layout keeps its model alive.
 * - Threads: groups, models and layouts are immutable once built and may be
 *   read from any number of threads at once; handles may move between
 *   threads. Only _free needs exclusive access.
 */
#ifndef EREDU_EREDU_H
#define EREDU_EREDU_H

#include <eredu/checkpoint.h>
#include <eredu/common.h>
#include <eredu/format.h>
#include <eredu/group.h>
#include <eredu/launch.h>
#include <eredu/layout.h>
#include <eredu/model.h>
#include <eredu/plan.h>
#include <eredu/plan_file.h>
#include <eredu/runtime/layerwise_metadata.h>
#include <eredu/runtime/projection.h>
#include <eredu/runtime/request.h>
#include <eredu/runtime/residency.h>
#include <eredu/runtime/residency_policy.h>
#include <eredu/status.h>
#include <eredu/topology.h>
#include <eredu/types.h>
#include <eredu/version.h>
#include <eredu/world.h>

#endif /* EREDU_EREDU_H */
