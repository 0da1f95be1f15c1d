// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "cli/check_table.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstddef>
#include <optional>

#include "cli/byte_units.hpp"
#include "cli/table.hpp"

namespace eredu {
namespace {

std::string budget_text(std::optional<std::uint64_t> budget) {
  return budget ? human_bytes(*budget) : "unbounded";
}

constexpr std::size_t kListedFailures = 8;

std::string ranks_table(const CheckReport& report) {
  constexpr auto kRight = TextTable::Align::Right;
  TextTable table({{"RANK", kRight},
                   {"LOCAL", kRight},
                   {"STATIC", kRight},
                   {"LAYERS", kRight},
                   {"WINDOW", kRight},
                   {"DEVICE", kRight},
                   {"HOST", kRight},
                   {"DISK", kRight},
                   {"FITS"}});
  for (const RankCheck& rank : report.ranks) {
    const AdmissionFigures& figures = rank.figures;
    table.add_row({fmt::to_string(rank.rank), human_bytes(figures.local_bytes),
                   human_bytes(figures.static_bytes), fmt::to_string(figures.layer_units),
                   fmt::to_string(figures.device_window_units), human_bytes(figures.device_bytes),
                   human_bytes(figures.host_bytes), human_bytes(figures.disk_bytes),
                   figures.fits() ? "yes" : "no"});
  }
  return table.render();
}

// "70557794304 bytes (65.71 GiB) of a 85899345920-byte budget (80.00 GiB)".
std::string peak_text(std::uint64_t peak, std::optional<std::uint64_t> budget) {
  std::string text = fmt::format("{} bytes ({})", peak, human_bytes(peak));
  if (!budget) return text + ", unbounded";
  return text + fmt::format(" of a {}-byte budget ({})", *budget, human_bytes(*budget));
}

std::string verdict(const CheckReport& report) {
  const std::size_t ranks = report.ranks.size();
  std::uint64_t device = 0;
  std::uint64_t host = 0;
  std::size_t failing = 0;
  for (const RankCheck& rank : report.ranks) {
    device = std::max(device, rank.figures.device_bytes);
    host = std::max(host, rank.figures.host_bytes);
    if (!rank.figures.fits()) ++failing;
  }
  const OffloadConfig& config = report.policy.config();
  if (failing == 0) {
    return fmt::format("fits: all {} ranks; device peak {}; host peak {}\n", ranks,
                       peak_text(device, config.device_budget_bytes()),
                       peak_text(host, config.host_budget_bytes()));
  }
  std::string out = fmt::format("does not fit: {} of {} ranks\n", failing, ranks);
  std::size_t listed = 0;
  for (const RankCheck& rank : report.ranks) {
    const auto& excess = rank.figures.excess;
    if (!excess) continue;
    if (listed++ == kListedFailures) break;
    out += fmt::format("  rank {}: {} ({} > {})\n", rank.rank, excess->error().message,
                       human_bytes(excess->planned_bytes), human_bytes(excess->budget_bytes));
  }
  if (failing > kListedFailures) out += fmt::format("  (+{} more)\n", failing - kListedFailures);
  return out;
}

// The routed experts of every rank, for a model with an expert count
// (docs/residency.md, "Routed experts"); "" for a dense model.
std::string experts_section(const CheckReport& report) {
  const auto experts = report.world.model->info().experts;
  if (!experts || report.ranks.empty() || !report.ranks.front().experts) return "";
  const auto& cache = report.policy.expert_cache();
  std::string out = fmt::format("experts: {} routed per layer; ", *experts);
  if (!cache) {
    out += "held in the layer units\n";
  } else {
    out += fmt::format("held apart in an expert cache, device budget {}\n",
                       budget_text(cache->device_budget_bytes));
  }
  constexpr auto kRight = TextTable::Align::Right;
  std::vector<TextTable::Column> columns{{"RANK", kRight},  {"EXPERTS"},       {"ROUTED", kRight},
                                         {"OTHER", kRight}, {"UNITS", kRight}, {"UNIT", kRight}};
  if (cache) columns.push_back({"CACHED", kRight});
  TextTable table(std::move(columns));
  for (const RankCheck& rank : report.ranks) {
    const RankExperts& held = *rank.experts;
    std::vector<std::string> row{
        fmt::to_string(rank.rank),      fmt::format("[{}, {})", held.held.start, held.held.end),
        human_bytes(held.routed_bytes), human_bytes(held.other_bytes),
        fmt::to_string(held.units),     human_bytes(held.largest_unit_bytes)};
    if (const auto cached = rank.cached_units(report.policy)) {
      row.push_back(fmt::format("{} of {}", *cached, held.units));
    }
    table.add_row(std::move(row));
  }
  return "\n" + out + "\n" + table.render();
}

}  // namespace

std::string residency_line(const AdmissionPolicy& policy) {
  const OffloadConfig& config = policy.config();
  return fmt::format(
      "residency: {}; device budget {}, host budget {}, prefetch depth {}, host lookahead {}\n",
      execution_residency_name(policy.layers().execution_residency()),
      budget_text(config.device_budget_bytes()), budget_text(config.host_budget_bytes()),
      config.prefetch_depth(), policy.host_lookahead());
}

std::string check_table(const CheckReport& report) {
  return residency_line(report.policy) + "\n" + ranks_table(report) + "\n" + verdict(report) +
         experts_section(report);
}

}  // namespace eredu
