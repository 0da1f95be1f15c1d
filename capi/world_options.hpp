// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// How the calls that plan every rank run plan_world for a caller's plan
// options.
#pragma once

#include "plan_arguments.hpp"
#include "world/world.hpp"

namespace eredu::capi {

/// How plan_world works for `plan`: its threads, and its progress callback
/// (a non-zero return cancels).
inline WorldOptions world_options(const PlanArguments& plan) {
  WorldOptions options;
  options.threads = plan.threads;
  if (plan.progress != nullptr) {
    options.progress = [callback = plan.progress, data = plan.progress_data](std::uint64_t planned,
                                                                             std::uint64_t ranks) {
      return callback(planned, ranks, data) == 0;
    };
  }
  return options;
}

}  // namespace eredu::capi
