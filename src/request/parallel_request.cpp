// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "request/parallel_request.hpp"

#include "request/load_request_error.hpp"

namespace eredu {

Result<ParallelLoadRequest> ParallelLoadRequest::create(const ParallelRankTopology& rank,
                                                        PipelineWireContract wire,
                                                        std::int32_t maximum_batch_size,
                                                        std::int32_t maximum_sequence_length,
                                                        CommunicationCompletionPolicy completion) {
  if (rank.is_replicated()) {
    return outcome::failure(load_request_error::replicated_parallel_topology());
  }
  if (maximum_batch_size <= 0 || maximum_sequence_length <= 0) {
    return outcome::failure(
        load_request_error::invalid_invocation_limits(maximum_batch_size, maximum_sequence_length));
  }
  return ParallelLoadRequest(rank, wire, maximum_batch_size, maximum_sequence_length, completion);
}

ParallelLoadRequest ParallelLoadRequest::with_completion(
    CommunicationCompletionPolicy completion) const {
  ParallelLoadRequest request = *this;
  request.completion_ = completion;
  return request;
}

bool operator==(const ParallelLoadRequest& left, const ParallelLoadRequest& right) {
  return left.rank_.topology() == right.rank_.topology() &&
         left.rank_.global_rank() == right.rank_.global_rank() && left.wire_ == right.wire_ &&
         left.maximum_batch_size_ == right.maximum_batch_size_ &&
         left.maximum_sequence_length_ == right.maximum_sequence_length_ &&
         left.completion_ == right.completion_;
}

}  // namespace eredu
