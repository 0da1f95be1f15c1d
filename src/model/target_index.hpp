// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// A compact set of the targets registered so far, for duplicate detection
// while a description is built (4 bytes a slot, open addressing).
#pragma once

#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

namespace eredu {

class TargetIndex {
 public:
  /// `target_of(i)` returns the target of flat member i; it must stay valid
  /// for every index inserted.
  using TargetOf = std::function<std::string_view(std::uint32_t)>;

  explicit TargetIndex(TargetOf target_of) : target_of_(std::move(target_of)) {}

  bool contains(std::string_view target) const;
  /// Inserts flat member `index` (whose target must not be present yet).
  void insert(std::uint32_t index);
  /// Frees the table.
  void clear();

 private:
  void grow();

  TargetOf target_of_;
  std::vector<std::uint32_t> slots_;  // flat index + 1; 0 is empty
  std::size_t size_ = 0;
};

}  // namespace eredu
