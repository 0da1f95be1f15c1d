// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// eredu_fit_json: every topology up to a world size, as the canonical
// eredu.fit.v1 text of `eredu fit --format json`.
#include "admission/fit.hpp"
#include "admission/fit_json.hpp"
#include "admission_arguments.hpp"
#include "firewall.hpp"
#include "handles.hpp"
#include "outputs.hpp"
#include "plan_arguments.hpp"
#include "sized_defaults.hpp"

using namespace eredu;
using namespace eredu::capi;

extern "C" {

eredu_status eredu_fit_options_init(eredu_fit_options* options, size_t size, eredu_error** error) {
  return init_sized(options, size, "options", error);
}

eredu_status eredu_fit_json(const eredu_model* model, const eredu_plan_options* plan_options,
                            const eredu_check_options* check, const eredu_fit_options* options,
                            char** out, size_t* length, eredu_error** error) {
  return firewall(
      error,
      [&]() -> Result<void> {
        EREDU_TRY(require(model, "model"));
        EREDU_TRY(plan, plan_options_argument(plan_options));
        if (!plan.pipeline_layers.empty()) {
          return fail(Status::InvalidArgument,
                      "options->pipeline_layers must be empty: fit searches every pipeline size");
        }
        EREDU_TRY(chosen, check_options_argument(check, "check"));
        eredu_fit_options fit = SizedDefaults<eredu_fit_options>::value();
        if (options != nullptr) {
          EREDU_TRY(read, read_sized(options, fit, "options"));
          fit = read;
        }
        EREDU_TRY(require(out, "out"));
        EREDU_TRY(admission, admission_argument(chosen, "check"));
        FitProgress progress;
        if (plan.progress != nullptr) {
          progress = [callback = plan.progress, data = plan.progress_data](std::uint64_t done,
                                                                           std::uint64_t total) {
            return callback(done, total, data) == 0;
          };
        }
        EREDU_TRY(report, fit_topologies(model->description, plan.policy, admission, fit.max_world,
                                         plan.threads, progress));
        return buffer_out(fit_to_json(report), out, length);
      },
      out, length);
}

}  // extern "C"
