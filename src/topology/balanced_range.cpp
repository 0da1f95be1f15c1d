// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "topology/balanced_range.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/checked.hpp"

namespace eredu {

Result<IndexRange> balanced_contiguous_range(std::uint64_t total, std::uint64_t parts,
                                             std::uint64_t index, bool allow_empty) {
  if (parts == 0) return fail(Status::ZeroPartitions, "partition count must be nonzero");
  if (index >= parts) {
    return failf(Status::PartitionOutOfRange, "partition index {} is outside {} parts", index,
                 parts);
  }
  if (!allow_empty && total < parts) {
    return failf(Status::EmptyPartition, "cannot divide {} items among {} non-empty partitions",
                 total, parts);
  }
  const std::uint64_t base = total / parts;
  const std::uint64_t extra = total % parts;
  auto scaled = checked_mul(index, base);
  auto start = scaled ? checked_add(*scaled, std::min(index, extra)) : std::nullopt;
  auto end = start ? checked_add(*start, base + (index < extra ? 1 : 0)) : std::nullopt;
  if (!end) {
    return fail(Status::PartitionOverflow, "balanced range calculation overflowed usize");
  }
  return IndexRange{*start, *end};
}

std::vector<std::uint64_t> dividing_sizes(std::uint64_t total, std::uint64_t limit) {
  std::vector<std::uint64_t> sizes;
  for (std::uint64_t size = 1; size <= limit; ++size) {
    if (total % size == 0) sizes.push_back(size);
  }
  return sizes;
}

std::string dividing_sizes_text(std::uint64_t total, std::uint64_t limit) {
  return fmt::format("sizes up to {} that divide it: {}", limit,
                     fmt::join(dividing_sizes(total, limit), ", "));
}

}  // namespace eredu
