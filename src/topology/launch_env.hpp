// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// A process's rank and world size as its launcher (torchrun, Open MPI's
// mpirun, a PMI launcher, Slurm's srun) exported them (docs/launch.md).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "core/result.hpp"
#include "topology/topology.hpp"

namespace eredu {

/// The launchers whose variables are read, in precedence order: when
/// several set theirs, the first of this order wins (docs/launch.md).
enum class Launcher : std::uint32_t { Torchrun = 1, OpenMpi = 2, Pmi = 3, Slurm = 4 };

/// The launcher of a C value (EREDU_LAUNCHER_*), or nullopt.
std::optional<Launcher> launcher_from_value(std::uint32_t value);

/// "torchrun", "Open MPI", "PMI", "Slurm".
std::string_view launcher_name(Launcher launcher);

/// The variables a launcher sets: rank, world size and, when it has one,
/// the node-local rank (empty otherwise).
struct LauncherVariables {
  std::string_view rank;
  std::string_view world_size;
  std::string_view local_rank;
};
LauncherVariables launcher_variables(Launcher launcher);

/// What one launcher said about this process.
struct LaunchEnvironment {
  Launcher source = Launcher::Torchrun;
  std::uint64_t rank = 0;
  std::uint64_t world_size = 1;
  std::optional<std::uint64_t> local_rank;
};

/// Reads the launch environment from `entries`, "NAME=VALUE" strings as in
/// `environ` (an entry without '=' names nothing; the first entry of a
/// name counts, as getenv finds it). The first launcher of the precedence
/// order that sets its rank or its world size is the source. Errors:
/// NotFound (no launcher sets either, listing every variable looked for);
/// InvalidArgument (the source sets one of the pair without the other, a
/// value that is not a decimal number of 64 bits, a world size of 0, a rank
/// or local rank not below the world size; naming the variable and value).
Result<LaunchEnvironment> read_launch_environment(std::span<const char* const> entries);

/// InvalidArgument when `environment` could not have been read: a world
/// size of 0, a rank or local rank not below it. A caller may fill one by
/// hand, so the check does not trust it.
Result<void> check_launch_values(const LaunchEnvironment& environment);

/// check_launch_values, then WorldSizeMismatch when the launcher's world
/// size is not the topology's, naming both sizes, the variable and the
/// topology's axes.
Result<void> check_launch_environment(const LaunchEnvironment& environment,
                                      const ParallelTopology& topology);

}  // namespace eredu
