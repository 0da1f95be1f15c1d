// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Reference `resolve_member` (docs/planning.md, "Member resolution"): one
// member's placement and local shape on one tensor-parallel coordinate.
#pragma once

#include <cstdint>
#include <optional>

#include "core/result.hpp"
#include "model/group.hpp"
#include "plan/layout.hpp"
#include "plan/placement.hpp"

namespace eredu {

/// A resolved member: its placement and the local length of the placement's
/// axis (the rest of the local shape is the global shape). Building shapes
/// only for materialized tensors keeps planning allocation-free for the
/// tensors a rank omits.
struct ResolvedMember {
  TensorPlacement placement;
  std::uint64_t local_length = 0;  // of placement.axis; unused for Replicated

  /// The rank-local shape of `member` under this resolution.
  LocalShape local_shape(const ParameterMemberSpec& member) const;
};

/// Resolves `member` for tensor-parallel rank `tp_rank` of `tp_size` with the
/// group's `partition_units`. `even` (require_even): a balanced extent,
/// partition units or segment that does not split exactly is refused too.
/// Errors: InvalidTensor with the reference text (without the "logical
/// parameter" prefix).
Result<ResolvedMember> resolve_member(const ParameterMemberSpec& member,
                                      std::optional<std::uint64_t> partition_units,
                                      std::uint64_t tp_size, std::uint64_t tp_rank,
                                      bool even = false);

}  // namespace eredu
