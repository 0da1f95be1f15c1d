// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "model/target_index.hpp"

#include <algorithm>
#include <bit>
#include <utility>

#include <xxhash.h>

namespace eredu {

// 32 bits: a table of more than 2^32 slots probes from its first 2^32 only,
// which stays correct.
std::uint32_t TargetIndex::hash(std::string_view target) {
  const XXH64_hash_t full = XXH3_64bits(target.data(), target.size());
  return static_cast<std::uint32_t>(full ^ (full >> 32));
}

bool TargetIndex::contains(std::string_view target, std::uint32_t hash) const {
  if (slots_.empty()) return false;
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t slot = hash & mask;; slot = (slot + 1) & mask) {
    const Slot& at = slots_[slot];
    if (at.entry == 0) return false;
    if (at.hash == hash && target_of_(at.entry - 1) == target) return true;
  }
}

void TargetIndex::prefetch(std::uint32_t hash) const {
  if (!slots_.empty()) __builtin_prefetch(&slots_[hash & (slots_.size() - 1)]);
}

void TargetIndex::insert(std::uint32_t index, std::uint32_t hash) {
  reserve(size_ + 1);
  place(Slot{index + 1, hash});
  size_ += 1;
}

// At most half of the slots are in use.
void TargetIndex::reserve(std::size_t count) {
  if (count * 2 <= slots_.size()) return;
  rehash(std::max<std::size_t>(64, std::bit_ceil(count * 2)));
}

void TargetIndex::rehash(std::size_t slot_count) {
  std::vector<Slot> old = std::exchange(slots_, std::vector<Slot>(slot_count));
  for (const Slot& slot : old) {
    if (slot.entry != 0) place(slot);
  }
}

void TargetIndex::place(Slot slot) {
  const std::size_t mask = slots_.size() - 1;
  std::size_t at = slot.hash & mask;
  while (slots_[at].entry != 0) at = (at + 1) & mask;
  slots_[at] = slot;
}

void TargetIndex::clear() {
  slots_ = {};
  size_ = 0;
}

}  // namespace eredu
