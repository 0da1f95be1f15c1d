// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// "Did you mean" hints for a mistyped command or flag.
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace eredu::cli {

/// The candidate closest to `word` in edits (insertions, deletions,
/// substitutions, adjacent swaps), when at most 2 edits and fewer than half
/// of `word` away; the first of equally close ones. "chek" → "check".
std::optional<std::string> closest(std::string_view word,
                                   const std::vector<std::string>& candidates);

/// For a command line `app` refused: the command meant by an unknown first
/// word ("check" for `eredu chek`), else the flag meant by the first unknown
/// `--flag` of the command given ("--tp" for `--tpp`); nullopt when nothing
/// is close.
std::optional<std::string> suggestion(const CLI::App& app, int argc, char** argv);

}  // namespace eredu::cli
