// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Human byte units for tables ("14.96 GiB") and size flags ("80GiB").
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "cli/result.hpp"

namespace eredu::cli {

/// `bytes` in the largest power-of-1024 unit that keeps the value at least 1,
/// two decimals: "512 B", "1.50 KiB", "14.96 GiB".
std::string human_bytes(std::uint64_t bytes);

/// A size flag (docs/interchange.md, "Common flags"): decimal digits,
/// optionally followed by `KiB MiB GiB TiB` (powers of 1024) or `KB MB GB TB`
/// (powers of 1000): "4096", "80GiB", "16GB". Errors: EREDU_E_INVALID_ARGUMENT naming
/// `flag` and the text for anything else, or a size above 2^64 - 1 bytes.
Result<std::uint64_t> parse_size(std::string_view flag, std::string_view text);

}  // namespace eredu::cli
