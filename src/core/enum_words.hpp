// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Enums numbered 0..count-1 (the values of their C constants) and their
// word tables: the shared lookups behind every `*_name`, `parse_*` and
// `*_from_value` of such an enum.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace eredu {

/// The enum value `value`, or nullopt when it is not below `count`.
template <class Enum>
constexpr std::optional<Enum> enum_from_value(std::uint32_t value, std::size_t count) {
  if (value >= count) return std::nullopt;
  return static_cast<Enum>(value);
}

/// The word of `value` in `words`, a table in value order.
template <class Enum, std::size_t N>
constexpr std::string_view enum_word(const std::array<std::string_view, N>& words, Enum value) {
  return words[static_cast<std::size_t>(value)];
}

/// The value whose word in `words` (a table in value order) is `word`.
template <class Enum, std::size_t N>
constexpr std::optional<Enum> parse_enum_word(const std::array<std::string_view, N>& words,
                                              std::string_view word) {
  for (std::size_t i = 0; i < N; ++i) {
    if (words[i] == word) return static_cast<Enum>(i);
  }
  return std::nullopt;
}

}  // namespace eredu
