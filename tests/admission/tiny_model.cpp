// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "tiny_model.hpp"

#include <doctest/doctest.h>

#include "interchange/groups_json.hpp"
#include "plan/planner.hpp"

namespace eredu::test {

std::shared_ptr<const ModelDescription> tiny_model() {
  constexpr const char* kText = R"({
  "schema": "eredu.groups.v1",
  "model": {"name": "tiny", "layers": 3, "experts": 2},
  "groups": [
    {"name": "embed", "role": "replicated", "scope": "embedding", "members": [
      {"target": "embed", "shape": [10, 4], "dtype": "F32", "sharding": {"kind": "replicated"}}]},
    {"name": "l0", "role": "replicated", "scope": {"layer": 0}, "members": [
      {"target": "l0.w", "shape": [4, 4], "dtype": "F32", "sharding": {"kind": "replicated"}}]},
    {"name": "l0.e1", "role": "replicated", "scope": {"layer": 0, "expert": 1}, "members": [
      {"target": "l0.e1", "shape": [2, 4], "dtype": "F32", "sharding": {"kind": "replicated"}}]},
    {"name": "l1", "role": "replicated", "scope": {"layer": 1}, "members": [
      {"target": "l1.w", "shape": [8, 4], "dtype": "F32", "sharding": {"kind": "replicated"}}]},
    {"name": "l2", "role": "replicated", "scope": {"layer": 2}, "members": [
      {"target": "l2.empty", "shape": [0, 4], "dtype": "F32", "sharding": {"kind": "replicated"}}]},
    {"name": "shared", "role": "replicated", "scope": {"expert": 0}, "members": [
      {"target": "shared.e0", "shape": [2, 2], "dtype": "F32", "sharding": {"kind": "replicated"}}]},
    {"name": "nodtype", "role": "replicated", "members": [
      {"target": "nodtype", "shape": [3], "sharding": {"kind": "replicated"}}]},
    {"name": "head", "role": "replicated", "scope": "output_head", "members": [
      {"target": "norm", "shape": [4], "dtype": "F32", "sharding": {"kind": "replicated"}}]}
  ]
})";
  auto model = load_groups_json(kText);
  REQUIRE_MESSAGE(model.has_value(), model.error().message);
  return model.value();
}

LocalModelLayout tiny_layout(std::uint64_t tp, std::uint64_t pp, std::uint64_t ep,
                             std::uint64_t rank) {
  auto topology = ParallelTopology::create(tp, pp, ep, 1);
  REQUIRE(topology.has_value());
  auto layout = plan_rank(tiny_model(), topology.value(), rank, ShardingPolicy::Require);
  REQUIRE_MESSAGE(layout.has_value(), layout.error().message);
  return std::move(layout).value();
}

}  // namespace eredu::test
