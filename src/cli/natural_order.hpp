// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The order of targets in tables: layer 2 before layer 10.
#pragma once

#include <string_view>

namespace eredu::cli {

/// Compares runs of decimal digits by value (then by length, so "01" sorts
/// after "1") and everything else byte by byte: model.layers.2.mlp before
/// model.layers.10.mlp. A strict weak order; JSON output keeps the
/// documents' byte order.
bool natural_less(std::string_view a, std::string_view b);

}  // namespace eredu::cli
