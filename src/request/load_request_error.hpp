// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Seed `NormalizedLoadRequestError`: one constructor per variant, with the
// variant's Status code (docs/status.md, block 600) and the seed's text.
#pragma once

#include <cstdint>
#include <string>

#include "core/result.hpp"

namespace eredu::load_request_error {

/// 600 `source reader-cache limit must be positive`.
Error zero_cached_shards();
/// 601 `partitioned invocation limits must be positive, got batch B and
/// sequence S`.
Error invalid_invocation_limits(std::int32_t maximum_batch_size,
                                std::int32_t maximum_sequence_length);
/// 602 `explicit parallel execution requires a non-replicated topology`.
Error replicated_parallel_topology();
/// 603 `parallel execution cannot replace an existing local completion
/// policy`.
Error conflicting_completion_policy();
/// 604 `a communication completion policy requires a parallel topology`.
Error orphaned_model_completion();
/// 605 `embedded draft capacity must be positive`.
Error zero_embedded_draft_capacity();
/// 606 `unsupported speculative drafting plan`.
Error unsupported_drafting_plan();
/// 607 with the completion policy's own message.
Error completion(std::string message);
/// 608 with the lowering's message.
Error quantization(std::string message);

}  // namespace eredu::load_request_error
