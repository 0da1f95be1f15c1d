// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "request/load_request_error.hpp"

#include <utility>

namespace eredu::load_request_error {

Error zero_cached_shards() {
  return {Status::ZeroCachedShards, "source reader-cache limit must be positive"};
}

Error invalid_invocation_limits(std::int32_t maximum_batch_size,
                                std::int32_t maximum_sequence_length) {
  return {Status::InvalidInvocationLimits,
          fmt::format("partitioned invocation limits must be positive, got batch {} and "
                      "sequence {}",
                      maximum_batch_size, maximum_sequence_length)};
}

Error replicated_parallel_topology() {
  return {Status::ReplicatedParallelTopology,
          "explicit parallel execution requires a non-replicated topology"};
}

Error conflicting_completion_policy() {
  return {Status::ConflictingCompletionPolicy,
          "parallel execution cannot replace an existing local completion policy"};
}

Error orphaned_model_completion() {
  return {Status::OrphanedModelCompletion,
          "a communication completion policy requires a parallel topology"};
}

Error zero_embedded_draft_capacity() {
  return {Status::ZeroEmbeddedDraftCapacity, "embedded draft capacity must be positive"};
}

Error unsupported_drafting_plan() {
  return {Status::UnsupportedDraftingPlan, "unsupported speculative drafting plan"};
}

Error completion(std::string message) { return {Status::Completion, std::move(message)}; }

Error quantization(std::string message) { return {Status::Quantization, std::move(message)}; }

}  // namespace eredu::load_request_error
