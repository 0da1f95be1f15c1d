// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The load-request seed's completion vocabulary (docs/residency.md, "Load
// requests"): CompletionCancellationMode and CommunicationCompletionPolicy.
#pragma once

#include <cstdint>
#include <optional>

#include "core/result.hpp"

namespace eredu {

/// How a backend abandons work whose deadline passed. Values match
/// EREDU_CANCELLATION_*.
enum class CompletionCancellationMode : std::uint32_t {
  /// The backend cancels natively.
  NativeCancel = 0,
  /// The backend keeps orphaned work and its borrowed resources until exact
  /// completion is observed.
  QuarantineUntilComplete = 1,
};

std::optional<CompletionCancellationMode> cancellation_mode_from_value(std::uint32_t value);

/// Seed `CommunicationCompletionPolicy`: a whole-millisecond deadline and a
/// cancellation mode. Equality is on (milliseconds, mode). Immutable value.
class CommunicationCompletionPolicy {
 public:
  /// Valid if and only if `timeout_millis` is at least 1; there is no clock
  /// check. Errors: InvalidCompletionPolicy (900) `communication completion
  /// policy must have a positive millisecond deadline`.
  static Result<CommunicationCompletionPolicy> create(std::uint64_t timeout_millis,
                                                      CompletionCancellationMode cancellation);

  /// The deadline in milliseconds (at least 1).
  std::uint64_t timeout_millis() const { return timeout_millis_; }
  CompletionCancellationMode cancellation() const { return cancellation_; }

  friend bool operator==(const CommunicationCompletionPolicy&,
                         const CommunicationCompletionPolicy&) = default;

 private:
  CommunicationCompletionPolicy(std::uint64_t timeout_millis,
                                CompletionCancellationMode cancellation)
      : timeout_millis_(timeout_millis), cancellation_(cancellation) {}

  std::uint64_t timeout_millis_;
  CompletionCancellationMode cancellation_;
};

}  // namespace eredu
