// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The rank planner (docs/planning.md, "Planning one rank"; docs/interchange.md,
// "Planning errors").
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "core/result.hpp"
#include "model/model.hpp"
#include "plan/companion_rule.hpp"
#include "plan/layout.hpp"
#include "topology/topology.hpp"

namespace eredu {

/// Below this many tensors a second thread costs more than it saves.
inline constexpr std::size_t kParallelTensors = 16384;

/// Plans global `rank` of `topology` for `model`: a complete layout or an
/// error, never anything in between. Errors in order: ZeroAxis /
/// WorldSizeOverflow / RankOutOfRange; MissingLayerCount /
/// MissingExpertCount / EmptyPartition (preflight); then per group in
/// document order InvalidTensor (resolution or the companion rule under
/// Require, placement validation under either policy). A group with encoded
/// matrices is checked against the companion rule on every tensor rank
/// (rank-independent); `verdicts`, when given, holds those answers for this
/// topology's tensor size, computed once by companion_verdicts. Pure;
/// thread-safe. A description of kParallelTensors tensors or more is
/// planned on up to `threads` threads, the calling one included (0: two; 1:
/// no helper thread is started): groups are split into contiguous spans
/// whose results are merged in document order, so the layout and the
/// reported error do not depend on the thread count.
Result<LocalModelLayout> plan_rank(const std::shared_ptr<const ModelDescription>& model,
                                   const ParallelTopology& topology, std::uint64_t rank,
                                   ShardingPolicy policy, unsigned threads = 0,
                                   const CompanionVerdicts* verdicts = nullptr);

/// plan_rank writing its layout into `layout`, whose memory is reused: a
/// caller planning many ranks of one description (a world, a plan file)
/// allocates and clears a layout's tensor entries once instead of once per
/// rank. Every field of `layout` is replaced on success; on failure it holds
/// no plan (only its memory is worth keeping). Errors: plan_rank's.
Result<void> plan_rank_into(const std::shared_ptr<const ModelDescription>& model,
                            const ParallelTopology& topology, std::uint64_t rank,
                            ShardingPolicy policy, unsigned threads,
                            const CompanionVerdicts* verdicts, LocalModelLayout& layout);

/// Whether the rank owns a group of scope `scope` (docs/planning.md,
/// "Ownership"), given its layer and expert ranges (local_ranges).
bool owns_scope(const GroupScope& scope, const ParallelRankTopology& rank,
                const LocalRanges& ranges);

/// Each member's local bytes (nullopt for a member without a dtype) of
/// group `group` (an index into model.groups()) on `rank` as if the rank
/// owned the group, whatever its scope: what plan_rank gives that group's
/// tensors on an owning rank. `ranges` are the rank's local_ranges. Errors:
/// plan_rank's errors for that one group (InvalidTensor). Pure; thread-safe.
Result<std::vector<std::optional<std::uint64_t>>> owned_group_bytes(
    const ModelDescription& model, std::uint32_t group, const ParallelRankTopology& rank,
    const LocalRanges& ranges, ShardingPolicy policy);

}  // namespace eredu
