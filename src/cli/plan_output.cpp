// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// `eredu plan --all-ranks --output FILE`: the plan file of every rank.
#include <fmt/format.h>

#include "cli/input.hpp"
#include "cli/library.hpp"
#include "cli/output.hpp"
#include "cli/plan_file_commands.hpp"

namespace eredu::cli {
namespace {

// The layouts' bytes before compression, summed over the ranks.
Result<std::uint64_t> uncompressed_bytes(const eredu_plan_file& file, std::uint64_t ranks) {
  std::uint64_t total = 0;
  for (std::uint64_t rank = 0; rank < ranks; ++rank) {
    std::uint64_t bytes = 0;
    EREDU_TRY(check([&](eredu_error** error) {
      return eredu_plan_file_rank_bytes(&file, rank, nullptr, &bytes, error);
    }));
    total += bytes;  // at most 2^20 ranks of at most 1 GiB each
  }
  return total;
}

}  // namespace

Result<int> run_plan_output(const PlanArgs& args, const std::string& path) {
  EREDU_TRY(policy, policy_from(args.policy));
  EREDU_TRY(model, load_description(args.groups));
  const eredu_topology topology = topology_of(args.topology);
  const eredu_plan_options options = plan_options(policy, args.topology);
  EREDU_TRY(check([&](eredu_error** error) {
    return eredu_plan_file_write(model.get(), &topology, &options, path.c_str(), error);
  }));
  eredu_plan_file* opened = nullptr;
  EREDU_TRY(check(
      [&](eredu_error** error) { return eredu_plan_file_open(path.c_str(), &opened, error); }));
  const PlanFile file(opened);
  eredu_plan_file_info info = EREDU_PLAN_FILE_INFO_INIT;
  EREDU_TRY(check(
      [&](eredu_error** error) { return eredu_plan_file_get_info(file.get(), &info, error); }));
  EREDU_TRY(layouts, uncompressed_bytes(*file, info.world_size));
  EREDU_TRY(write_stdout(fmt::format(
      "wrote {}: {} ranks, {} bytes ({} bytes of layouts, {:.1f}x smaller){}\n", path,
      info.world_size, info.file_bytes, layouts,
      static_cast<double>(layouts) / static_cast<double>(info.file_bytes),
      info.coverage_ok != 0 ? "" : "; coverage problems: eredu plan --all-ranks lists them")));
  return info.coverage_ok != 0 ? kExitOk : kExitCoverage;
}

}  // namespace eredu::cli
