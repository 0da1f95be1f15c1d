// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Seed `DraftingLoadRequest` and the part of core's `DraftingPlan` it reads
// (docs/residency.md, "Load requests").
#pragma once

#include <cstdint>
#include <optional>

#include "core/result.hpp"

namespace eredu {

/// Which DraftingPlan. Values match EREDU_DRAFTING_PLAN_*. The seed enum is
/// non-exhaustive: a plan may carry a value outside these, which
/// NormalizedLoadRequest::with_drafting_plan rejects.
enum class DraftingPlanKind : std::uint32_t { Disabled = 0, Embedded = 1, External = 2 };

/// Core `DraftingPlan`, reduced to what a load request reads: the kind and,
/// for Embedded and External, the number of draft tokens proposed per target
/// step. The plan's lookahead flags and the external model and placement do
/// not influence the load request and are not carried.
struct DraftingPlan {
  DraftingPlanKind kind = DraftingPlanKind::Disabled;
  std::uint64_t max_draft_tokens = 0;

  friend bool operator==(const DraftingPlan&, const DraftingPlan&) = default;
};

/// Which DraftingLoadRequest. Values match EREDU_DRAFTING_*.
enum class DraftingLoadKind : std::uint32_t {
  /// Install an admitted embedded extension, as a direct load does.
  ArchitectureDefault = 0,
  /// Materialize only the ordinary target.
  Disabled = 1,
  /// Require and install an embedded extension with a proposal bound.
  Embedded = 2,
  /// Prepare only the ordinary target for later external-assistant pairing.
  ExternalTarget = 3,
};

std::optional<DraftingLoadKind> drafting_load_kind_from_value(std::uint32_t value);

/// Seed `DraftingLoadRequest`: portable drafting intent resolved before
/// checkpoint payload selection. Default ArchitectureDefault. Immutable value.
class DraftingLoadRequest {
 public:
  DraftingLoadRequest() = default;
  static DraftingLoadRequest architecture_default() { return {}; }
  static DraftingLoadRequest disabled() { return DraftingLoadRequest(DraftingLoadKind::Disabled); }
  static DraftingLoadRequest external_target() {
    return DraftingLoadRequest(DraftingLoadKind::ExternalTarget);
  }
  /// Errors: ZeroEmbeddedDraftCapacity (605) when max_draft_tokens is 0.
  static Result<DraftingLoadRequest> embedded(std::uint64_t max_draft_tokens);

  DraftingLoadKind kind() const { return kind_; }
  /// The embedded proposal capacity (at least 1), only for Embedded.
  std::optional<std::uint64_t> embedded_capacity() const;

  friend bool operator==(const DraftingLoadRequest&, const DraftingLoadRequest&) = default;

 private:
  explicit DraftingLoadRequest(DraftingLoadKind kind, std::uint64_t max_draft_tokens = 0)
      : kind_(kind), max_draft_tokens_(max_draft_tokens) {}

  DraftingLoadKind kind_ = DraftingLoadKind::ArchitectureDefault;
  std::uint64_t max_draft_tokens_ = 0;  // Embedded only
};

}  // namespace eredu
