// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "request/completion.hpp"

namespace eredu {

std::optional<CompletionCancellationMode> cancellation_mode_from_value(std::uint32_t value) {
  if (value > static_cast<std::uint32_t>(CompletionCancellationMode::QuarantineUntilComplete)) {
    return std::nullopt;
  }
  return static_cast<CompletionCancellationMode>(value);
}

Result<CommunicationCompletionPolicy> CommunicationCompletionPolicy::create(
    std::uint64_t timeout_millis, CompletionCancellationMode cancellation) {
  if (timeout_millis == 0) {
    return fail(Status::InvalidCompletionPolicy,
                "communication completion policy must have a positive millisecond deadline");
  }
  return CommunicationCompletionPolicy(timeout_millis, cancellation);
}

}  // namespace eredu
