// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// A compact set of the targets registered so far, for duplicate detection
// while a description is built (8 bytes a slot, open addressing). Each slot
// keeps its target's hash: only equal hashes compare targets, and growing
// hashes nothing again.
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

  /// The hash `contains` and `insert` take for `target`.
  static std::uint32_t hash(std::string_view target);

  bool contains(std::string_view target, std::uint32_t hash) const;
  /// Starts loading the slot where `contains` and `insert` begin for `hash`.
  void prefetch(std::uint32_t hash) const;
  /// Inserts flat member `index`, whose target hashes to `hash` and must not
  /// be present yet.
  void insert(std::uint32_t index, std::uint32_t hash);
  /// Room for `count` targets in all without growing.
  void reserve(std::size_t count);
  /// Frees the table.
  void clear();

 private:
  struct Slot {
    std::uint32_t entry = 0;  // flat index + 1; 0 is empty
    std::uint32_t hash = 0;
  };

  void rehash(std::size_t slot_count);
  void place(Slot slot);

  TargetOf target_of_;
  std::vector<Slot> slots_;
  std::size_t size_ = 0;
};

}  // namespace eredu
