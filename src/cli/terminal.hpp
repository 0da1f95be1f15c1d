// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// How wide the command's tables may be.
#pragma once

#include <cstddef>
#include <optional>

namespace eredu::cli {

/// The columns available to a table on standard output: `COLUMNS` when it
/// holds a positive decimal number, else the terminal's width when standard
/// output is a terminal, else no limit (a pipe or file gets whole lines).
std::optional<std::size_t> terminal_columns();

}  // namespace eredu::cli
