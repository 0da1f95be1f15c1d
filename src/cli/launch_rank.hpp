// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The rank a command plans: --rank R, or the launcher's (--rank-from-env).
#pragma once

#include <cstdint>
#include <optional>

#include "cli/result.hpp"
#include "eredu/eredu.h"

namespace eredu::cli {

/// With `from_env`, the rank the launcher gave this process
/// (eredu_launch_env_from_environ: torchrun, Open MPI, PMI or Slurm; see
/// docs/launch.md) once its world size is checked against `topology`
/// (eredu_launch_env_check). Otherwise `rank` (0 when absent); if a launcher's
/// world size is then in the environment and differs from the topology's, a
/// warning on standard error says so. Errors (with `from_env`):
/// EREDU_E_NOT_FOUND (no launcher), EREDU_E_INVALID_ARGUMENT (a bad
/// variable), EREDU_E_WORLD_SIZE_MISMATCH, and the topology's own errors.
Result<std::uint64_t> rank_to_plan(std::optional<std::uint64_t> rank, bool from_env,
                                   const eredu_topology& topology);

}  // namespace eredu::cli
