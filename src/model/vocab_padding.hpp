// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// A whole description with its vocabulary rows padded (`--pad-vocab`,
// docs/planning.md, "Vocabulary padding").
#pragma once

#include <cstdint>
#include <memory>

#include "core/result.hpp"
#include "model/model.hpp"

namespace eredu {

/// Whether `group` can take a vocabulary padding: role Vocabulary and a
/// balanced member.
bool pads_vocabulary(const ParameterGroupSpec& group);

/// A copy of `model` in which every group that pads_vocabulary has
/// vocab_pad_multiple `multiple` (replacing one it had). Errors:
/// InvalidArgument when `multiple` is 0 or no group can take it; then
/// with_vocab_pad_multiple's InvalidGroup (balanced members of different
/// extents).
/// `model` is unchanged. Thread-safe.
Result<std::shared_ptr<const ModelDescription>> pad_vocabulary(const ModelDescription& model,
                                                               std::uint64_t multiple);

}  // namespace eredu
