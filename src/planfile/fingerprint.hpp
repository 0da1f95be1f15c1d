// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The fingerprint of a plan file: what it was planned from (docs/plan-files.md,
// "Fingerprint").
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "model/model.hpp"
#include "plan/layout.hpp"
#include "topology/topology.hpp"

namespace eredu {

/// An XXH3-128 hash, as its two 64-bit halves.
struct Fingerprint {
  std::uint64_t high = 0;
  std::uint64_t low = 0;

  bool operator==(const Fingerprint&) const = default;
  /// 32 lowercase hex digits, high half first (XXH128's canonical form).
  std::string hex() const;
};

/// XXH3-128 over the description's canonical eredu.groups.v1 text, the
/// topology with its pipeline stages, the policy and `library_version`, each
/// framed as docs/plan-files.md says. Never fails.
Fingerprint plan_fingerprint(const ModelDescription& model, const ParallelTopology& topology,
                             ShardingPolicy policy, std::string_view library_version);

}  // namespace eredu
