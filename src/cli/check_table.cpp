// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "cli/check_table.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstddef>
#include <vector>

#include "cli/byte_units.hpp"
#include "cli/table.hpp"

namespace eredu::cli {
namespace {

std::string budget_text(std::optional<std::uint64_t> budget) {
  return budget ? human_bytes(*budget) : "unbounded";
}

constexpr std::size_t kListedFailures = 8;

std::string ranks_table(const Json& ranks) {
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
  for (const Json& rank : ranks) {
    table.add_row({fmt::to_string(u64(rank, "rank")), human_bytes(u64(rank, "local_bytes")),
                   human_bytes(u64(rank, "static_bytes")), fmt::to_string(u64(rank, "layer_units")),
                   fmt::to_string(u64(rank, "device_window_units")),
                   human_bytes(u64(rank, "device_bytes")), human_bytes(u64(rank, "host_bytes")),
                   human_bytes(u64(rank, "disk_bytes")),
                   rank.at("fits").get<bool>() ? "yes" : "no"});
  }
  return table.render();
}

// "70557794304 bytes (65.71 GiB) of a 85899345920-byte budget (80.00 GiB)".
std::string peak_text(std::uint64_t peak, std::optional<std::uint64_t> budget) {
  std::string text = fmt::format("{} bytes ({})", peak, human_bytes(peak));
  if (!budget) return text + ", unbounded";
  return text + fmt::format(" of a {}-byte budget ({})", *budget, human_bytes(*budget));
}

// "planned … exceed its …-byte budget (65.71 GiB > 60.00 GiB)": the device
// budget is judged before the host budget (docs/interchange.md,
// eredu.check.v1).
std::string excess_line(const Json& rank, std::optional<std::uint64_t> device_budget,
                        std::optional<std::uint64_t> host_budget) {
  std::uint64_t planned = u64(rank, "device_bytes");
  std::optional<std::uint64_t> budget = device_budget;
  if (!budget || planned <= *budget) {
    planned = u64(rank, "host_bytes");
    budget = host_budget;
  }
  return fmt::format("  rank {}: {} ({} > {})\n", u64(rank, "rank"),
                     text(rank.at("error"), "message"), human_bytes(planned),
                     human_bytes(budget.value_or(0)));
}

std::string verdict(const Json& report) {
  const Json& ranks = report.at("ranks");
  const Json& residency = report.at("residency");
  const auto device_budget = optional_u64(residency, "device_budget_bytes");
  const auto host_budget = optional_u64(residency, "host_budget_bytes");
  std::uint64_t device = 0;
  std::uint64_t host = 0;
  std::size_t failing = 0;
  for (const Json& rank : ranks) {
    device = std::max(device, u64(rank, "device_bytes"));
    host = std::max(host, u64(rank, "host_bytes"));
    if (!rank.at("fits").get<bool>()) ++failing;
  }
  if (failing == 0) {
    return fmt::format("fits: all {} ranks; device peak {}; host peak {}\n", ranks.size(),
                       peak_text(device, device_budget), peak_text(host, host_budget));
  }
  std::string out = fmt::format("does not fit: {} of {} ranks\n", failing, ranks.size());
  std::size_t listed = 0;
  for (const Json& rank : ranks) {
    if (rank.at("error").is_null()) continue;
    if (listed++ == kListedFailures) break;
    out += excess_line(rank, device_budget, host_budget);
  }
  if (failing > kListedFailures) out += fmt::format("  (+{} more)\n", failing - kListedFailures);
  return out;
}

// The routed experts of every rank, for a model with an expert count
// (docs/residency.md, "Routed experts"); "" for a dense model.
std::string experts_section(const Json& report, std::optional<std::uint64_t> experts) {
  const Json& ranks = report.at("ranks");
  if (!experts || ranks.empty() || !ranks.front().contains("experts")) return "";
  const Json& residency = report.at("residency");
  const auto cache = residency.find("expert_cache");
  const bool cached = cache != residency.end();
  std::string out = fmt::format("experts: {} routed per layer; ", *experts);
  if (!cached) {
    out += "held in the layer units\n";
  } else {
    out += fmt::format("held apart in an expert cache, device budget {}\n",
                       budget_text(optional_u64(*cache, "device_budget_bytes")));
  }
  constexpr auto kRight = TextTable::Align::Right;
  std::vector<TextTable::Column> columns{{"RANK", kRight},  {"EXPERTS"},       {"ROUTED", kRight},
                                         {"OTHER", kRight}, {"UNITS", kRight}, {"UNIT", kRight}};
  if (cached) columns.push_back({"CACHED", kRight});
  TextTable table(std::move(columns));
  for (const Json& rank : ranks) {
    const Json& held = rank.at("experts");
    std::vector<std::string> row{fmt::to_string(u64(rank, "rank")),
                                 fmt::format("[{}, {})", u64(held, "start"), u64(held, "end")),
                                 human_bytes(u64(held, "routed_bytes")),
                                 human_bytes(u64(held, "other_bytes")),
                                 fmt::to_string(u64(held, "units")),
                                 human_bytes(u64(held, "largest_unit_bytes"))};
    if (const auto units = optional_u64(held, "cached_units")) {
      row.push_back(fmt::format("{} of {}", *units, u64(held, "units")));
    }
    table.add_row(std::move(row));
  }
  return "\n" + out + "\n" + table.render();
}

}  // namespace

std::string residency_line(const Json& residency) {
  return fmt::format(
      "residency: {}; device budget {}, host budget {}, prefetch depth {}, host lookahead {}\n",
      text(residency, "kind"), budget_text(optional_u64(residency, "device_budget_bytes")),
      budget_text(optional_u64(residency, "host_budget_bytes")), u64(residency, "prefetch_depth"),
      u64(residency, "host_lookahead"));
}

std::string check_table(const Json& report, std::optional<std::uint64_t> experts) {
  return residency_line(report.at("residency")) + "\n" + ranks_table(report.at("ranks")) + "\n" +
         verdict(report) + experts_section(report, experts);
}

}  // namespace eredu::cli
