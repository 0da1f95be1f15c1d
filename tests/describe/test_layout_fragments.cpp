// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Layouts written with a description's shared fragments (plan files) are
// the text layout_to_json writes without them, on every rank; and the world
// planner's layouts, planned into memory reused from other ranks
// (plan_rank_into), are the text of a fresh plan_rank.
#include <doctest/doctest.h>

#include <mutex>

#include "describe/describe.hpp"
#include "interchange/layout_json.hpp"
#include "model_folders.hpp"
#include "plan/planner.hpp"
#include "world/world.hpp"

namespace eredu {
namespace {

// Every rank's layout written both ways, and against a fresh plan; returns
// the ranks compared.
std::uint64_t compare_every_rank(const std::shared_ptr<const ModelDescription>& model,
                                 const ParallelTopology& topology, ShardingPolicy policy) {
  const LayoutJsonFragments fragments(*model);
  std::mutex mutex;
  std::uint64_t ranks = 0;
  std::uint64_t differing = 0;
  std::uint64_t not_fresh = 0;
  WorldOptions options = WorldOptions::on_threads(2);
  options.visit = [&](const LocalModelLayout& layout) -> Result<void> {
    const std::string text = layout_to_json(layout);
    const bool same = layout_to_json(layout, &fragments) == text;
    EREDU_TRY(fresh, plan_rank(model, topology, layout.rank, policy, 1));
    const bool reused_is_fresh = layout_to_json(fresh) == text;
    const std::lock_guard lock(mutex);
    ++ranks;
    if (!same) ++differing;
    if (!reused_is_fresh) ++not_fresh;
    return outcome::success();
  };
  auto world = plan_world(model, topology, policy, options);
  REQUIRE_MESSAGE(world.has_value(), world.error().message);
  CHECK(differing == 0);
  CHECK(not_fresh == 0);
  return ranks;
}

TEST_CASE("shared fragments and reused layouts write a fresh plan's text") {
  struct Case {
    const char* model;
    std::uint64_t tp, pp, ep;
    ShardingPolicy policy;
  };
  // Routed experts omitted and held, block-FP8 scales, pipeline stages,
  // KV heads replicated past their count, fallback to replication.
  for (const Case& c : {Case{"kimi-k2-mini-deepseekv3-fp8", 2, 2, 4, ShardingPolicy::Require},
                        Case{"mixtral-8x7b-dolphin-2.5", 2, 2, 2, ShardingPolicy::Require},
                        Case{"qwen3-1.7b", 16, 1, 1, ShardingPolicy::Require},
                        Case{"gpt-oss-20b", 3, 2, 1, ShardingPolicy::ReplicateUnsupported}}) {
    CAPTURE(c.model);
    DescribeOptions options;
    options.config_only = true;  // the configuration's geometry, no weight index needed
    auto described = describe_model_dir(test::example_model(c.model), options);
    REQUIRE_MESSAGE(described.has_value(), described.error().message);
    const ParallelTopology topology = ParallelTopology::create(c.tp, c.pp, c.ep, 1).value();
    CHECK(compare_every_rank(described.value(), topology, c.policy) == c.tp * c.pp * c.ep);
  }
}

}  // namespace
}  // namespace eredu
