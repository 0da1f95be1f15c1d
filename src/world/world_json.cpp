// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "world/world_json.hpp"

#include "interchange/layout_json.hpp"

namespace eredu {

void append_coverage(JsonWriter& writer, const WorldPlan& world) {
  writer.begin_object();
  writer.key("ok").boolean(world.coverage_ok());
  writer.key("tensors").uint(world.model->tensor_count());
  writer.key("problems").begin_array();
  for (const CoverageProblem& problem : world.problems) {
    writer.begin_object();
    writer.key("target").string(problem.target);
    writer.key("problem").string(coverage_kind_name(problem.problem));
    writer.key("detail").string(problem.detail);
    writer.key("ranks").begin_array();
    for (std::uint64_t rank : problem.ranks) writer.uint(rank);
    writer.end_array();
    writer.end_object();
  }
  writer.end_array();
  writer.end_object();
}

std::string world_to_json(const WorldPlan& world) {
  std::string out;
  JsonWriter writer(out);
  writer.begin_object();
  writer.key("schema").string("eredu.world.v1");
  writer.key("topology");
  append_topology(writer, world.topology);
  writer.key("policy").string(sharding_policy_name(world.policy));
  writer.key("global_bytes").uint(world.model->global_bytes());
  writer.key("ranks").begin_array();
  for (const RankSummary& rank : world.ranks) {
    writer.begin_object();
    writer.key("rank").uint(rank.rank);
    writer.key("coordinates");
    append_coordinates(writer, rank.coordinates);
    writer.key("totals");
    append_totals(writer, rank.totals);
    writer.key("fell_back_groups").begin_array();
    for (std::uint32_t group : rank.fell_back_groups) {
      writer.string(world.model->groups()[group].logical_name());
    }
    writer.end_array();
    writer.end_object();
  }
  writer.end_array();
  writer.key("coverage");
  append_coverage(writer, world);
  writer.end_object();
  out += '\n';
  return out;
}

}  // namespace eredu
