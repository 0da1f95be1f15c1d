// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "plan/companion_rule.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "core/text.hpp"
#include "format/axis_cells.hpp"
#include "plan/resolve.hpp"

namespace eredu {
namespace {

constexpr std::size_t kListedIntervals = 3;

std::string interval_text(const IndexRange& range) {
  return fmt::format("[{}, {})", range.start, range.end);
}

std::string intervals_text(const std::vector<IndexRange>& ranges) {
  if (ranges.empty()) return "nothing";
  std::string text;
  for (std::size_t i = 0; i < ranges.size() && i < kListedIntervals; ++i) {
    if (i > 0) text += " + ";
    text += interval_text(ranges[i]);
  }
  if (ranges.size() > kListedIntervals) {
    text += fmt::format(" + … ({} more)", ranges.size() - kListedIntervals);
  }
  return text;
}

void append_merged(std::vector<IndexRange>& out, IndexRange range) {
  if (range.start >= range.end) return;
  if (!out.empty() && out.back().end == range.start) {
    out.back().end = range.end;
    return;
  }
  out.push_back(range);
}

// One physical member of the matrix, seen on one axis.
struct MemberAxis {
  const ParameterMemberSpec& member;
  AxisCells cells;
  std::vector<IndexRange> selection;  // physical indices
};

// The logical values `side` holds, or the first selected interval that does
// not hold whole cells.
struct Values {
  std::vector<IndexRange> values;
  std::optional<IndexRange> split;
};

Values logical_values(const MemberAxis& side, std::uint64_t physical_extent,
                      std::uint64_t logical_extent) {
  Values out;
  const AxisCells& cells = side.cells;
  for (const IndexRange& range : side.selection) {
    const bool start_whole = range.start % cells.units == 0;
    const bool end_whole = range.end % cells.units == 0 || range.end == physical_extent;
    if (!start_whole || !end_whole) {
      out.split = range;
      return out;
    }
    const std::uint64_t first_cell = range.start / cells.units;
    const std::uint64_t end_cell = range.end / cells.units + (range.end % cells.units != 0);
    // The first value of a cell, capped at the axis end (the last cell may be
    // partial); the cap also keeps the product inside 64 bits.
    auto cell_start = [&](std::uint64_t cell) {
      return cell > logical_extent / cells.values ? logical_extent
                                                  : std::min(cell * cells.values, logical_extent);
    };
    const std::uint64_t start = cell_start(first_cell);
    const std::uint64_t end = cell_start(end_cell);
    append_merged(out.values, {start, end});
  }
  return out;
}

std::string split_text(const MemberAxis& side, const IndexRange& range, std::uint64_t axis,
                       const std::string& where) {
  const AxisCells& cells = side.cells;
  if (cells.name == "word") {
    return fmt::format(
        "tensor {}{} selects 32-bit words {} of axis {}, which split its values packed at {} "
        "bits ({} values fill {} words)",
        debug_quoted(side.member.target()), where, interval_text(range), axis,
        cells.units * 32 / cells.values, cells.values, cells.units);
  }
  return fmt::format(
      "tensor {}{} selects bytes {} of axis {}, which split its {}-byte blocks of {} values",
      debug_quoted(side.member.target()), where, interval_text(range), axis, cells.units,
      cells.values);
}

// The first interval of `values` that does not start and end on `cells`
// (or end at the axis end).
std::optional<IndexRange> misaligned(const std::vector<IndexRange>& values, const AxisCells& cells,
                                     std::uint64_t extent) {
  for (const IndexRange& range : values) {
    const bool end_ok = range.end % cells.values == 0 || range.end == extent;
    if (range.start % cells.values != 0 || !end_ok) return range;
  }
  return std::nullopt;
}

std::optional<std::string> axis_violation(const EncodedMatrix& matrix,
                                          const std::vector<MemberAxis>& sides, std::uint64_t axis,
                                          const std::string& where) {
  const std::uint64_t extent = matrix.logical.global_shape()[axis];
  const MemberAxis& weight = sides.front();
  const Values held = logical_values(weight, weight.member.global_shape()[axis], extent);
  if (held.split) return split_text(weight, *held.split, axis, where);
  for (std::size_t j = 1; j < sides.size(); ++j) {
    const MemberAxis& companion = sides[j];
    if (companion.cells.values > 1) {
      if (auto range = misaligned(held.values, companion.cells, extent)) {
        return fmt::format(
            "tensor {}{} holds values {} of axis {}, which do not start and end on the {}-value "
            "{}s of {}",
            debug_quoted(weight.member.target()), where, interval_text(*range), axis,
            companion.cells.values, companion.cells.name, debug_quoted(companion.member.target()));
      }
    }
    const Values selected =
        logical_values(companion, companion.member.global_shape()[axis], extent);
    if (selected.split || selected.values != held.values) {
      return fmt::format(
          "tensor {}{} selects {}s {} of axis {}, which hold values {}, but {} holds values {}",
          debug_quoted(companion.member.target()), where, companion.cells.name,
          intervals_text(companion.selection), axis, intervals_text(selected.values),
          debug_quoted(weight.member.target()), intervals_text(held.values));
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> companion_violation(const ParameterGroupSpec& group,
                                               const EncodedMatrix& matrix,
                                               std::span<const TensorPlacement* const> placements,
                                               std::uint64_t tp_rank, std::uint64_t tp_size) {
  const std::size_t ndim = matrix.logical.global_shape().size();
  const std::string where = fmt::format(" on tensor rank {} of {}", tp_rank, tp_size);
  std::vector<MemberAxis> sides;
  sides.reserve(matrix.count);
  for (std::size_t axis = 0; axis < ndim; ++axis) {
    sides.clear();
    for (std::uint32_t j = 0; j < matrix.count; ++j) {
      const ParameterMemberSpec& member = group.members()[matrix.first + j];
      const auto cells =
          axis_cells(matrix.format.encoding(), static_cast<EncodedRole>(j), axis, ndim);
      if (!cells || member.global_shape().size() != ndim) {
        return fmt::format("tensor {} has no valid geometry for its linear format{}",
                           debug_quoted(member.target()), where);
      }
      sides.push_back(
          {member, *cells, selection_on_axis(*placements[j], member.global_shape(), axis)});
    }
    if (auto violation = axis_violation(matrix, sides, axis, where)) return violation;
  }
  return std::nullopt;
}

namespace {

// The first violation of the rule on any tensor rank, or a resolution error.
Result<std::optional<std::string>> first_violation(const ParameterGroupSpec& group,
                                                   std::uint64_t tp_size) {
  std::vector<TensorPlacement> resolved;
  std::vector<const TensorPlacement*> pointers;
  for (const EncodedMatrix& matrix : group.encoded()) {
    for (std::uint64_t t = 0; t < tp_size; ++t) {
      resolved.clear();
      for (std::uint32_t j = 0; j < matrix.count; ++j) {
        EREDU_TRY(member, resolve_member(group, group.members()[matrix.first + j], tp_size, t));
        resolved.push_back(std::move(member.placement));
      }
      pointers.clear();
      for (const TensorPlacement& placement : resolved) pointers.push_back(&placement);
      if (auto violation = companion_violation(group, matrix, pointers, t, tp_size)) {
        return std::optional<std::string>(std::move(violation));
      }
    }
  }
  return std::optional<std::string>{};
}

bool plans_at(const ParameterGroupSpec& group, std::uint64_t tp_size) {
  for (std::uint64_t t = 0; t < tp_size; ++t) {
    for (const ParameterMemberSpec& member : group.members()) {
      if (!resolve_member(group, member, tp_size, t)) return false;
    }
  }
  auto violation = first_violation(group, tp_size);
  return violation && !violation.value();
}

}  // namespace

Result<void> check_companion_rule(const ParameterGroupSpec& group, std::uint64_t tp_size) {
  if (group.encoded().empty() || tp_size <= 1) return outcome::success();
  EREDU_TRY(violation, first_violation(group, tp_size));
  if (!violation) return outcome::success();
  const std::vector<std::uint64_t> sizes = working_tensor_sizes(group, kTensorSizeSearch);
  return failf(Status::InvalidTensor, "{}; tensor sizes up to {} that work for this group: {}",
               *violation, kTensorSizeSearch, fmt::join(sizes, ", "));
}

std::vector<std::uint64_t> working_tensor_sizes(const ParameterGroupSpec& group,
                                                std::uint64_t limit) {
  std::vector<std::uint64_t> sizes;
  for (std::uint64_t size = 1; size <= limit; ++size) {
    if (plans_at(group, size)) sizes.push_back(size);
  }
  return sizes;
}

CompanionVerdicts companion_verdicts(const ModelDescription& model, std::uint64_t tp_size) {
  CompanionVerdicts verdicts(model.groups().size());
  for (std::size_t g = 0; g < model.groups().size(); ++g) {
    auto checked = check_companion_rule(model.groups()[g], tp_size);
    if (!checked) verdicts[g] = std::move(checked).error();
  }
  return verdicts;
}

}  // namespace eredu
