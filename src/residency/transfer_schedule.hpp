// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Seed DenseTransferSchedule: the ordered, bounded transfer cursor of
// dense streamed execution, with its DenseTransferScheduleError texts.
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "core/result.hpp"
#include "topology/balanced_range.hpp"

namespace eredu {

/// The pending unit indices of a schedule, strictly increasing, stored as
/// runs of consecutive indices so a range of any length costs O(1) memory.
class DensePendingUnits {
 public:
  /// Errors: UnorderedPending (501) at the first index not above its
  /// predecessor.
  static Result<DensePendingUnits> from_indices(std::span<const std::uint64_t> indices);
  /// Every index of `range` (none when start >= end).
  static DensePendingUnits from_range(IndexRange range);

  bool empty() const { return runs_.empty(); }
  std::uint64_t size() const { return size_; }
  std::optional<std::uint64_t> front() const;
  /// Removes the first index; a no-op when empty.
  void pop_front();
  /// Writes the first min(out.size(), size()) indices to `out`; returns how
  /// many it wrote.
  std::size_t copy_prefix(std::span<std::uint64_t> out) const;

 private:
  // Inclusive, so the index UINT64_MAX has a run too; ascending, and two
  // runs are never adjacent.
  struct Run {
    std::uint64_t first;
    std::uint64_t last;
  };
  std::deque<Run> runs_;
  std::uint64_t size_ = 0;
};

/// DenseTransferScheduleError values (codes 500-504, seed texts).
Error dense_transfer_zero_capacity();
Error dense_transfer_capacity_exceeded(std::uint64_t capacity);
Error dense_transfer_no_pending_unit();
Error dense_transfer_out_of_order(std::uint64_t expected, std::uint64_t actual);

/// Seed `DenseTransferSchedule<T>`: pending unit indices admitted strictly
/// in order into a ready window of at most `capacity` transfers (`T` is the
/// caller's transfer handle), popped oldest first. Single-threaded.
template <class T>
class DenseTransferSchedule {
 public:
  /// Errors in order: capacity 0 -> ZeroCapacity (500); `pending` not
  /// strictly increasing -> UnorderedPending (501).
  static Result<DenseTransferSchedule> create(std::span<const std::uint64_t> pending,
                                              std::uint64_t capacity) {
    if (capacity == 0) return outcome::failure(dense_transfer_zero_capacity());
    EREDU_TRY(units, DensePendingUnits::from_indices(pending));
    return DenseTransferSchedule(std::move(units), capacity);
  }

  /// Over the indices of `pending` (seed `new(start..end, capacity)`).
  /// Errors: ZeroCapacity (500).
  static Result<DenseTransferSchedule> create(IndexRange pending, std::uint64_t capacity) {
    if (capacity == 0) return outcome::failure(dense_transfer_zero_capacity());
    return DenseTransferSchedule(DensePendingUnits::from_range(pending), capacity);
  }

  std::uint64_t capacity() const { return capacity_; }
  /// At least one admitted transfer is ready for consumption.
  bool has_ready() const { return !ready_.empty(); }
  /// No ready or pending unit remains.
  bool is_exhausted() const { return ready_.empty() && pending_.empty(); }
  /// The ready window has room and a unit is pending.
  bool can_admit() const { return ready_.size() < capacity_ && !pending_.empty(); }
  /// The next unit that must be submitted.
  std::optional<std::uint64_t> next_pending() const { return pending_.front(); }

  /// How many indices desired_indices(lookahead) returns:
  /// min(lookahead, ready + pending).
  std::uint64_t desired_count(std::uint64_t lookahead) const {
    return std::min<std::uint64_t>(lookahead, ready_.size() + pending_.size());
  }
  /// Writes the first out.size() (at most desired_count) of the ready
  /// indices followed by the pending ones; returns how many it wrote.
  std::size_t write_desired_indices(std::span<std::uint64_t> out) const {
    std::size_t written = 0;
    for (auto it = ready_.begin(); it != ready_.end() && written < out.size(); ++it) {
      out[written++] = it->first;
    }
    return written + pending_.copy_prefix(out.subspan(written));
  }
  /// The ready indices followed by the pending ones, truncated to lookahead.
  std::vector<std::uint64_t> desired_indices(std::uint64_t lookahead) const {
    std::vector<std::uint64_t> out(desired_count(lookahead));
    write_desired_indices(out);
    return out;
  }

  /// Commits one submitted transfer. Errors in order: a full ready window ->
  /// CapacityExceeded (502); nothing pending -> NoPendingUnit (503); `index`
  /// is not the next pending unit -> OutOfOrder (504). A failure changes
  /// nothing.
  Result<void> admit(std::uint64_t index, T transfer) {
    if (ready_.size() >= capacity_) {
      return outcome::failure(dense_transfer_capacity_exceeded(capacity_));
    }
    const std::optional<std::uint64_t> expected = pending_.front();
    if (!expected) return outcome::failure(dense_transfer_no_pending_unit());
    if (*expected != index) return outcome::failure(dense_transfer_out_of_order(*expected, index));
    pending_.pop_front();
    ready_.emplace_back(index, std::move(transfer));
    return outcome::success();
  }

  /// Removes the oldest ready transfer, if any.
  std::optional<std::pair<std::uint64_t, T>> pop_ready() {
    if (ready_.empty()) return std::nullopt;
    std::pair<std::uint64_t, T> front = std::move(ready_.front());
    ready_.pop_front();
    return front;
  }

 private:
  DenseTransferSchedule(DensePendingUnits pending, std::uint64_t capacity)
      : capacity_(capacity), pending_(std::move(pending)) {}

  std::uint64_t capacity_;
  DensePendingUnits pending_;
  std::deque<std::pair<std::uint64_t, T>> ready_;
};

}  // namespace eredu
