// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Flag values and paths quoted in error messages.
#pragma once

#include <string>
#include <string_view>

namespace eredu::cli {

/// `text` quoted and escaped as Rust's `{:?}` prints a string, as the
/// library quotes names in its messages: `"a\"b"`, control characters as
/// `\u{1b}`, a byte that is not UTF-8 as `\u{fffd}`.
std::string debug_quoted(std::string_view text);

}  // namespace eredu::cli
