// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Seed `ParallelLoadRequest`: rank, activation wire, invocation limits
// and completion policy selected as one atomic request.
#pragma once

#include <cstdint>
#include <utility>

#include "core/result.hpp"
#include "request/completion.hpp"
#include "request/wire.hpp"
#include "topology/topology.hpp"

namespace eredu {

class NormalizedLoadRequest;

/// A validated portable parallel-execution request. Immutable value.
class ParallelLoadRequest {
 public:
  /// Seed `ParallelLoadRequest::new`. Errors in order:
  /// ReplicatedParallelTopology (602) when the rank's world size is 1;
  /// InvalidInvocationLimits (601) when either limit is <= 0.
  static Result<ParallelLoadRequest> create(const ParallelRankTopology& rank,
                                            PipelineWireContract wire,
                                            std::int32_t maximum_batch_size,
                                            std::int32_t maximum_sequence_length,
                                            CommunicationCompletionPolicy completion);

  const ParallelRankTopology& rank() const { return rank_; }
  PipelineWireContract wire() const { return wire_; }
  /// (maximum batch size, maximum sequence length), both positive.
  std::pair<std::int32_t, std::int32_t> invocation_limits() const {
    return {maximum_batch_size_, maximum_sequence_length_};
  }
  CommunicationCompletionPolicy completion() const { return completion_; }

  /// Equal ranks have equal topologies and global ranks (the rest derives).
  friend bool operator==(const ParallelLoadRequest& left, const ParallelLoadRequest& right);

 private:
  friend class NormalizedLoadRequest;

  ParallelLoadRequest(const ParallelRankTopology& rank, PipelineWireContract wire,
                      std::int32_t maximum_batch_size, std::int32_t maximum_sequence_length,
                      CommunicationCompletionPolicy completion)
      : rank_(rank),
        wire_(wire),
        maximum_batch_size_(maximum_batch_size),
        maximum_sequence_length_(maximum_sequence_length),
        completion_(completion) {}

  ParallelLoadRequest with_completion(CommunicationCompletionPolicy completion) const;

  ParallelRankTopology rank_;
  PipelineWireContract wire_;
  std::int32_t maximum_batch_size_;
  std::int32_t maximum_sequence_length_;
  CommunicationCompletionPolicy completion_;
};

}  // namespace eredu
