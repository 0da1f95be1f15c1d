// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// eredu_plan_world_json and eredu_check_json: every rank of a topology in one
// call, as the canonical eredu.world.v1 / eredu.check.v1 text of `eredu plan
// --all-ranks --format json` and `eredu check --format json`.
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "admission/check.hpp"
#include "admission/check_json.hpp"
#include "admission/policy.hpp"
#include "admission_arguments.hpp"
#include "firewall.hpp"
#include "handles.hpp"
#include "outputs.hpp"
#include "plan_arguments.hpp"
#include "world/world.hpp"
#include "world/world_json.hpp"
#include "world_options.hpp"

// Defined at global scope: GCC gives extern "C" definitions inside a
// namespace that namespace's (hidden) visibility.
using namespace eredu;
using namespace eredu::capi;

extern "C" {

eredu_status eredu_check_options_init(eredu_check_options* options, size_t size,
                                      eredu_error** error) {
  return init_sized(options, size, "options", error);
}

eredu_status eredu_plan_world_json(const eredu_model* model, const eredu_topology* topology,
                                   const eredu_plan_options* options, char** out, size_t* length,
                                   eredu_error** error) {
  return firewall(
      error,
      [&]() -> Result<void> {
        EREDU_TRY(require(model, "model"));
        EREDU_TRY(require(topology, "topology"));
        EREDU_TRY(plan, plan_options_argument(options));
        EREDU_TRY(require(out, "out"));
        EREDU_TRY(sizes, planned_topology(topology, plan));
        EREDU_TRY(world, plan_world(model->description, sizes, plan.policy, world_options(plan)));
        return buffer_out(world_to_json(world), out, length);
      },
      out, length);
}

eredu_status eredu_check_json(const eredu_model* model, const eredu_topology* topology,
                              const eredu_plan_options* plan_options,
                              const eredu_check_options* options, char** out, size_t* length,
                              eredu_error** error) {
  return firewall(
      error,
      [&]() -> Result<void> {
        EREDU_TRY(require(model, "model"));
        EREDU_TRY(require(topology, "topology"));
        EREDU_TRY(plan, plan_options_argument(plan_options));
        EREDU_TRY(chosen, check_options_argument(options, "options"));
        EREDU_TRY(require(out, "out"));
        // The residency document is judged before anything is planned.
        EREDU_TRY(admission, admission_argument(chosen, "options"));
        EREDU_TRY(sizes, planned_topology(topology, plan));
        EREDU_TRY(report, check_world(model->description, sizes, plan.policy, admission,
                                      world_options(plan)));
        return buffer_out(check_to_json(report), out, length);
      },
      out, length);
}

}  // extern "C"
