// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Text rules shared by every validator: Rust's `str::trim` emptiness and
// Rust `{:?}` quoting of names in messages (docs/planning.md, "Text rules").
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace eredu {

/// True when `text` is empty after stripping Unicode White_Space (Rust trim).
bool is_blank(std::string_view text) noexcept;

/// `text` quoted and escaped as Rust's `{:?}` prints a string.
std::string debug_quoted(std::string_view text);

/// True when `text` is well-formed UTF-8.
bool is_valid_utf8(std::string_view text) noexcept;

/// The offset of the first byte of `text` that does not start a well-formed
/// UTF-8 character, or std::string_view::npos when there is none.
std::size_t first_invalid_utf8(std::string_view text) noexcept;

/// `text` with every ill-formed byte replaced by U+FFFD, so output that
/// echoes outside bytes (paths, third-party messages) stays valid UTF-8.
std::string to_valid_utf8(std::string_view text);

/// A shape as messages print it: "[4096, 512]".
std::string shape_text(std::span<const std::uint64_t> shape);

/// Appends `key` escaped as one RFC 6901 JSON-pointer token ("~" as "~0",
/// "/" as "~1"); the caller writes the "/" before it. The pointer is for
/// messages, so control characters are written as Rust escapes (`\u{0}`)
/// instead of raw bytes.
void append_pointer_token(std::string& out, std::string_view key);

}  // namespace eredu
