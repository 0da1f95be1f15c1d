// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "cli/suggest.hpp"

#include <algorithm>

namespace eredu::cli {
namespace {

// Optimal string alignment distance: edits with adjacent swaps.
std::size_t distance(std::string_view a, std::string_view b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.size()][b.size()];
}

const CLI::App* command_named(const CLI::App& app, std::string_view name) {
  const auto found =
      app.get_subcommands([&](const CLI::App* command) { return command->get_name() == name; });
  return found.empty() ? nullptr : found.front();
}

std::vector<std::string> command_names(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::App* command : app.get_subcommands([](const CLI::App*) { return true; })) {
    names.push_back(command->get_name());
  }
  return names;
}

std::vector<std::string> flag_names(const CLI::App& command) {
  std::vector<std::string> names;
  for (const CLI::Option* option : command.get_options()) {
    for (const std::string& name : option->get_lnames()) names.push_back("--" + name);
  }
  return names;
}

}  // namespace

std::optional<std::string> closest(std::string_view word,
                                   const std::vector<std::string>& candidates) {
  std::optional<std::string> best;
  std::size_t best_distance = std::min<std::size_t>(3, (word.size() + 1) / 2);
  for (const std::string& candidate : candidates) {
    const std::size_t edits = distance(word, candidate);
    if (edits < best_distance) {
      best_distance = edits;
      best = candidate;
    }
  }
  return best;
}

std::optional<std::string> suggestion(const CLI::App& app, int argc, char** argv) {
  if (argc < 2) return std::nullopt;
  const std::string_view first = argv[1];
  const CLI::App* command = command_named(app, first);
  if (command == nullptr) {
    if (first.empty() || first.front() == '-') return std::nullopt;
    return closest(first, command_names(app));
  }
  for (int i = 2; i < argc; ++i) {
    const std::string_view word = argv[i];
    if (word.size() < 3 || word.substr(0, 2) != "--") continue;
    const std::string flag(word.substr(0, word.find('=')));
    if (command->get_option_no_throw(flag) != nullptr) continue;
    return closest(flag, flag_names(*command));
  }
  return std::nullopt;
}

}  // namespace eredu::cli
