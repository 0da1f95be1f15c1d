// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "world/ownership.hpp"

#include <optional>

#include "topology/balanced_range.hpp"

namespace eredu {
namespace {

// Whether `coordinate` of an axis of `size` owns item `index` of `count`.
Result<bool> owns_index(std::uint64_t index, std::optional<std::uint64_t> count, std::uint64_t size,
                        std::uint64_t coordinate, Status missing, const char* what) {
  if (size == 1) return coordinate == 0;
  if (!count) return failf(missing, "coverage needs the {} count to place scope {}", what, index);
  EREDU_TRY(range, balanced_contiguous_range(*count, size, coordinate, false));
  return range.contains(index);
}

}  // namespace

Result<bool> scope_owned_by(const GroupScope& scope, const ModelInfo& info,
                            const ParallelTopology& topology,
                            const ParallelCoordinates& coordinates) {
  const bool first = coordinates.pipeline == 0;
  const bool last = coordinates.pipeline + 1 == topology.pipeline();
  switch (scope.kind) {
    case GroupScope::Kind::All:
      return true;
    case GroupScope::Kind::Embedding:
      return first;
    case GroupScope::Kind::OutputHead:
      return last;
    case GroupScope::Kind::TiedEmbedding:
      return first || last;
    case GroupScope::Kind::Indexed:
      break;
  }
  if (scope.layer && topology.pipeline() > 1) {
    if (!info.layers) {
      return failf(Status::MissingLayerCount, "coverage needs the layer count to place scope {}",
                   *scope.layer);
    }
    EREDU_TRY(range, topology.stage_layers(*info.layers, coordinates.pipeline));
    if (!range.contains(*scope.layer)) return false;
  }
  if (scope.expert) {
    // experts == 0 means a dense model, the same as no count.
    std::optional<std::uint64_t> experts = info.experts;
    if (experts == 0u) experts.reset();
    return owns_index(*scope.expert, experts, topology.expert(), coordinates.expert,
                      Status::MissingExpertCount, "expert");
  }
  return true;
}

std::string scope_text(const GroupScope& scope) {
  switch (scope.kind) {
    case GroupScope::Kind::All:
      return "all";
    case GroupScope::Kind::Embedding:
      return "embedding";
    case GroupScope::Kind::OutputHead:
      return "output_head";
    case GroupScope::Kind::TiedEmbedding:
      return "tied_embedding";
    case GroupScope::Kind::Indexed:
      break;
  }
  if (scope.layer && scope.expert)
    return fmt::format("layer {}, expert {}", *scope.layer, *scope.expert);
  if (scope.layer) return fmt::format("layer {}", *scope.layer);
  return fmt::format("expert {}", scope.expert.value_or(0));
}

}  // namespace eredu
