// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Tiling of one tensor over one tensor-parallel group (docs/planning.md, "The
// coverage proof").
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "model/group.hpp"
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
/// `domain`, ascending ranges of that axis (else a gap problem): the whole
/// axis when nullopt (equal / balanced / partitioned), the segments for
/// partitioned_segments / segmented. Selections on another axis than the
/// others' are an overlap. With `copies` > 1 (a per_kv_head member under
/// KV-head replication) every selection must be held by exactly `copies`
/// ranks with identical ranges, and the distinct selections tile the domain;
/// another count is an overlap. Appends at most one problem of each kind to
/// `out`.
void check_tiling(const ParameterMemberSpec& member,
                  const std::optional<std::vector<IndexRange>>& domain,
                  std::span<const HeldPlacement> held, std::uint64_t copies,
                  std::vector<CoverageProblem>& out);

}  // namespace eredu
