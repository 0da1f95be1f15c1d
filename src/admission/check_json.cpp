// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "admission/check_json.hpp"

#include "interchange/layout_json.hpp"
#include "world/world_json.hpp"

namespace eredu {

void append_model(JsonWriter& writer, const ModelDescription& model) {
  writer.begin_object();
  writer.key("name");
  if (model.info().name) {
    writer.string(*model.info().name);
  } else {
    writer.null();
  }
  writer.key("tensors").uint(model.tensor_count());
  writer.key("global_bytes").uint(model.global_bytes());
  writer.end_object();
}

namespace {

void append_error(JsonWriter& writer, const std::optional<BudgetExcess>& excess) {
  if (!excess) {
    writer.null();
    return;
  }
  const Error error = excess->error();
  const auto code = static_cast<std::int32_t>(error.code);
  writer.begin_object();
  writer.key("code").string(status_name(code));
  writer.key("status").uint(static_cast<std::uint64_t>(code));
  writer.key("message").string(error.message);
  writer.end_object();
}

void append_rank(JsonWriter& writer, const RankCheck& rank, const WorldPlan& world,
                 const AdmissionPolicy& policy) {
  const AdmissionFigures& figures = rank.figures;
  const RankSummary& summary = world.ranks[rank.rank];
  writer.begin_object();
  writer.key("rank").uint(rank.rank);
  writer.key("coordinates");
  append_coordinates(writer, rank.coordinates);
  // The world plan's summary of the rank (eredu.world.v1), so a reader of
  // the check needs no second plan.
  writer.key("totals");
  append_totals(writer, summary.totals);
  writer.key("fell_back_groups").begin_array();
  for (std::uint32_t group : summary.fell_back_groups) {
    writer.string(world.model->groups()[group].logical_name());
  }
  writer.end_array();
  writer.key("local_bytes").uint(figures.local_bytes);
  writer.key("static_bytes").uint(figures.static_bytes);
  writer.key("layer_units").uint(figures.layer_units);
  writer.key("device_window_units").uint(figures.device_window_units);
  writer.key("device_bytes").uint(figures.device_bytes);
  writer.key("host_bytes").uint(figures.host_bytes);
  writer.key("disk_bytes").uint(figures.disk_bytes);
  writer.key("fits").boolean(figures.fits());
  writer.key("error");
  append_error(writer, figures.excess);
  if (rank.experts) {
    writer.key("experts");
    append_experts(writer, *rank.experts, rank.cached_units(policy));
  }
  writer.end_object();
}

}  // namespace

void append_residency(JsonWriter& writer, const AdmissionPolicy& policy) {
  const OffloadConfig& config = policy.config();
  writer.begin_object();
  writer.key("kind").string(execution_residency_name(policy.layers().execution_residency()));
  writer.key("device_budget_bytes").uint_or_null(config.device_budget_bytes());
  writer.key("host_budget_bytes").uint_or_null(config.host_budget_bytes());
  writer.key("prefetch_depth").uint(config.prefetch_depth());
  writer.key("host_lookahead").uint(policy.host_lookahead());
  if (const auto& cache = policy.expert_cache()) {
    writer.key("expert_cache").begin_object();
    writer.key("device_budget_bytes").uint_or_null(cache->device_budget_bytes);
    writer.end_object();
  }
  writer.end_object();
}

std::string check_to_json(const CheckReport& report) {
  std::string out;
  JsonWriter writer(out);
  writer.begin_object();
  writer.key("schema").string("eredu.check.v1");
  writer.key("model");
  append_model(writer, *report.world.model);
  writer.key("topology");
  append_topology(writer, report.world.topology);
  writer.key("policy").string(sharding_policy_name(report.world.policy));
  writer.key("residency");
  append_residency(writer, report.policy);
  writer.key("coverage");
  append_coverage(writer, report.world);
  writer.key("ranks").begin_array();
  for (const RankCheck& rank : report.ranks) append_rank(writer, rank, report.world, report.policy);
  writer.end_array();
  writer.key("fits").boolean(report.fits());
  writer.end_object();
  out += '\n';
  return out;
}

}  // namespace eredu
