// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Groups that plan alike: a DeepSeek-V3 description has 15,000 routed-expert
// groups that differ only in their names, layer and expert, so the planner
// resolves one of them per rank and the rest reuse the answer.
#pragma once

#include <cstdint>
#include <vector>

#include "model/group.hpp"

namespace eredu {

/// Sorts `groups` into classes that plan alike: same role, partition and
/// query units, vocabulary padding, scope kind and whether the scope names
/// an expert, members with the same dtypes, shapes and shardings, and the
/// same encoded matrices and formats; names (of the group, its members and
/// their companions) and the layer or expert of the scope do not count.
/// Returns each group's class, numbered from 0 in order of first appearance.
/// O(groups + members).
std::vector<std::uint32_t> group_classes(const std::vector<ParameterGroupSpec>& groups);

}  // namespace eredu
