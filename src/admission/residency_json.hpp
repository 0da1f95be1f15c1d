// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Loading `eredu.residency.v1` weight-residency policies (`eredu residency`,
// docs/residency.md): a seed WeightResidency as JSON.
#pragma once

#include <string_view>

#include "core/result.hpp"
#include "residency/weight_residency.hpp"

namespace eredu {

/// The schema word of a residency policy document.
inline constexpr std::string_view kResidencySchema = "eredu.residency.v1";

/// Loads an `eredu.residency.v1` policy. Errors, in this order:
/// 1. Parse: invalid UTF-8, JSON syntax, a duplicate key in any object, a
///    root that is not an object;
/// 2. Parse when `schema` is missing or not a string; UnsupportedVersion for
///    `eredu.residency.v<N>` other than v1; Parse for any other string;
/// 3. Parse for structure, the message starting with the JSON pointer:
///    unknown fields first (document order), then the fields in the order
///    docs/residency.md lists them: `kind` missing or not a known word, a
///    field the kind has no option for, a wrong type, an integer that is not
///    a plain token fitting 64 bits, an unknown eviction word; then the same
///    inside `parameter_bank_cache`;
/// 4. the seed's construction: layerwise host OffloadConfig (ZeroPrefetch-
///    Depth); dense disk stream options (HostDisabledControls,
///    ZeroHostLookahead, ZeroQueueCapacity); then the bank cache's
///    OffloadConfig (ZeroPrefetchDepth) and ParameterBankLoadOptions
///    (ZeroParameterBankScratchLimit, ZeroParameterBankPrefillTarget,
///    ParameterBankPrefillTargetExceedsScratch).
/// `null` for an optional field is the same as leaving it out; absent
/// options take the seed's defaults (dense disk stream: lookahead and queue
/// capacity 0 when the host budget is 0, else 2).
Result<WeightResidency> load_residency_json(std::string_view text);

}  // namespace eredu
