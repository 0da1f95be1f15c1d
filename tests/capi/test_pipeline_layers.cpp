// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// eredu_plan_options.pipeline_layers: pipeline stages of chosen sizes
// (docs/planning.md).
#include <doctest/doctest.h>
#include <eredu/eredu.h>

#include <array>
#include <string>

#include "capi_support.hpp"

using namespace capi_test;

namespace {

// Four layers, one replicated tensor each.
const char* const kFourLayers =
    R"({"schema":"eredu.groups.v1","model":{"layers":4},"groups":[)"
    R"({"name":"l0","role":"replicated","scope":{"layer":0},"members":[{"target":"l0","shape":[2],"sharding":{"kind":"replicated"}}]},)"
    R"({"name":"l1","role":"replicated","scope":{"layer":1},"members":[{"target":"l1","shape":[2],"sharding":{"kind":"replicated"}}]},)"
    R"({"name":"l2","role":"replicated","scope":{"layer":2},"members":[{"target":"l2","shape":[2],"sharding":{"kind":"replicated"}}]},)"
    R"({"name":"l3","role":"replicated","scope":{"layer":3},"members":[{"target":"l3","shape":[2],"sharding":{"kind":"replicated"}}]}]})";

struct Planned {
  eredu_status status = EREDU_OK;
  Layout layout;
  std::string message;
};

Planned plan_stages(const eredu_model* model, std::uint64_t pipeline, std::uint64_t rank,
                    const std::uint64_t* layers, std::size_t count) {
  eredu_topology topology = EREDU_TOPOLOGY_INIT;
  topology.pipeline = pipeline;
  eredu_plan_options options = EREDU_PLAN_OPTIONS_INIT;
  options.pipeline_layers = layers;
  options.pipeline_layer_count = count;
  Planned planned;
  eredu_layout* layout = nullptr;
  ErrorSlot error;
  planned.status = eredu_plan_rank(model, &topology, rank, &options, &layout, error.slot());
  planned.layout.reset(layout);
  planned.message = error.message();
  return planned;
}

bool held(const eredu_layout* layout, const char* target) {
  return tensor_info(layout, target).placement != EREDU_PLACEMENT_OMIT;
}

}  // namespace

TEST_SUITE("capi.pipeline_layers") {
  TEST_CASE("stage s owns the chosen layers, in plans and in the world JSON") {
    const auto model = model_from_json(kFourLayers);
    REQUIRE(model.status == EREDU_OK);
    const std::array<std::uint64_t, 2> layers{1, 3};
    const auto first = plan_stages(model.handle.get(), 2, 0, layers.data(), 2);
    REQUIRE(first.status == EREDU_OK);
    CHECK(held(first.layout.get(), "l0"));
    CHECK_FALSE(held(first.layout.get(), "l1"));
    const auto second = plan_stages(model.handle.get(), 2, 1, layers.data(), 2);
    REQUIRE(second.status == EREDU_OK);
    CHECK_FALSE(held(second.layout.get(), "l0"));
    CHECK(held(second.layout.get(), "l1"));
    CHECK(held(second.layout.get(), "l3"));

    eredu_topology topology = EREDU_TOPOLOGY_INIT;
    topology.pipeline = 2;
    eredu_plan_options options = EREDU_PLAN_OPTIONS_INIT;
    options.pipeline_layers = layers.data();
    options.pipeline_layer_count = layers.size();
    char* out = nullptr;
    std::size_t length = 0;
    REQUIRE(eredu_plan_world_json(model.handle.get(), &topology, &options, &out, &length,
                                  nullptr) == EREDU_OK);
    const std::string text(out, length);
    eredu_buffer_free(out);
    CHECK(text.find(R"("topology":{"tensor":1,"pipeline":2,"expert":1,"data":1,)"
                    R"("pipeline_layers":[1,3]})") != std::string::npos);
    CHECK(text.find(R"("coverage":{"ok":true)") != std::string::npos);
  }

  TEST_CASE("wrong counts, a zero stage, a wrong sum and a NULL array are refused") {
    const auto model = model_from_json(kFourLayers);
    REQUIRE(model.status == EREDU_OK);
    const std::array<std::uint64_t, 3> three{1, 2, 1};
    const auto count = plan_stages(model.handle.get(), 2, 0, three.data(), 3);
    CHECK(count.status == EREDU_E_INVALID_ARGUMENT);
    CHECK(count.layout == nullptr);
    CHECK(count.message == "pipeline layers: 3 counts for 2 pipeline stages; give one per stage");
    const std::array<std::uint64_t, 2> zero{4, 0};
    CHECK(plan_stages(model.handle.get(), 2, 0, zero.data(), 2).message ==
          "pipeline layers: stage 1 has 0 layers; every stage needs at least one");
    const std::array<std::uint64_t, 2> sum{2, 3};
    const auto wrong = plan_stages(model.handle.get(), 2, 1, sum.data(), 2);
    CHECK(wrong.status == EREDU_E_INVALID_ARGUMENT);
    CHECK(wrong.message == "pipeline layers 2, 3 sum to 5, not the model's 4 decoder layers");
    const auto null = plan_stages(model.handle.get(), 2, 0, nullptr, 2);
    CHECK(null.status == EREDU_E_NULL_ARGUMENT);
    CHECK(null.message == "argument options->pipeline_layers is NULL but its count is 2");
  }
}
