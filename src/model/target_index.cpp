// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "model/target_index.hpp"

namespace eredu {

bool TargetIndex::contains(std::string_view target) const {
  if (slots_.empty()) return false;
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t slot = std::hash<std::string_view>{}(target)&mask;; slot = (slot + 1) & mask) {
    if (slots_[slot] == 0) return false;
    if (target_of_(slots_[slot] - 1) == target) return true;
  }
}

void TargetIndex::insert(std::uint32_t index) {
  if ((size_ + 1) * 2 > slots_.size()) grow();
  const std::size_t mask = slots_.size() - 1;
  std::size_t slot = std::hash<std::string_view>{}(target_of_(index)) & mask;
  while (slots_[slot] != 0) slot = (slot + 1) & mask;
  slots_[slot] = index + 1;
  size_ += 1;
}

void TargetIndex::grow() {
  std::vector<std::uint32_t> old = std::move(slots_);
  slots_.assign(old.empty() ? 64 : old.size() * 2, 0);
  size_ = 0;
  for (std::uint32_t entry : old) {
    if (entry != 0) insert(entry - 1);
  }
}

void TargetIndex::clear() {
  slots_ = {};
  size_ = 0;
}

}  // namespace eredu
