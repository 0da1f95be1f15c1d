// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "cli/world_table.hpp"

#include <fmt/format.h>

#include "cli/byte_units.hpp"
#include "cli/table.hpp"

namespace eredu {
namespace {

constexpr std::size_t kListedGroups = 3;

std::string fell_back_text(const WorldPlan& world, const RankSummary& rank) {
  if (rank.fell_back_groups.empty()) return "-";
  std::string text;
  for (std::size_t i = 0; i < rank.fell_back_groups.size() && i < kListedGroups; ++i) {
    if (i > 0) text += ", ";
    text += world.model->groups()[rank.fell_back_groups[i]].logical_name();
  }
  if (rank.fell_back_groups.size() > kListedGroups) {
    text += fmt::format(" (+{} more)", rank.fell_back_groups.size() - kListedGroups);
  }
  return text;
}

std::string problems_table(const WorldPlan& world) {
  TextTable table({{"PROBLEM"}, {"TARGET"}, {"RANKS"}, {"DETAIL"}});
  for (const CoverageProblem& problem : world.problems) {
    table.add_row({std::string(coverage_kind_name(problem.problem)), problem.target,
                   fmt::format("{}", fmt::join(problem.ranks, ",")), problem.detail});
  }
  return table.render();
}

}  // namespace

std::string world_table(const WorldPlan& world) {
  constexpr auto kRight = TextTable::Align::Right;
  TextTable table({{"RANK", kRight},
                   {"TENSOR", kRight},
                   {"PIPELINE", kRight},
                   {"EXPERT", kRight},
                   {"DATA", kRight},
                   {"TENSORS", kRight},
                   {"LOCAL BYTES", kRight},
                   {"FELL BACK"}});
  for (const RankSummary& rank : world.ranks) {
    const ParallelCoordinates& at = rank.coordinates;
    table.add_row({fmt::to_string(rank.rank), fmt::to_string(at.tensor),
                   fmt::to_string(at.pipeline), fmt::to_string(at.expert), fmt::to_string(at.data),
                   fmt::to_string(rank.totals.materialized_tensors),
                   human_bytes(rank.totals.local_bytes), fell_back_text(world, rank)});
  }
  std::string out = table.render() + "\n";
  const std::size_t tensors = world.model->tensor_count();
  if (world.coverage_ok()) {
    out += fmt::format("coverage: ok ({} tensors)\n", tensors);
  } else {
    out += problems_table(world);
    out += fmt::format("coverage: {} problems ({} tensors)\n", world.problems.size(), tensors);
  }
  const std::uint64_t global = world.model->global_bytes();
  out += fmt::format("global bytes: {} ({})\n", global, human_bytes(global));
  return out;
}

}  // namespace eredu
