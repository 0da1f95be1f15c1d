// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Describing a folder whose checkpoint files are present: the headers'
// tensor names, dtypes and shapes against the family's description
// (docs/describe.md, "Checkpoint files").
#pragma once

#include <string>
#include <vector>

#include "checkpoint/checkpoint.hpp"
#include "checkpoint/weight_index.hpp"
#include "core/result.hpp"
#include "model/group.hpp"
#include "model/model.hpp"

namespace eredu {

/// The weight index of a checkpoint without an index file: its tensor
/// names, the sum of their stored bytes as total_size, and `file`.
WeightIndex index_from_checkpoint(const Checkpoint& checkpoint, std::string file);

/// `groups` with every member whose stored tensor has the member's shape and
/// another element dtype given the stored dtype (a checkpoint that keeps its
/// norms in F32 while config.json says bfloat16). Groups without such a
/// member are returned unchanged. Errors: none in practice (the rebuilt
/// groups are the same groups with other dtypes).
Result<std::vector<ParameterGroupSpec>> adopt_stored_dtypes(std::vector<ParameterGroupSpec> groups,
                                                            const Checkpoint& checkpoint);

/// Every described member the checkpoint holds has its stored shape (a GGUF
/// block type's row axis in bytes) and, when the member has a dtype, an
/// element of the stored type. Errors: CheckpointMismatch naming the first
/// member in document order that differs, with both shapes and types and
/// the file that stores it.
Result<void> check_stored_shapes(const ModelDescription& model, const Checkpoint& checkpoint);

}  // namespace eredu
