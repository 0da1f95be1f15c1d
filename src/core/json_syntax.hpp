// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Where a JSON syntax error stands and what is there, in eredu's own words
// (docs/interchange.md, "Errors"), whichever parser found it.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace eredu {

/// "line 2, column 7: unexpected ']'" for a syntax error at byte `offset`
/// of `text`. Lines and columns count from 1, columns in bytes. An offset at
/// or past the end says the document ends early; a NUL, a byte that is not
/// UTF-8 and a control character are named as such, so the message never
/// copies an invalid byte.
std::string json_syntax_at(std::string_view text, std::size_t offset);

}  // namespace eredu
