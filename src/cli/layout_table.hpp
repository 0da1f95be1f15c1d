// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// `eredu plan --rank R` as a table.
#pragma once

#include <string>

#include "cli/json.hpp"

namespace eredu::cli {

/// A header naming the rank, one row per tensor (target, placement, local
/// shape, bytes) and the totals, from an eredu.layout.v1 document.
std::string layout_table(const Json& layout);

}  // namespace eredu::cli
