// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The whole-world entry points of eredu/world.h. The input is an
// eredu.groups.v1 document, then optionally a 0x00 byte and an
// eredu.residency.v1 document; a model that loads is planned over a small
// topology chosen from the input's length (eredu_plan_world_json), admitted
// under the residency document (eredu_check_json), and searched by
// eredu_fit_json over worlds of up to 4 ranks.
#include <eredu/eredu.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "fuzz_support.hpp"

using eredu_fuzz::ok;
using eredu_fuzz::require;

namespace {

void check_output(eredu_status status, eredu_error* error, char* text, std::size_t length) {
  if (ok(status, error)) {
    eredu_fuzz::check_buffer(text, length);
  } else {
    require(text == nullptr && length == 0);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  const char* text = reinterpret_cast<const char*>(data);
  const auto* separator = static_cast<const char*>(std::memchr(text, 0, size));
  const std::size_t description_length = separator != nullptr ? separator - text : size;

  eredu_model* model = nullptr;
  eredu_error* error = nullptr;
  if (!ok(eredu_model_from_json(text, description_length, &model, &error), error)) {
    require(model == nullptr);
    return 0;
  }
  eredu_topology topology = EREDU_TOPOLOGY_INIT;
  topology.tensor = 1 + size % 4;
  topology.pipeline = 1 + size / 4 % 2;
  topology.expert = 1 + size / 8 % 2;
  eredu_plan_options plan = EREDU_PLAN_OPTIONS_INIT;
  plan.policy = static_cast<eredu_policy>(size / 16 % 3);
  plan.threads = 1;

  char* out = nullptr;
  std::size_t length = 0;
  check_output(eredu_plan_world_json(model, &topology, &plan, &out, &length, &error), error, out,
               length);

  eredu_check_options check = EREDU_CHECK_OPTIONS_INIT;
  if (separator != nullptr) {
    check.residency_json = separator + 1;
    check.residency_json_length = size - description_length - 1;
  }
  check.has_device_budget = size / 48 % 2;
  check.device_budget_bytes = eredu_model_global_bytes(model) / (1 + size % 7);
  check_output(eredu_check_json(model, &topology, &plan, &check, &out, &length, &error), error, out,
               length);

  eredu_fit_options fit = EREDU_FIT_OPTIONS_INIT;
  fit.max_world = 4;
  check_output(eredu_fit_json(model, &plan, &check, &fit, &out, &length, &error), error, out,
               length);
  eredu_model_free(model);
  return 0;
}
