// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The byte-wise order of a description's targets (ModelDescription's
// by_target).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace eredu {

/// The indices of `targets` in byte-wise order of the targets, which must
/// be unique and hold no NUL (as ParameterGroupSpec ensures).
std::vector<std::uint32_t> order_by_target(std::span<const std::string_view> targets);

/// order_by_target of targets that come one at a time: every run of
/// kRun targets is sorted and merged into the order so far when it is
/// complete, so that the order at the end only sorts and merges the last
/// run. A model builder whose groups come from a reader on another thread
/// sorts while it reads.
class TargetOrder {
 public:
  static constexpr std::size_t kRun = std::size_t{1} << 14;

  /// Room for `count` more targets.
  void reserve(std::size_t count);
  /// Adds the next target. It must stay valid until `order` and, with the
  /// others, be unique and hold no NUL.
  void add(std::string_view target);
  /// The indices of the added targets, in the order they were added, in
  /// byte-wise order of the targets. Leaves nothing behind.
  std::vector<std::uint32_t> order() &&;

 private:
  void sort_pending();

  std::vector<std::string_view> targets_;
  std::vector<std::uint32_t> sorted_;  // the indices of the runs so far, in order
};

}  // namespace eredu
