// Tiling of one tensor over one tensor-parallel group (interchange §3).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "plan/group.hpp"
#include "plan/placement.hpp"
#include "world/coverage.hpp"

namespace eredu {

/// One rank's materialized placement of the tensor.
struct HeldPlacement {
  std::uint64_t rank = 0;
  const TensorPlacement* placement = nullptr;
};

/// Either every holder has `member` complete, or their selections on the
/// sharded axis are pairwise disjoint (else an overlap problem) and cover
/// the declared domain: [0, dim) for equal / balanced / partitioned, the
/// union of the segments for partitioned_segments / segmented (else a gap
/// problem). Selections on another axis than the others' are an overlap.
/// Appends at most one problem of each kind to `out`.
void check_tiling(const ParameterMemberSpec& member, std::span<const HeldPlacement> held,
                  std::vector<CoverageProblem>& out);

}  // namespace eredu
