// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "world/tiling.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <string>
#include <tuple>

namespace eredu {
namespace {

constexpr std::size_t kListedRegions = 3;

// One held element range on the sharded axis.
struct Interval {
  std::uint64_t start = 0;
  std::uint64_t end = 0;
  std::uint64_t rank = 0;
};

bool is_complete(PlacementKind kind) {
  return kind == PlacementKind::Replicated || kind == PlacementKind::Local ||
         kind == PlacementKind::Rank;
}

// The ranges a placement selects on its axis; complete placements select the
// whole dimension `dim`.
void append_selection(const TensorPlacement& placement, std::span<const std::uint64_t> shape,
                      std::uint64_t dim, std::uint64_t rank, std::vector<Interval>& out) {
  switch (placement.kind) {
    case PlacementKind::Shard:
      // An invalid shard selects nothing and so shows up as a gap.
      if (auto slice =
              tensor_slice_for_shape(shape, placement.axis, placement.index, placement.parts)) {
        out.push_back({slice.value().start, slice.value().end, rank});
      }
      return;
    case PlacementKind::Range:
      // A rank holding only vocabulary padding reads [V, V): nothing.
      if (placement.start < placement.end) out.push_back({placement.start, placement.end, rank});
      return;
    case PlacementKind::Indices:
      for (const IndexRange& run : placement.runs) out.push_back({run.start, run.end, rank});
      return;
    case PlacementKind::Omit:
      return;
    default:
      out.push_back({0, dim, rank});
      return;
  }
}

std::string range_text(std::uint64_t start, std::uint64_t end) {
  return fmt::format("[{}, {})", start, end);
}

// "axis 0: [0, 4) held by ranks 1 and 2; [8, 9) held by …; … (4 more)".
template <class Region, class Describe>
std::string regions_text(std::uint64_t axis, const std::vector<Region>& regions,
                         Describe describe) {
  std::string text = fmt::format("axis {}: ", axis);
  for (std::size_t i = 0; i < regions.size() && i < kListedRegions; ++i) {
    if (i > 0) text += "; ";
    text += describe(regions[i]);
  }
  if (regions.size() > kListedRegions) {
    text += fmt::format("; … ({} more)", regions.size() - kListedRegions);
  }
  return text;
}

std::vector<std::uint64_t> sorted_unique(std::vector<std::uint64_t> ranks) {
  std::sort(ranks.begin(), ranks.end());
  ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
  return ranks;
}

struct Overlap {
  std::uint64_t start = 0;
  std::uint64_t end = 0;
  std::uint64_t first = 0;
  std::uint64_t second = 0;
};

// Sorted intervals: each one that starts before the farthest end seen so far
// overlaps the interval reaching that far.
void find_overlaps(const std::string& target, std::uint64_t axis,
                   const std::vector<Interval>& intervals, std::vector<CoverageProblem>& out) {
  std::vector<Overlap> overlaps;
  std::optional<Interval> reach;
  for (const Interval& interval : intervals) {
    if (interval.start >= interval.end) continue;
    if (reach && interval.start < reach->end) {
      overlaps.push_back({interval.start, std::min(interval.end, reach->end),
                          std::min(reach->rank, interval.rank),
                          std::max(reach->rank, interval.rank)});
    }
    if (!reach || interval.end > reach->end) reach = interval;
  }
  if (overlaps.empty()) return;
  std::vector<std::uint64_t> ranks;
  for (const Overlap& overlap : overlaps) {
    ranks.push_back(overlap.first);
    ranks.push_back(overlap.second);
  }
  out.push_back({target, CoverageKind::Overlap,
                 regions_text(axis, overlaps,
                              [](const Overlap& o) {
                                return fmt::format("{} held by ranks {} and {}",
                                                   range_text(o.start, o.end), o.first, o.second);
                              }),
                 sorted_unique(std::move(ranks))});
}

// Parts of the domain segments that no interval covers.
void find_gaps(const std::string& target, std::uint64_t axis, std::span<const IndexRange> domain,
               const std::vector<Interval>& intervals, std::span<const HeldPlacement> held,
               std::vector<CoverageProblem>& out) {
  std::vector<IndexRange> gaps;
  std::size_t next = 0;
  std::uint64_t covered = 0;  // everything below is covered by intervals[0..next)
  for (const IndexRange& segment : domain) {
    std::uint64_t cursor = segment.start;
    while (cursor < segment.end) {
      while (next < intervals.size() && intervals[next].start <= cursor) {
        covered = std::max(covered, intervals[next].end);
        ++next;
      }
      if (covered > cursor) {
        cursor = std::min(covered, segment.end);
        continue;
      }
      std::uint64_t gap_end = segment.end;
      if (next < intervals.size()) gap_end = std::min(gap_end, intervals[next].start);
      gaps.push_back({cursor, gap_end});
      cursor = gap_end;
    }
  }
  if (gaps.empty()) return;
  std::vector<std::uint64_t> ranks;
  for (const HeldPlacement& holder : held) ranks.push_back(holder.rank);
  out.push_back({target, CoverageKind::Gap,
                 regions_text(axis, gaps,
                              [](const IndexRange& gap) {
                                return range_text(gap.start, gap.end) + " held by no rank";
                              }),
                 sorted_unique(std::move(ranks))});
}

// Sorted intervals with each run of identical ranges held by `copies` ranks
// folded into one; a run of another length is an overlap problem.
std::vector<Interval> distinct_copies(const std::string& target, std::uint64_t axis,
                                      const std::vector<Interval>& intervals, std::uint64_t copies,
                                      std::vector<CoverageProblem>& out) {
  std::vector<Interval> distinct;
  std::vector<IndexRange> wrong;
  std::vector<std::uint64_t> ranks;
  for (std::size_t i = 0; i < intervals.size();) {
    std::size_t j = i;
    while (j < intervals.size() && intervals[j].start == intervals[i].start &&
           intervals[j].end == intervals[i].end) {
      ++j;
    }
    if (j - i != copies) {
      wrong.push_back({intervals[i].start, intervals[i].end});
      for (std::size_t k = i; k < j; ++k) ranks.push_back(intervals[k].rank);
    }
    distinct.push_back(intervals[i]);
    i = j;
  }
  if (!wrong.empty()) {
    out.push_back({target, CoverageKind::Overlap,
                   regions_text(axis, wrong,
                                [copies](const IndexRange& range) {
                                  return fmt::format("{} not held by exactly {} KV-head copies",
                                                     range_text(range.start, range.end), copies);
                                }),
                   sorted_unique(std::move(ranks))});
  }
  return distinct;
}

}  // namespace

void check_tiling(const ParameterMemberSpec& member,
                  const std::optional<std::vector<IndexRange>>& domain,
                  std::span<const HeldPlacement> held, std::uint64_t copies,
                  std::vector<CoverageProblem>& out) {
  const MemberSharding& sharding = member.sharding();
  const auto& shape = member.global_shape();
  // The sharded axis: the declared one, or (for a replicated declaration) the
  // axis the first slice uses.
  std::optional<std::uint64_t> axis;
  if (sharding.kind != ShardingKind::Replicated) axis = sharding.axis;
  std::vector<std::uint64_t> off_axis;
  for (const HeldPlacement& holder : held) {
    if (is_complete(holder.placement->kind)) continue;
    if (!axis) axis = holder.placement->axis;
    if (holder.placement->axis != *axis) off_axis.push_back(holder.rank);
  }
  if (!axis || *axis >= shape.size()) return;  // all complete (or nothing to tile)
  const std::uint64_t dim = shape[*axis];
  if (!off_axis.empty()) {
    std::vector<std::uint64_t> ranks;
    for (const HeldPlacement& holder : held) ranks.push_back(holder.rank);
    out.push_back(
        {member.target(), CoverageKind::Overlap,
         fmt::format("axis {}: ranks {} select on another axis", *axis, fmt::join(off_axis, ", ")),
         sorted_unique(std::move(ranks))});
    return;
  }
  bool sliced = false;
  for (const HeldPlacement& holder : held) sliced = sliced || !is_complete(holder.placement->kind);
  if (!sliced) return;

  std::vector<Interval> intervals;
  for (const HeldPlacement& holder : held) {
    append_selection(*holder.placement, shape, dim, holder.rank, intervals);
  }
  std::sort(intervals.begin(), intervals.end(), [](const Interval& a, const Interval& b) {
    return std::tie(a.start, a.end, a.rank) < std::tie(b.start, b.end, b.rank);
  });
  if (copies > 1) intervals = distinct_copies(member.target(), *axis, intervals, copies, out);
  find_overlaps(member.target(), *axis, intervals, out);
  const std::vector<IndexRange> whole{{0, dim}};
  find_gaps(member.target(), *axis, domain ? *domain : whole, intervals, held, out);
}

}  // namespace eredu
