// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "request/drafting.hpp"

#include "request/load_request_error.hpp"

namespace eredu {

std::optional<DraftingLoadKind> drafting_load_kind_from_value(std::uint32_t value) {
  if (value > static_cast<std::uint32_t>(DraftingLoadKind::ExternalTarget)) return std::nullopt;
  return static_cast<DraftingLoadKind>(value);
}

Result<DraftingLoadRequest> DraftingLoadRequest::embedded(std::uint64_t max_draft_tokens) {
  if (max_draft_tokens == 0) {
    return outcome::failure(load_request_error::zero_embedded_draft_capacity());
  }
  return DraftingLoadRequest(DraftingLoadKind::Embedded, max_draft_tokens);
}

std::optional<std::uint64_t> DraftingLoadRequest::embedded_capacity() const {
  if (kind_ != DraftingLoadKind::Embedded) return std::nullopt;
  return max_draft_tokens_;
}

}  // namespace eredu
