// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "cli/layout_table.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <vector>

#include "cli/byte_units.hpp"
#include "cli/table.hpp"
#include "cli/terminal.hpp"

namespace eredu::cli {
namespace {

std::string placement_text(const Json& placement) {
  const std::string kind = text(placement, "kind");
  if (kind == "rank") return fmt::format("rank {}", u64(placement, "rank"));
  if (kind == "shard") {
    return fmt::format("shard {}/{} axis {}", u64(placement, "index"), u64(placement, "parts"),
                       u64(placement, "axis"));
  }
  if (kind == "range") {
    return fmt::format("range axis {} [{}, {})", u64(placement, "axis"), u64(placement, "start"),
                       u64(placement, "end"));
  }
  if (kind == "indices") {
    return fmt::format("indices axis {} ({} in {} runs)", u64(placement, "axis"),
                       u64(placement, "count"), placement.at("runs").size());
  }
  return kind;
}

std::string bytes_text(std::optional<std::uint64_t> bytes) {
  return bytes ? human_bytes(*bytes) : "unknown";
}

std::string note_text(const Json& tensor) {
  std::string note;
  if (tensor.at("fell_back_to_replication").get<bool>()) note = "fell back to replication";
  if (const auto copies = optional_u64(tensor, "kv_head_copies")) {
    note = fmt::format("KV head on {} ranks", *copies);
  }
  if (const auto rows = optional_u64(tensor, "padding_rows")) {
    note = fmt::format("{} padding rows", *rows);
  }
  if (const auto range = tensor.find("expert_range"); range != tensor.end()) {
    note = fmt::format("experts [{}, {})", u64(*range, "start"), u64(*range, "end"));
  }
  return note;
}

}  // namespace

std::string layout_table(const Json& layout) {
  const Json& topology = layout.at("topology");
  const Json& at = layout.at("coordinates");
  // The library planned the rank: the world size fits 64 bits.
  const std::uint64_t world = u64(topology, "tensor") * u64(topology, "pipeline") *
                              u64(topology, "expert") * u64(topology, "data");
  std::string out =
      fmt::format("rank {} of {}: tensor {}, pipeline {}, expert {}, data {}; policy {}\n\n",
                  u64(layout, "rank"), world, u64(at, "tensor"), u64(at, "pipeline"),
                  u64(at, "expert"), u64(at, "data"), text(layout, "policy"));
  TextTable table({{"TARGET", TextTable::Align::Left, true},
                   {"PLACEMENT"},
                   {"LOCAL SHAPE"},
                   {"BYTES", TextTable::Align::Right},
                   {"NOTE"}});
  for (const Json& tensor : layout.at("tensors")) {
    const auto shape = tensor.at("local_shape").get<std::vector<std::uint64_t>>();
    table.add_row({text(tensor, "target"), placement_text(tensor.at("placement")),
                   fmt::format("[{}]", fmt::join(shape, ", ")),
                   bytes_text(optional_u64(tensor, "local_bytes")), note_text(tensor)});
  }
  table.sort_naturally(0);
  out += table.render(terminal_columns());
  const Json& totals = layout.at("totals");
  const std::uint64_t local = u64(totals, "local_bytes");
  const std::uint64_t global = u64(totals, "global_bytes");
  out +=
      fmt::format("\n{} tensors materialized, {} omitted; local bytes {} ({}) of global {} ({})\n",
                  u64(totals, "materialized_tensors"), u64(totals, "omitted_tensors"), local,
                  human_bytes(local), global, human_bytes(global));
  if (const auto unknown = optional_u64(totals, "unknown_bytes_tensors")) {
    out += fmt::format("{} tensors have no dtype and are not counted in bytes\n", *unknown);
  }
  if (const auto experts = layout.find("experts"); experts != layout.end()) {
    const std::uint64_t routed = u64(*experts, "routed_bytes");
    const std::uint64_t other = u64(*experts, "other_bytes");
    out += fmt::format(
        "routed experts [{}, {}) of every layer: {} units of up to {}; routed bytes {} ({}), "
        "other bytes {} ({})\n",
        u64(*experts, "start"), u64(*experts, "end"), u64(*experts, "units"),
        human_bytes(u64(*experts, "largest_unit_bytes")), routed, human_bytes(routed), other,
        human_bytes(other));
  }
  return out;
}

}  // namespace eredu::cli
