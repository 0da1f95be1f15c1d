// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "cli/natural_order.hpp"

namespace eredu::cli {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

std::size_t digits_end(std::string_view text, std::size_t from) {
  while (from < text.size() && is_digit(text[from])) ++from;
  return from;
}

}  // namespace

bool natural_less(std::string_view a, std::string_view b) {
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < a.size() && j < b.size()) {
    if (is_digit(a[i]) && is_digit(b[j])) {
      const std::size_t a_end = digits_end(a, i);
      const std::size_t b_end = digits_end(b, j);
      std::size_t a_start = i;
      std::size_t b_start = j;
      while (a_start + 1 < a_end && a[a_start] == '0') ++a_start;
      while (b_start + 1 < b_end && b[b_start] == '0') ++b_start;
      const std::string_view a_value = a.substr(a_start, a_end - a_start);
      const std::string_view b_value = b.substr(b_start, b_end - b_start);
      // Without leading zeros, a longer run is a larger number.
      if (a_value.size() != b_value.size()) return a_value.size() < b_value.size();
      if (a_value != b_value) return a_value < b_value;
      if (a_end - i != b_end - j) return a_end - i < b_end - j;
      i = a_end;
      j = b_end;
      continue;
    }
    if (a[i] != b[j]) return static_cast<unsigned char>(a[i]) < static_cast<unsigned char>(b[j]);
    ++i;
    ++j;
  }
  return a.size() - i < b.size() - j;
}

}  // namespace eredu::cli
