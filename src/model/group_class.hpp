// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Groups that plan alike: a DeepSeek-V3 description has 15,000 routed-expert
// groups that differ only in their names, layer and expert, so the planner
// resolves one of them per rank and the rest reuse the answer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "model/group.hpp"

namespace eredu {

/// Sorts groups, one at a time, into classes that plan alike: same role,
/// partition and query units, vocabulary padding, scope kind and whether the
/// scope names an expert, members with the same dtypes, shapes and
/// shardings, and the same encoded matrices and formats; names (of the
/// group, its members and their companions) and the layer or expert of the
/// scope do not count. Classes are numbered from 0 in order of first
/// appearance. O(members) per group.
class GroupClassifier {
 public:
  /// The class of `group`, a new one when no earlier group plans alike.
  std::uint32_t classify(const ParameterGroupSpec& group);
  /// The number of classes so far.
  std::uint32_t class_count() const { return static_cast<std::uint32_t>(formats_.size()); }

 private:
  struct SignatureHash {
    std::size_t operator()(const std::vector<std::uint64_t>& signature) const;
  };
  // Classes by signature; those of one signature differ in their formats.
  std::unordered_map<std::vector<std::uint64_t>, std::vector<std::uint32_t>, SignatureHash>
      buckets_;
  std::vector<std::vector<LinearFormatSpec>> formats_;  // by class
  std::vector<std::uint64_t> signature_;  // reused: a known signature allocates nothing
};

}  // namespace eredu
