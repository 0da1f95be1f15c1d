// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The plan-file side of the command (docs/plan-files.md), written against
// the C API (eredu/plan_file.h): `eredu plan --all-ranks --output FILE` and
// `eredu inspect FILE`.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <optional>
#include <string>

#include "cli/options.hpp"
#include "cli/result.hpp"

namespace eredu::cli {

/// `eredu inspect`.
struct InspectArgs {
  std::string file;
  std::optional<std::uint64_t> rank;
  std::optional<std::string> groups;  // --groups FILE: verify against it
  std::string format = "table";
};

/// Adds the `inspect` subcommand, filling `args`; `rank` receives --rank
/// (checked by `decimal`) and `rank_flag` the option, to be copied once
/// parsed.
CLI::App* add_inspect_command(CLI::App& app, InspectArgs& args, std::uint64_t& rank,
                              CLI::Option*& rank_flag, const CLI::Validator& decimal);

/// `eredu plan --all-ranks --output FILE`: plans every rank and writes the
/// plan file, then one summary line (ranks, bytes, ratio); 3 when coverage
/// failed (the file is still written).
Result<int> run_plan_output(const PlanArgs& args, const std::string& path);

/// `eredu inspect FILE`: checks the file (every frame, unless --rank) and
/// prints its header and frame sizes, or with --rank R that rank's layout
/// (a table, or its exact eredu.layout.v1 text). With --groups, first
/// verifies the file against that description (EREDU_E_PLAN_FILE_MISMATCH).
Result<int> run_inspect(const InspectArgs& args);

}  // namespace eredu::cli
