// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

/*
 * eredu/launch.h: a process's rank and world size as its launcher exported
 * them, and the check that they fit a topology (docs/launch.md).
 *
 * Under torchrun, mpirun or srun every process reads its own rank from the
 * environment, and planning that rank must fail when the launcher started
 * another number of processes than the topology has ranks.
 */
#ifndef EREDU_LAUNCH_H
#define EREDU_LAUNCH_H

#include <eredu/types.h>

/* eredu_launcher values: whose variables a launch environment came from.
 * 0 is none (a cleared struct). */

/** torchrun (torch.distributed.run): RANK, WORLD_SIZE, LOCAL_RANK. */
#define EREDU_LAUNCHER_TORCHRUN 1
/** Open MPI's mpirun: OMPI_COMM_WORLD_RANK, OMPI_COMM_WORLD_SIZE,
 * OMPI_COMM_WORLD_LOCAL_RANK. */
#define EREDU_LAUNCHER_OPEN_MPI 2
/** A PMI launcher (MPICH's mpiexec, srun --mpi=pmi2): PMI_RANK, PMI_SIZE;
 * no local rank. */
#define EREDU_LAUNCHER_PMI 3
/** Slurm's srun: SLURM_PROCID, SLURM_NTASKS, SLURM_LOCALID. */
#define EREDU_LAUNCHER_SLURM 4

/**
 * What a launcher told this process. An output struct of the readers and
 * the input of eredu_launch_env_check (docs/abi.md): initialize with
 * EREDU_LAUNCH_ENV_INIT or eredu_launch_env_init (all fields 0).
 */
struct eredu_launch_env {
  /** The caller's sizeof(eredu_launch_env). */
  uint32_t struct_size;
  /** The EREDU_LAUNCHER_* whose variables were read. */
  eredu_launcher source;
  /** This process's global rank, below world_size. */
  uint64_t rank;
  /** The number of processes the launcher started, at least 1. */
  uint64_t world_size;
  /** 1 when the launcher set its local-rank variable, else 0. */
  uint8_t has_local_rank;
  /** This process's rank on its node (when has_local_rank), below
   * world_size. */
  uint64_t local_rank;
};

#define EREDU_LAUNCH_ENV_INIT \
  { (uint32_t)sizeof(eredu_launch_env), 0, 0, 0, 0, 0 }

EREDU_BEGIN_DECLS

/**
 * Initializes the first `size` bytes of `env` (pass sizeof *env): zeroes
 * and struct_size = size.
 *
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (env); EREDU_E_INVALID_ARGUMENT
 *         (size below 4 or above 4096, or ending inside a field).
 * Thread-safe.
 */
EREDU_API eredu_status eredu_launch_env_init(eredu_launch_env *env, size_t size,
                                             eredu_error **error);

/**
 * Reads the launch environment from `variables`, a NULL-terminated array of
 * NUL-terminated "NAME=VALUE" strings laid out as `environ` (an entry
 * without '=' names nothing; the first entry of a name counts, as getenv
 * finds it). The launchers are tried in the order torchrun, Open MPI, PMI,
 * Slurm; the first that sets its rank or its world-size variable is the
 * source, whatever the others set (docs/launch.md says why). Values are
 * plain decimal numbers: ASCII digits only, no sign or blanks, at most
 * 2^64 - 1. `out` (caller-owned; set out->struct_size) receives the source,
 * rank, world size and, when the source sets it, the local rank; on failure
 * its fields are zeroed.
 *
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (variables, out);
 *         EREDU_E_INVALID_ARGUMENT (out->struct_size; the source sets its
 *         rank without its world size or the reverse; a value that is not a
 *         plain decimal number or does not fit 64 bits; a world size of 0;
 *         a rank or local rank not below the world size; the message names
 *         the variable, its value and the launcher, e.g. `RANK="x" (torchrun)
 *         is not a plain decimal number`); EREDU_E_NOT_FOUND (no launcher
 *         sets either variable; the message lists every variable looked
 *         for); EREDU_E_OUT_OF_MEMORY.
 * Thread-safe: reads only `variables`.
 */
EREDU_API eredu_status eredu_launch_env_from_list(const char *const *variables,
                                                  eredu_launch_env *out, eredu_error **error);

/**
 * eredu_launch_env_from_list over this process's environment (`environ`).
 *
 * @return as eredu_launch_env_from_list, without EREDU_E_NULL_ARGUMENT for
 *         the variables.
 * Not thread-safe against a concurrent setenv, putenv or unsetenv in the
 * process (no reader of `environ` is); safe with other readers.
 */
EREDU_API eredu_status eredu_launch_env_from_environ(eredu_launch_env *out, eredu_error **error);

/**
 * Checks that `env` can be planned under `topology`: its values are
 * consistent (as a reader returns them) and its world size is the
 * topology's (tensor x pipeline x expert x data). Run it before
 * eredu_plan_rank(model, topology, env->rank, ...).
 *
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (env, topology);
 *         EREDU_E_INVALID_ARGUMENT (a struct_size; env->source not an
 *         EREDU_LAUNCHER_* value; has_local_rank not 0 or 1; a world size
 *         of 0; a rank or local rank not below the world size);
 *         EREDU_E_ZERO_AXIS, EREDU_E_WORLD_SIZE_OVERFLOW (the topology);
 *         EREDU_E_WORLD_SIZE_MISMATCH (the world sizes differ; the message
 *         names both, the variable and the topology: "WORLD_SIZE=8 from
 *         torchrun but the topology tensor 4 × pipeline 1 × expert 1 × data
 *         1 has 4 ranks"); EREDU_E_OUT_OF_MEMORY.
 * Thread-safe.
 */
EREDU_API eredu_status eredu_launch_env_check(const eredu_launch_env *env,
                                              const eredu_topology *topology, eredu_error **error);

EREDU_END_DECLS

#endif /* EREDU_LAUNCH_H */
