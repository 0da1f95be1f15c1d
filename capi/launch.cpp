// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// eredu/launch.h: the launch environment readers and their check against a
// topology.
#include <unistd.h>  // environ

#include <cstddef>
#include <span>

#include "firewall.hpp"
#include "plan_arguments.hpp"
#include "topology/launch_env.hpp"

namespace eredu::capi {
namespace {

// The C constants are the core's enum values.
static_assert(EREDU_LAUNCHER_TORCHRUN == static_cast<int>(Launcher::Torchrun));
static_assert(EREDU_LAUNCHER_OPEN_MPI == static_cast<int>(Launcher::OpenMpi));
static_assert(EREDU_LAUNCHER_PMI == static_cast<int>(Launcher::Pmi));
static_assert(EREDU_LAUNCHER_SLURM == static_cast<int>(Launcher::Slurm));

/// Reads a NULL-terminated "NAME=VALUE" list into the caller's `out`.
eredu_status read_into(const char* const* variables, eredu_launch_env* out, eredu_error** error) {
  return firewall(
      error,
      [&]() -> Result<void> {
        EREDU_TRY(require(variables, "variables"));
        EREDU_TRY(sized_out(out, "out"));
        std::size_t count = 0;
        while (variables[count] != nullptr) ++count;
        EREDU_TRY(read, read_launch_environment(std::span(variables, count)));
        eredu_launch_env env{};
        env.source = static_cast<eredu_launcher>(read.source);
        env.rank = read.rank;
        env.world_size = read.world_size;
        env.has_local_rank = read.local_rank ? 1 : 0;
        env.local_rank = read.local_rank.value_or(0);
        write_sized(out, env);
        return outcome::success();
      },
      out);
}

/// A caller's eredu_launch_env as the core's value.
Result<LaunchEnvironment> launch_env_argument(const eredu_launch_env* env) {
  EREDU_TRY(read, read_sized(env, SizedDefaults<eredu_launch_env>::value(), "env"));
  EREDU_TRY(source, enum_argument(launcher_from_value(read.source), read.source,
                                  ArgumentName::field("env", "->source")));
  EREDU_TRY(has_local_rank,
            flag_argument(read.has_local_rank, ArgumentName::field("env", "->has_local_rank")));
  LaunchEnvironment out;
  out.source = source;
  out.rank = read.rank;
  out.world_size = read.world_size;
  if (has_local_rank) out.local_rank = read.local_rank;
  return out;
}

}  // namespace
}  // namespace eredu::capi

// Defined at global scope: GCC gives extern "C" definitions inside a
// namespace that namespace's (hidden) visibility.
using namespace eredu;
using namespace eredu::capi;

extern "C" {

eredu_status eredu_launch_env_init(eredu_launch_env* env, size_t size, eredu_error** error) {
  return init_sized(env, size, "env", error);
}

eredu_status eredu_launch_env_from_list(const char* const* variables, eredu_launch_env* out,
                                        eredu_error** error) {
  return read_into(variables, out, error);
}

eredu_status eredu_launch_env_from_environ(eredu_launch_env* out, eredu_error** error) {
  return read_into(environ, out, error);
}

eredu_status eredu_launch_env_check(const eredu_launch_env* env, const eredu_topology* topology,
                                    eredu_error** error) {
  return firewall(error, [&]() -> Result<void> {
    EREDU_TRY(require(env, "env"));
    EREDU_TRY(require(topology, "topology"));
    EREDU_TRY(launch, launch_env_argument(env));
    EREDU_TRY(sizes, topology_argument(topology, "topology"));
    return check_launch_environment(launch, sizes);
  });
}

}  // extern "C"
