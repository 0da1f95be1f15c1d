// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "cli/world_table.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <vector>

#include "cli/byte_units.hpp"
#include "cli/table.hpp"
#include "cli/terminal.hpp"

namespace eredu::cli {
namespace {

constexpr std::size_t kListedGroups = 3;

std::string fell_back_text(const Json& groups) {
  if (groups.empty()) return "-";
  std::string text;
  for (std::size_t i = 0; i < groups.size() && i < kListedGroups; ++i) {
    if (i > 0) text += ", ";
    text += groups[i].get<std::string>();
  }
  if (groups.size() > kListedGroups) {
    text += fmt::format(" (+{} more)", groups.size() - kListedGroups);
  }
  return text;
}

std::string problems_table(const Json& problems) {
  TextTable table({{"PROBLEM"}, {"TARGET", TextTable::Align::Left, true}, {"RANKS"}, {"DETAIL"}});
  for (const Json& problem : problems) {
    const auto ranks = problem.at("ranks").get<std::vector<std::uint64_t>>();
    table.add_row({text(problem, "problem"), text(problem, "target"),
                   fmt::format("{}", fmt::join(ranks, ",")), text(problem, "detail")});
  }
  return table.render(terminal_columns());
}

}  // namespace

std::string world_table(const Json& world) {
  constexpr auto kRight = TextTable::Align::Right;
  TextTable table({{"RANK", kRight},
                   {"TENSOR", kRight},
                   {"PIPELINE", kRight},
                   {"EXPERT", kRight},
                   {"DATA", kRight},
                   {"TENSORS", kRight},
                   {"LOCAL BYTES", kRight},
                   {"FELL BACK"}});
  for (const Json& rank : world.at("ranks")) {
    const Json& at = rank.at("coordinates");
    const Json& totals = rank.at("totals");
    table.add_row(
        {fmt::to_string(u64(rank, "rank")), fmt::to_string(u64(at, "tensor")),
         fmt::to_string(u64(at, "pipeline")), fmt::to_string(u64(at, "expert")),
         fmt::to_string(u64(at, "data")), fmt::to_string(u64(totals, "materialized_tensors")),
         human_bytes(u64(totals, "local_bytes")), fell_back_text(rank.at("fell_back_groups"))});
  }
  std::string out = table.render() + "\n";
  const Json& coverage = world.at("coverage");
  const std::uint64_t tensors = u64(coverage, "tensors");
  if (coverage.at("ok").get<bool>()) {
    out += fmt::format("coverage: ok ({} tensors)\n", tensors);
  } else {
    const Json& problems = coverage.at("problems");
    out += problems_table(problems);
    out += fmt::format("coverage: {} problems ({} tensors)\n", problems.size(), tensors);
  }
  // eredu.world.v1 gives it at the top, eredu.check.v1 in its model.
  const std::uint64_t global =
      u64(world.contains("global_bytes") ? world : world.at("model"), "global_bytes");
  out += fmt::format("global bytes: {} ({})\n", global, human_bytes(global));
  return out;
}

}  // namespace eredu::cli
