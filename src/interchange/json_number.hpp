// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The JSON number grammar, checked on raw tokens: simdjson On-Demand checks
// a number only when it converts it, and the loader reads integers from the
// token instead of converting them.
#pragma once

#include <string_view>

namespace eredu::json {

inline bool is_digit(char c) { return c >= '0' && c <= '9'; }

/// `token` without the whitespace simdjson leaves after a scalar.
std::string_view trim_token(std::string_view token);

/// True when `token` is an RFC 8259 number.
bool is_json_number(std::string_view token);

}  // namespace eredu::json
