// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Strict validation of values a streaming reader skips: On-Demand leaves
// them unchecked, yet an eredu document must be valid JSON throughout.
#pragma once

#include <cstdint>

#include "core/result.hpp"
#include "interchange/json_path.hpp"

namespace eredu::json {

/// Nesting bound for content that is only validated (unknown fields,
/// rejected values); simdjson's own default. Bounds the walk's memory.
inline constexpr std::uint32_t kMaxDepth = 1024;

/// Walks `value`, consuming it, so that syntax errors, invalid numbers and
/// literals and duplicate keys inside it are found (Parse, located by the
/// pointer). Iterative: nesting costs heap, not stack, up to kMaxDepth.
Read<void> validate(od::value& value, const Path& path);

}  // namespace eredu::json
