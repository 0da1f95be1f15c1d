// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Coverage of a whole-world plan (docs/planning.md, "The coverage proof"):
// ownership and tiling.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "model/model.hpp"
#include "plan/layout.hpp"
#include "topology/topology.hpp"

namespace eredu {

/// Problem kinds, in their sort order (the JSON words, byte-wise).
enum class CoverageKind : std::uint32_t { Companion = 0, Gap = 1, Overlap = 2, Ownership = 3 };

/// "companion", "gap", "overlap", "ownership".
std::string_view coverage_kind_name(CoverageKind kind);

/// One coverage problem: what is wrong with `target` and on which ranks.
struct CoverageProblem {
  std::string target;
  CoverageKind problem = CoverageKind::Gap;
  std::string detail;                // the numbers: axis, element ranges, scope
  std::vector<std::uint64_t> ranks;  // ascending
  friend bool operator==(const CoverageProblem&, const CoverageProblem&) = default;
};

/// Checks every tensor of `model` over the layouts of one tensor-parallel
/// group (the T ranks sharing pipeline, expert and data coordinates, any
/// order): ownership (owning ranks materialize, others omit, owners computed
/// from the scope and the topology), tiling (all complete, or selections on
/// the sharded axis pairwise disjoint and covering the declared domain; for a
/// member of an encoded matrix, the domain of its logical declaration mapped
/// onto the physical axis), and the companion rule on each rank's own
/// placements of every encoded matrix (plan/companion_rule.hpp), whatever
/// the planner decided.
/// Appends problems to `out`. Errors: Internal when a layout does not list
/// the model's tensors in target order; RankOutOfRange when a layout's rank
/// is outside `topology`; scope_owned_by's errors.
Result<void> check_tensor_parallel_group(const ModelDescription& model,
                                         const ParallelTopology& topology,
                                         std::span<const LocalModelLayout> layouts,
                                         std::vector<CoverageProblem>& out);

/// Merges problems that differ only in their ranks (the same fault in several
/// tensor-parallel groups) and sorts by target, problem, detail.
std::vector<CoverageProblem> merge_problems(std::vector<CoverageProblem> problems);

}  // namespace eredu
