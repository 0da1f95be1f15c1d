// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The companion rule (docs/decisions.md, "Companion consistency"): on every
// tensor rank, the physical members of a matrix that format expansion
// produced select the same logical values, in whole blocks, groups and
// words.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/result.hpp"
#include "model/group.hpp"
#include "model/model.hpp"
#include "plan/placement.hpp"

namespace eredu {

/// Checks one tensor rank's selections of `matrix`: `placements` holds the
/// placement of each of its physical members, in member order (count of
/// them). Along every axis, the packed weight's selection must hold whole
/// cells (GGUF blocks, words of packed values), the logical values it holds
/// must start and end on every companion's blocks or groups (or end at the
/// axis end), and every companion must select exactly the blocks or groups
/// those values touch. Returns the first violation (axes ascending, then
/// members in order) naming the tensor, the axis, the interval and the width,
/// or nullopt. `tp_rank` and `tp_size` only word the message. Omitted
/// placements select nothing and are not passed here.
std::optional<std::string> companion_violation(const ParameterGroupSpec& group,
                                               const EncodedMatrix& matrix,
                                               std::span<const TensorPlacement* const> placements,
                                               std::uint64_t tp_rank, std::uint64_t tp_size);

/// Resolves every member of `group`'s encoded matrices on every tensor rank
/// of `tp_size` and checks the rule; rank-independent, so every rank of a
/// topology gets the same answer. Errors: InvalidTensor with the first
/// violation (matrices in member order, then tensor ranks ascending) and
/// the tensor sizes up to kTensorSizeSearch that would work; a resolution
/// error as resolve_member gives it. A group without encoded matrices, or
/// tp_size 1, always passes.
Result<void> check_companion_rule(const ParameterGroupSpec& group, std::uint64_t tp_size);

/// check_companion_rule of every group of a model at one tensor size, by
/// group index: nullopt where the rule holds. A world plan computes it once
/// and shares it with every rank.
using CompanionVerdicts = std::vector<std::optional<Error>>;
CompanionVerdicts companion_verdicts(const ModelDescription& model, std::uint64_t tp_size);

/// The tensor sizes in [1, limit] at which every member of `group` resolves
/// on every tensor rank and the companion rule holds, ascending.
std::vector<std::uint64_t> working_tensor_sizes(const ParameterGroupSpec& group,
                                                std::uint64_t limit);

}  // namespace eredu
