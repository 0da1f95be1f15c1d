// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The unit split of docs/residency.md ("Units"): static units, layer units,
// unit ids.
#include <doctest/doctest.h>

#include "admission/units.hpp"
#include "tiny_model.hpp"

namespace eredu {
namespace {

RankUnits split(const LocalModelLayout& layout) {
  auto units = split_units(layout);
  REQUIRE_MESSAGE(units.has_value(), units.error().message);
  return std::move(units).value();
}

std::uint64_t largest(const RankUnits& units, std::uint64_t count) {
  auto bytes = largest_layer_bytes(units, count);
  REQUIRE(bytes.has_value());
  return bytes.value();
}

TEST_CASE("one rank holds every static tensor and one unit per layer, empty layers included") {
  const RankUnits units = split(test::tiny_layout(1, 1, 1, 0));
  CHECK(units.static_units ==
        std::vector<StaticUnit>{{"embed", 160}, {"nodtype", 0}, {"norm", 16}, {"shared.e0", 16}});
  CHECK(units.layer_units == std::vector<LayerUnit>{{0, 96}, {1, 128}, {2, 0}});
  CHECK(units.static_bytes == 192);
  CHECK(units.layer_bytes == 224);
}

TEST_CASE("the last pipeline stage holds the output head and its one layer, of 0 bytes") {
  // 3 layers over 2 stages: stage 0 owns [0, 2), stage 1 owns [2, 3).
  const RankUnits units = split(test::tiny_layout(1, 2, 1, 1));
  CHECK(units.static_units ==
        std::vector<StaticUnit>{{"nodtype", 0}, {"norm", 16}, {"shared.e0", 16}});
  CHECK(units.layer_units == std::vector<LayerUnit>{{2, 0}});
  CHECK(units.static_bytes == 32);
  CHECK(units.layer_bytes == 0);
  const RankUnits first = split(test::tiny_layout(1, 2, 1, 0));
  CHECK(first.layer_units == std::vector<LayerUnit>{{0, 96}, {1, 128}});
  CHECK(first.static_bytes == 176);
}

TEST_CASE("expert ranks own their experts' layer tensors and expert-scoped statics") {
  const RankUnits expert0 = split(test::tiny_layout(1, 1, 2, 0));
  CHECK(expert0.layer_units == std::vector<LayerUnit>{{0, 64}, {1, 128}, {2, 0}});
  CHECK(expert0.static_bytes == 192);
  const RankUnits expert1 = split(test::tiny_layout(1, 1, 2, 1));
  CHECK(expert1.layer_units == std::vector<LayerUnit>{{0, 96}, {1, 128}, {2, 0}});
  CHECK(expert1.static_units ==
        std::vector<StaticUnit>{{"embed", 160}, {"nodtype", 0}, {"norm", 16}});
}

TEST_CASE("window sums take the largest layer units") {
  const RankUnits units = split(test::tiny_layout(1, 1, 1, 0));
  CHECK(largest(units, 0) == 0);
  CHECK(largest(units, 1) == 128);
  CHECK(largest(units, 2) == 224);
  CHECK(largest(units, 3) == 224);
  CHECK(largest(units, 100) == 224);
  CHECK(largest(RankUnits{}, 2) == 0);
}

TEST_CASE("unit ids") {
  CHECK(static_unit_id({"model.embed_tokens.weight", 1}) == "static.model.embed_tokens.weight");
  CHECK(layer_unit_id({0, 1}) == "layer.00000");
  CHECK(layer_unit_id({79, 1}) == "layer.00079");
  CHECK(layer_unit_id({123456, 1}) == "layer.123456");
}

}  // namespace
}  // namespace eredu
