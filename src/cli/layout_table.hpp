// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// `eredu plan --rank R` as a table.
#pragma once

#include <string>

#include "plan/layout.hpp"

namespace eredu {

/// A header naming the rank, one row per tensor (target, placement, local
/// shape, bytes) and the totals.
std::string layout_table(const LocalModelLayout& layout);

}  // namespace eredu
