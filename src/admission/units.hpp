// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The residency units of one rank (docs/residency.md, "Units"): one static unit
// per materialized tensor not scoped to a layer, one layer unit per decoder
// layer the rank materializes.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/result.hpp"
#include "plan/layout.hpp"

namespace eredu {

/// A materialized tensor not scoped to a layer (scope absent, embedding,
/// output head, tied embedding, or an expert without a layer).
struct StaticUnit {
  std::string target;
  std::uint64_t bytes = 0;  // local bytes; 0 for a member without a dtype
  friend bool operator==(const StaticUnit&, const StaticUnit&) = default;
};

/// Every materialized tensor scoped to one decoder layer, experts included.
struct LayerUnit {
  std::uint64_t layer = 0;
  std::uint64_t bytes = 0;  // sum of local bytes; members without a dtype add 0
  friend bool operator==(const LayerUnit&, const LayerUnit&) = default;
};

/// One rank's units and their byte sums.
struct RankUnits {
  std::vector<StaticUnit> static_units;  // by target, byte-wise
  std::vector<LayerUnit> layer_units;    // by layer, ascending; K = size()
  std::uint64_t static_bytes = 0;
  std::uint64_t layer_bytes = 0;
  friend bool operator==(const RankUnits&, const RankUnits&) = default;
};

/// Splits the materialized tensors of `layout` (placement other than omit)
/// into static and layer units, leaving out the routed-expert tensors when
/// `experts_apart` (an expert cache holds them). A layer counts once the
/// rank materializes any tensor of it, even one of 0 bytes. O(tensors + K log K). Errors:
/// Internal if a byte sum overflows 64 bits (impossible for a planned
/// layout, whose local bytes never exceed the model's global bytes).
Result<RankUnits> split_units(const LocalModelLayout& layout, bool experts_apart = false);

/// The bytes of every layer unit, largest first. O(K log K).
std::vector<std::uint64_t> layer_bytes_descending(const RankUnits& units);

/// The first `count` of `descending` (from layer_bytes_descending) summed,
/// all of them when `count` is K or more. Errors: Internal on overflow (as
/// split_units).
Result<std::uint64_t> largest_layer_bytes(std::span<const std::uint64_t> descending,
                                          std::uint64_t count);

/// The `count` largest layer units summed (all of them when `count` is
/// K or more): the peak bytes of a window of `count` units. Errors: Internal
/// on overflow (as split_units).
Result<std::uint64_t> largest_layer_bytes(const RankUnits& units, std::uint64_t count);

/// "static.<target>".
std::string static_unit_id(const StaticUnit& unit);

/// "layer.<L as at least 5 digits>": "layer.00007".
std::string layer_unit_id(const LayerUnit& unit);

}  // namespace eredu
