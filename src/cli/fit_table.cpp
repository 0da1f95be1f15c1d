// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "cli/fit_table.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <vector>

#include "cli/byte_units.hpp"
#include "cli/check_table.hpp"
#include "cli/table.hpp"

namespace eredu::cli {
namespace {

std::string smallest_line(const Json& report) {
  const auto smallest = optional_u64(report, "smallest_fitting_world");
  if (!smallest) {
    return fmt::format("nothing fits in a world of up to {} ranks\n", u64(report, "max_world"));
  }
  std::vector<std::string> shapes;
  for (const Json& row : report.at("topologies")) {
    if (row.at("fits").get<bool>() && u64(row, "world") == *smallest) {
      shapes.push_back(
          fmt::format("tp {}, pp {}, ep {}", u64(row, "tp"), u64(row, "pp"), u64(row, "ep")));
    }
  }
  return fmt::format("smallest fitting world: {} ({})\n", *smallest, fmt::join(shapes, "; "));
}

}  // namespace

std::string fit_table(const Json& report, std::uint64_t layers) {
  const Json& model = report.at("model");
  const Json& name = model.at("name");
  const std::uint64_t global = u64(model, "global_bytes");
  std::string out =
      fmt::format("model {}: {} tensors, {} layers, {}\npolicy {}; worlds up to {} ranks\n",
                  name.is_null() ? "(unnamed)" : name.get<std::string>(), u64(model, "tensors"),
                  layers, human_bytes(global), text(report, "policy"), u64(report, "max_world"));
  out += residency_line(report.at("residency")) + "\n";
  constexpr auto kRight = TextTable::Align::Right;
  TextTable table({{"WORLD", kRight},
                   {"TP", kRight},
                   {"PP", kRight},
                   {"EP", kRight},
                   {"PLANS"},
                   {"DEVICE PEAK", kRight},
                   {"FITS"}});
  for (const Json& row : report.at("topologies")) {
    const auto peak = optional_u64(row, "device_peak_bytes");
    table.add_row({fmt::to_string(u64(row, "world")), fmt::to_string(u64(row, "tp")),
                   fmt::to_string(u64(row, "pp")), fmt::to_string(u64(row, "ep")),
                   row.at("plans").get<bool>() ? "yes" : text(row, "error"),
                   peak ? human_bytes(*peak) : "-", row.at("fits").get<bool>() ? "yes" : "no"});
  }
  return out + table.render() + "\n" + smallest_line(report);
}

}  // namespace eredu::cli
