// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// `eredu.layout.v1` output (docs/interchange.md) and the pieces the world and
// check documents share with it.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "interchange/json_writer.hpp"
#include "model/model.hpp"
#include "plan/layout.hpp"
#include "topology/topology.hpp"

namespace eredu {

/// The text of each tensor entry of `eredu.layout.v1` that is the same on
/// every rank of a description: its target, logical name, role and global
/// shape, and the whole entry of a rank that omits the tensor. Written once,
/// in the order of a layout's tensors (by target) and comma-separated, so
/// that the layouts of many ranks (a plan file's) copy a run of omitted
/// tensors at once: about 300 bytes per tensor. Immutable once built:
/// threads may share it.
class LayoutJsonFragments {
 public:
  explicit LayoutJsonFragments(const ModelDescription& model);

  /// The members `"target":...,"global_shape":[...]` of the tensor at
  /// `position` of a layout of the description, or nullopt when `tensor`
  /// is not that position's tensor.
  std::optional<std::string_view> head(std::size_t position, const LocalTensorLayout& tensor) const;

  /// Consecutive omitted tensors: their entries' text, comma-separated.
  struct OmittedRun {
    std::string_view text;
    std::size_t tensors = 0;  // 0: the first tensor is not omitted
  };
  /// The longest run of tensors from `position` of a layout's `tensors`
  /// that the rank omits (each written as the description's omitted entry).
  OmittedRun omitted_run(std::size_t position, std::span<const LocalTensorLayout> tensors) const;

 private:
  struct Entry {
    const ParameterGroupSpec* group = nullptr;
    const ParameterMemberSpec* member = nullptr;
    std::size_t start = 0;     // of the omitted entry's '{' in text_
    std::size_t head_end = 0;  // end of its head
    std::size_t end = 0;       // past its '}'
  };
  std::vector<Entry> entries_;  // by target, as a layout's tensors
  std::string text_;            // every omitted entry, comma-separated
};

/// `layout` as canonical `eredu.layout.v1` text, one trailing newline; with
/// `fragments` of the layout's description, the entries copy them (the same
/// text, written faster). Never fails (the layout is already validated).
std::string layout_to_json(const LocalModelLayout& layout,
                           const LayoutJsonFragments* fragments = nullptr);

/// The same text written into `out`, whose previous content it replaces
/// (a caller writing many layouts reuses one string's memory).
void layout_to_json(const LocalModelLayout& layout, const LayoutJsonFragments* fragments,
                    std::string& out);

/// Writes `{"tensor":T,"pipeline":P,"expert":E,"data":D}` as the next value.
void append_topology(JsonWriter& writer, const ParallelTopology& topology);

/// Writes `{"tensor":t,"pipeline":p,"expert":e,"data":d}` as the next value.
void append_coordinates(JsonWriter& writer, const ParallelCoordinates& coordinates);

/// Writes a `totals` object as the next value: local_bytes, global_bytes,
/// materialized_tensors, omitted_tensors, then unknown_bytes_tensors only
/// when it is above 0.
void append_totals(JsonWriter& writer, const LayoutTotals& totals);

/// Writes an `experts` object as the next value (docs/interchange.md,
/// eredu.layout.v1): start, end, routed_bytes, other_bytes, units,
/// largest_unit_bytes, then cached_units when given (eredu.check.v1).
void append_experts(JsonWriter& writer, const RankExperts& experts,
                    std::optional<std::uint64_t> cached_units = std::nullopt);

}  // namespace eredu
