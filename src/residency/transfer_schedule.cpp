// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "residency/transfer_schedule.hpp"

namespace eredu {

Result<DensePendingUnits> DensePendingUnits::from_indices(std::span<const std::uint64_t> indices) {
  DensePendingUnits units;
  for (std::size_t i = 0; i < indices.size(); ++i) {
    const std::uint64_t index = indices[i];
    if (i > 0 && indices[i - 1] >= index) {
      return failf(Status::UnorderedPending, "dense transfer pending unit {} does not follow {}",
                   index, indices[i - 1]);
    }
    if (!units.runs_.empty() && units.runs_.back().last + 1 == index) {
      units.runs_.back().last = index;
    } else {
      units.runs_.push_back({index, index});
    }
    ++units.size_;
  }
  return units;
}

DensePendingUnits DensePendingUnits::from_range(IndexRange range) {
  DensePendingUnits units;
  if (range.length() > 0) {
    units.runs_.push_back({range.start, range.end - 1});
    units.size_ = range.length();
  }
  return units;
}

std::optional<std::uint64_t> DensePendingUnits::front() const {
  if (runs_.empty()) return std::nullopt;
  return runs_.front().first;
}

void DensePendingUnits::pop_front() {
  if (runs_.empty()) return;
  Run& run = runs_.front();
  if (run.first == run.last) {
    runs_.pop_front();
  } else {
    ++run.first;
  }
  --size_;
}

std::size_t DensePendingUnits::copy_prefix(std::span<std::uint64_t> out) const {
  std::size_t written = 0;
  for (const Run& run : runs_) {
    for (std::uint64_t index = run.first; written < out.size(); ++index) {
      out[written++] = index;
      if (index == run.last) break;
    }
    if (written == out.size()) break;
  }
  return written;
}

Error dense_transfer_zero_capacity() {
  return {Status::ZeroCapacity, "dense transfer window capacity must be nonzero"};
}

Error dense_transfer_capacity_exceeded(std::uint64_t capacity) {
  return {Status::CapacityExceeded,
          fmt::format("dense transfer window exceeds its capacity of {}", capacity)};
}

Error dense_transfer_no_pending_unit() {
  return {Status::NoPendingUnit, "dense transfer schedule has no pending unit"};
}

Error dense_transfer_out_of_order(std::uint64_t expected, std::uint64_t actual) {
  return {Status::OutOfOrder,
          fmt::format("dense transfer schedule expected unit {}, received {}", expected, actual)};
}

}  // namespace eredu
