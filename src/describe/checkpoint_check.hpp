// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Proves that a description matches its checkpoint's weight index.
#pragma once

#include "checkpoint/weight_index.hpp"
#include "core/result.hpp"
#include "model/model.hpp"

namespace eredu {

/// Every index tensor is described exactly once and the described bytes
/// equal `metadata.total_size` (when the index gives one). Errors: CheckpointMismatch listing the
/// first missing and extra names with their counts, or else both byte totals and their difference.
Result<void> check_checkpoint(const ModelDescription& model, const WeightIndex& index);

}  // namespace eredu
