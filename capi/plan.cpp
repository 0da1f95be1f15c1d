// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// eredu_plan_rank, eredu_plan_options_init and eredu_topology_init: how a
// rank is planned.
#include <memory>
#include <utility>

#include "firewall.hpp"
#include "handles.hpp"
#include "plan/planner.hpp"
#include "plan_arguments.hpp"

namespace eredu::capi {

/// Wraps a finished layout, flattening every Indices placement's runs into
/// {start, end} pairs.
std::unique_ptr<eredu_layout> make_layout_handle(LocalModelLayout planned) {
  auto handle = std::make_unique<eredu_layout>();
  handle->run_offsets.reserve(planned.tensors.size());
  for (const LocalTensorLayout& tensor : planned.tensors) {
    handle->run_offsets.push_back(handle->run_values.size());
    for (const IndexRange& run : tensor.placement.runs) {
      handle->run_values.push_back(run.start);
      handle->run_values.push_back(run.end);
    }
  }
  handle->layout = std::move(planned);
  return handle;
}

}  // namespace eredu::capi

// Defined at global scope: GCC gives extern "C" definitions inside a
// namespace that namespace's (hidden) visibility.
using namespace eredu;
using namespace eredu::capi;

extern "C" {

eredu_status eredu_topology_init(eredu_topology* topology, size_t size, eredu_error** error) {
  return init_sized(topology, size, "topology", error);
}

eredu_status eredu_plan_options_init(eredu_plan_options* options, size_t size,
                                     eredu_error** error) {
  return init_sized(options, size, "options", error);
}

eredu_status eredu_plan_rank(const eredu_model* model, const eredu_topology* topology,
                             uint64_t rank, const eredu_plan_options* options, eredu_layout** out,
                             eredu_error** error) {
  return firewall(
      error,
      [&]() -> Result<void> {
        EREDU_TRY(require(model, "model"));
        EREDU_TRY(require(topology, "topology"));
        EREDU_TRY(plan, plan_options_argument(options));
        EREDU_TRY(require(out, "out"));
        EREDU_TRY(sizes, planned_topology(topology, plan));
        EREDU_TRY(planned, plan_rank(model->description, sizes, rank, plan.policy, plan.threads));
        // Published only once complete: a layout or an error, never half.
        *out = make_layout_handle(std::move(planned)).release();
        return outcome::success();
      },
      out);
}

}  // extern "C"
