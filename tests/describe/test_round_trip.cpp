// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// describe → eredu.groups.v1 → load → plan gives the same layouts as
// planning the described model directly.
#include <doctest/doctest.h>

#include "describe/describe.hpp"
#include "interchange/groups_json.hpp"
#include "interchange/groups_write.hpp"
#include "interchange/layout_json.hpp"
#include "model_folders.hpp"
#include "plan/planner.hpp"

namespace eredu {
namespace {

std::string plan_json(const std::shared_ptr<const ModelDescription>& model,
                      const ParallelTopology& topology, std::uint64_t rank) {
  auto layout = plan_rank(model, topology, rank, ShardingPolicy::Require);
  REQUIRE_MESSAGE(layout.has_value(), layout.error().message);
  return layout_to_json(layout.value());
}

TEST_CASE("round trip through eredu.groups.v1 keeps every layout identical") {
  for (const char* name :
       {"reflection-llama-3.1-70b", "mistral-7b-v0.1", "qwen2.5-14b-sakura", "qwen3-1.7b"}) {
    CAPTURE(name);
    auto described = describe_model_dir(test::example_model(name));
    REQUIRE_MESSAGE(described.has_value(), described.error().message);
    const std::string text = groups_to_json(*described.value());
    auto loaded = load_groups_json(text);
    REQUIRE_MESSAGE(loaded.has_value(), loaded.error().message);
    CHECK(groups_to_json(*loaded.value()) == text);
    CHECK(loaded.value()->info() == described.value()->info());
    CHECK(loaded.value()->groups() == described.value()->groups());

    for (const auto& entry : {std::pair<std::uint64_t, std::uint64_t>{8, 1}, {4, 2}, {3, 3}}) {
      // Not structured bindings: clang 14 cannot capture them in CAPTURE's lambda.
      const auto& tp = std::get<0>(entry);
      const auto& pp = std::get<1>(entry);
      const ParallelTopology topology = ParallelTopology::create(tp, pp, 1, 1).value();
      for (std::uint64_t rank : {std::uint64_t{0}, tp * pp - 1}) {
        CAPTURE(tp);
        CAPTURE(pp);
        CAPTURE(rank);
        CHECK(plan_json(loaded.value(), topology, rank) ==
              plan_json(described.value(), topology, rank));
      }
    }
  }
}

}  // namespace
}  // namespace eredu
