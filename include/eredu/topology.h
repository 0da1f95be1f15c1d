// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

/*
 * eredu/topology.h: the tensor x pipeline x expert x data parallel topology
 * that every planning call takes (docs/planning.md, "Topology").
 *
 * Ranks enumerate expert fastest, then tensor, then pipeline, data
 * outermost: rank = ((d * P + p) * T + t) * E + e.
 */
#ifndef EREDU_TOPOLOGY_H
#define EREDU_TOPOLOGY_H

#include <eredu/types.h>

/**
 * The axis sizes of a parallel topology. Every size must be at least 1
 * (EREDU_E_ZERO_AXIS otherwise) and their product must fit 64 bits
 * (EREDU_E_WORLD_SIZE_OVERFLOW). A sized struct (docs/abi.md): initialize
 * with EREDU_TOPOLOGY_INIT or eredu_topology_init, whose defaults are 1.
 */
struct eredu_topology {
  /** The caller's sizeof(eredu_topology). */
  uint32_t struct_size;
  /** Tensor-parallel size T. */
  uint64_t tensor;
  /** Pipeline-parallel size P. */
  uint64_t pipeline;
  /** Expert-parallel size E. */
  uint64_t expert;
  /** Data-parallel size D. */
  uint64_t data;
};

/** A single rank: every size 1. */
#define EREDU_TOPOLOGY_INIT \
  { (uint32_t)sizeof(eredu_topology), 1, 1, 1, 1 }

EREDU_BEGIN_DECLS

/**
 * Initializes the first `size` bytes of `topology` (pass sizeof *topology):
 * zeroes, then the defaults of the fields they hold (every size 1), and
 * struct_size = size.
 *
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (topology);
 *         EREDU_E_INVALID_ARGUMENT (size below 4 or above 4096, or ending
 *         inside a field).
 * Thread-safe.
 */
EREDU_API eredu_status eredu_topology_init(eredu_topology *topology, size_t size,
                                           eredu_error **error);

EREDU_END_DECLS

#endif /* EREDU_TOPOLOGY_H */
