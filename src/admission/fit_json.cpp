// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "admission/fit_json.hpp"

#include "admission/check_json.hpp"
#include "interchange/json_writer.hpp"

namespace eredu {
namespace {

void append_topology_row(JsonWriter& writer, const FitTopology& row) {
  const ParallelTopology& topology = row.topology;
  writer.begin_object();
  writer.key("tp").uint(topology.tensor());
  writer.key("pp").uint(topology.pipeline());
  writer.key("ep").uint(topology.expert());
  writer.key("world").uint(topology.world_size());
  writer.key("plans").boolean(row.plans);
  writer.key("fits").boolean(row.fits);
  if (row.device_peak_bytes) writer.key("device_peak_bytes").uint(*row.device_peak_bytes);
  if (row.error) {
    writer.key("error").string(status_name(static_cast<std::int32_t>(row.error->code)));
    writer.key("message").string(row.error->message);
  }
  writer.end_object();
}

}  // namespace

std::string fit_to_json(const FitReport& report) {
  std::string out;
  JsonWriter writer(out);
  writer.begin_object();
  writer.key("schema").string("eredu.fit.v1");
  writer.key("model");
  append_model(writer, *report.model);
  writer.key("policy").string(sharding_policy_name(report.policy));
  writer.key("residency");
  append_residency(writer, report.admission);
  writer.key("max_world").uint(report.max_world);
  writer.key("topologies").begin_array();
  for (const FitTopology& row : report.topologies) append_topology_row(writer, row);
  writer.end_array();
  if (auto smallest = report.smallest_fitting_world()) {
    writer.key("smallest_fitting_world").uint(*smallest);
  }
  writer.end_object();
  out += '\n';
  return out;
}

}  // namespace eredu
