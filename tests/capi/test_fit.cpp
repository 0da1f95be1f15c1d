// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// eredu_fit_json: which sizes work (docs/interchange.md, eredu.fit.v1).
#include <doctest/doctest.h>
#include <eredu/eredu.h>

#include <array>
#include <string>

#include "capi_support.hpp"

using namespace capi_test;

namespace {

// Two layers of 64 F32 bytes each and an embedding of 32 bytes.
const char* const kTwoLayers =
    R"({"schema":"eredu.groups.v1","model":{"name":"two","layers":2},"groups":[)"
    R"({"name":"embed","role":"vocabulary","scope":"embedding","members":[)"
    R"({"target":"embed","shape":[8,1],"dtype":"F32","sharding":{"kind":"balanced","axis":0}}]},)"
    R"({"name":"l0","role":"replicated","scope":{"layer":0},"members":[)"
    R"({"target":"l0","shape":[16],"dtype":"F32","sharding":{"kind":"replicated"}}]},)"
    R"({"name":"l1","role":"replicated","scope":{"layer":1},"members":[)"
    R"({"target":"l1","shape":[16],"dtype":"F32","sharding":{"kind":"replicated"}}]}]})";

struct Fitted {
  eredu_status status = EREDU_OK;
  std::string text;
  std::string message;
};

Fitted fit(const eredu_model* model, const eredu_plan_options* plan,
           const eredu_check_options* check, const eredu_fit_options* options) {
  Fitted fitted;
  char* out = nullptr;
  std::size_t length = 0;
  ErrorSlot error;
  fitted.status = eredu_fit_json(model, plan, check, options, &out, &length, error.slot());
  if (out != nullptr) fitted.text.assign(out, length);
  eredu_buffer_free(out);
  fitted.message = error.message();
  return fitted;
}

int stop_after_two(std::uint64_t done, std::uint64_t total, void* data) {
  *static_cast<std::uint64_t*>(data) = total;
  return done >= 2 ? 1 : 0;
}

}  // namespace

TEST_SUITE("capi.fit") {
  TEST_CASE("every topology up to the world, with peaks and the smallest fitting world") {
    const auto model = model_from_json(kTwoLayers);
    REQUIRE(model.status == EREDU_OK);
    eredu_check_options check = EREDU_CHECK_OPTIONS_INIT;
    check.has_device_budget = 1;
    check.device_budget_bytes = 100;
    eredu_fit_options options = EREDU_FIT_OPTIONS_INIT;
    options.max_world = 2;
    const Fitted fitted = fit(model.handle.get(), nullptr, &check, &options);
    REQUIRE_MESSAGE(fitted.status == EREDU_OK, fitted.message);
    CHECK(fitted.text ==
          R"({"schema":"eredu.fit.v1","model":{"name":"two","tensors":3,"global_bytes":160},)"
          R"("policy":"require","residency":{"kind":"fully_resident","device_budget_bytes":100,)"
          R"("host_budget_bytes":null,"prefetch_depth":1,"host_lookahead":0},"max_world":2,)"
          R"("topologies":[)"
          R"({"tp":1,"pp":1,"ep":1,"world":1,"plans":true,"fits":false,"device_peak_bytes":160},)"
          R"({"tp":1,"pp":1,"ep":2,"world":2,"plans":false,"fits":false,)"
          R"("error":"EREDU_E_MISSING_EXPERT_COUNT",)"
          R"("message":"expert topology preflight requires the routed-expert count"},)"
          R"({"tp":1,"pp":2,"ep":1,"world":2,"plans":true,"fits":true,"device_peak_bytes":96},)"
          R"({"tp":2,"pp":1,"ep":1,"world":2,"plans":true,"fits":false,"device_peak_bytes":144}],)"
          R"("smallest_fitting_world":2})"
          "\n");
  }

  TEST_CASE("argument errors, pipeline layers, the world limit and cancellation") {
    const auto model = model_from_json(kTwoLayers);
    REQUIRE(model.status == EREDU_OK);
    CHECK(fit(nullptr, nullptr, nullptr, nullptr).message == "argument model is NULL");
    CHECK(eredu_fit_json(model.handle.get(), nullptr, nullptr, nullptr, nullptr, nullptr,
                         nullptr) == EREDU_E_NULL_ARGUMENT);
    const std::array<std::uint64_t, 1> layers{2};
    eredu_plan_options plan = EREDU_PLAN_OPTIONS_INIT;
    plan.pipeline_layers = layers.data();
    plan.pipeline_layer_count = 1;
    const Fitted staged = fit(model.handle.get(), &plan, nullptr, nullptr);
    CHECK(staged.status == EREDU_E_INVALID_ARGUMENT);
    CHECK(staged.message ==
          "options->pipeline_layers must be empty: fit searches every pipeline size");
    eredu_fit_options options = EREDU_FIT_OPTIONS_INIT;
    options.max_world = 0;
    const Fitted zero = fit(model.handle.get(), nullptr, nullptr, &options);
    CHECK(zero.status == EREDU_E_INVALID_ARGUMENT);
    CHECK(zero.message == "the largest world must be from 1 to 1024, got 0");
    eredu_check_options check = EREDU_CHECK_OPTIONS_INIT;
    check.has_device_budget = 2;
    CHECK(fit(model.handle.get(), nullptr, &check, nullptr).message ==
          "flag check->has_device_budget is 2, expected 0 or 1");

    std::uint64_t total = 0;
    eredu_plan_options cancelling = EREDU_PLAN_OPTIONS_INIT;
    cancelling.progress = stop_after_two;
    cancelling.progress_data = &total;
    options.max_world = 4;
    const Fitted cancelled = fit(model.handle.get(), &cancelling, nullptr, &options);
    CHECK(cancelled.status == EREDU_E_CANCELLED);
    CHECK(cancelled.text.empty());
    CHECK(total == 1 + 3 + 3 + 6);
    CHECK(cancelled.message == "cancelled by the progress callback after 2 of 13 topologies");

    eredu_fit_options initialized;
    REQUIRE(eredu_fit_options_init(&initialized, sizeof initialized, nullptr) == EREDU_OK);
    CHECK(initialized.max_world == 64);
  }
}
