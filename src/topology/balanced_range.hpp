// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// balanced_contiguous_range (docs/planning.md, "Balanced contiguous ranges").
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/result.hpp"

namespace eredu {

/// A half-open range [start, end) of elements, units, layers or experts.
struct IndexRange {
  std::uint64_t start = 0;
  std::uint64_t end = 0;

  constexpr std::uint64_t length() const { return end > start ? end - start : 0; }
  constexpr bool contains(std::uint64_t value) const { return value >= start && value < end; }
  friend constexpr bool operator==(const IndexRange&, const IndexRange&) = default;
};

/// Part `index` of `total` items split into `parts` contiguous ranges whose
/// lengths differ by at most one, the first `total % parts` parts being
/// longer. Errors in order: ZeroPartitions, PartitionOutOfRange,
/// EmptyPartition (when !allow_empty and total < parts), PartitionOverflow.
Result<IndexRange> balanced_contiguous_range(std::uint64_t total, std::uint64_t parts,
                                             std::uint64_t index, bool allow_empty);

/// The largest size that messages search for sizes that work.
inline constexpr std::uint64_t kTensorSizeSearch = 64;

/// The sizes in [1, limit] that divide `total` exactly (ascending).
std::vector<std::uint64_t> dividing_sizes(std::uint64_t total, std::uint64_t limit);

/// "sizes up to {limit} that divide it: 1, 2, 4", for messages about
/// uneven splits (1 always divides).
std::string dividing_sizes_text(std::uint64_t total, std::uint64_t limit);

}  // namespace eredu
