// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "interchange/json_number.hpp"

#include <cstddef>

namespace eredu::json {

std::string_view trim_token(std::string_view token) {
  while (!token.empty() && (token.back() == ' ' || token.back() == '\t' || token.back() == '\n' ||
                            token.back() == '\r')) {
    token.remove_suffix(1);
  }
  return token;
}

// Hand-written: simdjson's number parsing is no grammar check, it refuses
// valid numbers beyond a double's range (1e400).
bool is_json_number(std::string_view token) {
  std::size_t i = 0;
  const std::size_t n = token.size();
  auto digits = [&] {
    const std::size_t start = i;
    while (i < n && is_digit(token[i])) ++i;
    return i > start;
  };
  if (i < n && token[i] == '-') ++i;
  if (i < n && token[i] == '0') {
    ++i;
  } else if (!digits()) {
    return false;
  }
  if (i < n && token[i] == '.') {
    ++i;
    if (!digits()) return false;
  }
  if (i < n && (token[i] == 'e' || token[i] == 'E')) {
    ++i;
    if (i < n && (token[i] == '+' || token[i] == '-')) ++i;
    if (!digits()) return false;
  }
  return i == n;
}

}  // namespace eredu::json
