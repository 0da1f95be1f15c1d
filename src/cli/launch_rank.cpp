// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "cli/launch_rank.hpp"

#include <fmt/format.h>

#include <cstdio>

#include "cli/library.hpp"

namespace eredu::cli {

Result<std::uint64_t> rank_to_plan(std::optional<std::uint64_t> rank, bool from_env,
                                   const eredu_topology& topology) {
  eredu_launch_env env = EREDU_LAUNCH_ENV_INIT;
  if (from_env) {
    EREDU_TRY(
        check([&](eredu_error** error) { return eredu_launch_env_from_environ(&env, error); }));
    EREDU_TRY(
        check([&](eredu_error** error) { return eredu_launch_env_check(&env, &topology, error); }));
    return env.rank;
  }
  // Under a launcher, an explicit --rank of a world of another size is
  // almost always a mistake; say so, and plan what was asked.
  if (eredu_launch_env_from_environ(&env, nullptr) == EREDU_OK) {
    eredu_error* error = nullptr;
    if (eredu_launch_env_check(&env, &topology, &error) == EREDU_E_WORLD_SIZE_MISMATCH) {
      std::fputs(fmt::format("warning: {}; planning --rank {} as given (--rank-from-env takes "
                             "the launcher's rank)\n",
                             eredu_error_message(error), rank.value_or(0))
                     .c_str(),
                 stderr);
    }
    eredu_error_free(error);
  }
  return rank.value_or(0);
}

}  // namespace eredu::cli
