// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "cli/fit_table.hpp"

#include <fmt/format.h>

#include <vector>

#include "cli/byte_units.hpp"
#include "cli/check_table.hpp"
#include "cli/table.hpp"

namespace eredu {
namespace {

std::string shape_text(const ParallelTopology& topology) {
  return fmt::format("tp {}, pp {}, ep {}", topology.tensor(), topology.pipeline(),
                     topology.expert());
}

std::string smallest_line(const FitReport& report) {
  const auto smallest = report.smallest_fitting_world();
  if (!smallest) {
    return fmt::format("nothing fits in a world of up to {} ranks\n", report.max_world);
  }
  std::vector<std::string> shapes;
  for (const FitTopology& row : report.topologies) {
    if (row.fits && row.topology.world_size() == *smallest)
      shapes.push_back(shape_text(row.topology));
  }
  return fmt::format("smallest fitting world: {} ({})\n", *smallest, fmt::join(shapes, "; "));
}

}  // namespace

std::string fit_table(const FitReport& report) {
  const ModelDescription& model = *report.model;
  std::string out =
      fmt::format("model {}: {} tensors, {} layers, {}\npolicy {}; worlds up to {} ranks\n",
                  model.info().name.value_or("(unnamed)"), model.tensor_count(),
                  model.info().layers.value_or(0), human_bytes(model.global_bytes()),
                  sharding_policy_name(report.policy), report.max_world);
  out += residency_line(report.admission) + "\n";
  constexpr auto kRight = TextTable::Align::Right;
  TextTable table({{"WORLD", kRight},
                   {"TP", kRight},
                   {"PP", kRight},
                   {"EP", kRight},
                   {"PLANS"},
                   {"DEVICE PEAK", kRight},
                   {"FITS"}});
  for (const FitTopology& row : report.topologies) {
    const ParallelTopology& topology = row.topology;
    table.add_row(
        {std::to_string(topology.world_size()), std::to_string(topology.tensor()),
         std::to_string(topology.pipeline()), std::to_string(topology.expert()),
         row.error ? std::string(status_name(static_cast<std::int32_t>(row.error->code))) : "yes",
         row.device_peak_bytes ? human_bytes(*row.device_peak_bytes) : "-",
         row.fits ? "yes" : "no"});
  }
  return out + table.render() + "\n" + smallest_line(report);
}

}  // namespace eredu
