// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "model/target_order.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <utility>

namespace eredu {
namespace {

// A target, by its index, with the key it is sorted by at the current
// depth. 16 bytes, so that partitioning moves little.
struct KeyedTarget {
  std::uint64_t key = 0;
  std::uint64_t index = 0;  // 64 bits: a swap moves the struct whole
};

// A range of `KeyedTarget`s left to sort, whose targets agree before
// `depth`; `loaded` when their keys are those at `depth`.
struct Run {
  std::size_t begin = 0;
  std::size_t end = 0;
  std::size_t depth = 0;
  bool loaded = false;
};

// Runs this short are sorted by whole comparisons.
constexpr std::size_t kShortRun = 16;

// The 8 bytes of `target` from `depth` on, zero-padded, as a number that
// orders like them byte-wise.
std::uint64_t chunk_at(std::string_view target, std::size_t depth) {
  std::uint64_t key = 0;
  if (target.size() >= depth + 8) {
    std::memcpy(&key, target.data() + depth, sizeof key);
    return std::endian::native == std::endian::little ? __builtin_bswap64(key) : key;
  }
  for (std::size_t i = depth; i < target.size(); ++i) {
    key |= std::uint64_t{static_cast<unsigned char>(target[i])} << (8 * (depth + 7 - i));
  }
  return key;
}

// Splits `run` by the median of three of its keys, with the keys below it
// first, then those equal to it, then those above (Dijkstra's three-way
// partition); returns where the equal keys begin and end.
std::pair<KeyedTarget*, KeyedTarget*> partition(KeyedTarget* first, KeyedTarget* last) {
  const std::uint64_t a = first->key;
  const std::uint64_t b = first[(last - first) / 2].key;
  const std::uint64_t c = last[-1].key;
  const std::uint64_t pivot = std::max(std::min(a, b), std::min(std::max(a, b), c));
  KeyedTarget* below = first;
  KeyedTarget* above = last;
  for (KeyedTarget* at = first; at < above;) {
    if (at->key < pivot) {
      std::swap(*below++, *at++);
    } else if (at->key > pivot) {
      std::swap(*at, *--above);
    } else {
      ++at;
    }
  }
  return {below, above};
}

}  // namespace

// Multikey quicksort (Bentley and Sedgewick) on 8-byte chunks: targets that
// share a long prefix, as most do, compare their cached chunks instead of
// the whole prefix per pair. Holding no NUL, targets with equal chunks are
// the same target when one ends inside the chunk (zero padding); otherwise
// each holds the whole chunk and may go on.
std::vector<std::uint32_t> order_by_target(std::span<const std::string_view> targets) {
  std::vector<KeyedTarget> keyed(targets.size());
  for (std::size_t i = 0; i < targets.size(); ++i) keyed[i].index = i;
  const auto less_from = [&](std::size_t depth) {
    return [&targets, depth](const KeyedTarget& a, const KeyedTarget& b) {
      if (a.key != b.key) return a.key < b.key;
      const std::string_view left = targets[a.index];
      return left.size() >= depth + 8 &&
             left.substr(depth + 8) < targets[b.index].substr(depth + 8);
    };
  };
  std::vector<Run> pending{{0, keyed.size(), 0, false}};  // a stack: no recursion on long targets
  while (!pending.empty()) {
    const Run run = pending.back();
    pending.pop_back();
    KeyedTarget* const first = keyed.data() + run.begin;
    KeyedTarget* const last = keyed.data() + run.end;
    if (!run.loaded) {
      for (KeyedTarget* at = first; at != last; ++at) {
        at->key = chunk_at(targets[at->index], run.depth);
      }
    }
    if (run.end - run.begin <= kShortRun) {
      std::sort(first, last, less_from(run.depth));
      continue;
    }
    const auto [equal, above] = partition(first, last);
    const auto offset = [&](const KeyedTarget* at) {
      return static_cast<std::size_t>(at - keyed.data());
    };
    if (first != equal) pending.push_back({run.begin, offset(equal), run.depth, true});
    if (above != last) pending.push_back({offset(above), run.end, run.depth, true});
    if (above - equal > 1 && targets[equal->index].size() >= run.depth + 8) {
      pending.push_back({offset(equal), offset(above), run.depth + 8, false});
    }
  }
  std::vector<std::uint32_t> order;
  order.reserve(keyed.size());
  for (const KeyedTarget& target : keyed) order.push_back(static_cast<std::uint32_t>(target.index));
  return order;
}

void TargetOrder::reserve(std::size_t count) {
  targets_.reserve(targets_.size() + count);
  sorted_.reserve(sorted_.size() + count);
}

void TargetOrder::add(std::string_view target) {
  targets_.push_back(target);
  if (targets_.size() - sorted_.size() >= kRun) sort_pending();
}

// Sorts the targets added since the last run and merges them into the
// order so far.
void TargetOrder::sort_pending() {
  const std::size_t first = sorted_.size();
  const std::vector<std::uint32_t> run =
      order_by_target(std::span<const std::string_view>(targets_).subspan(first));
  for (std::uint32_t index : run) sorted_.push_back(static_cast<std::uint32_t>(first + index));
  const auto middle = sorted_.begin() + static_cast<std::ptrdiff_t>(first);
  std::inplace_merge(
      sorted_.begin(), middle, sorted_.end(),
      [this](std::uint32_t a, std::uint32_t b) { return targets_[a] < targets_[b]; });
}

std::vector<std::uint32_t> TargetOrder::order() && {
  if (sorted_.size() < targets_.size()) sort_pending();
  targets_ = {};
  return std::move(sorted_);
}

}  // namespace eredu
