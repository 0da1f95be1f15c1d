// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Overflow-checked arithmetic on dimensions, counts and bytes.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

namespace eredu {

/// a + b, or nullopt when the sum does not fit 64 bits.
inline std::optional<std::uint64_t> checked_add(std::uint64_t a, std::uint64_t b) {
  std::uint64_t out = 0;
  if (__builtin_add_overflow(a, b, &out)) return std::nullopt;
  return out;
}

/// a * b, or nullopt when the product does not fit 64 bits.
inline std::optional<std::uint64_t> checked_mul(std::uint64_t a, std::uint64_t b) {
  std::uint64_t out = 0;
  if (__builtin_mul_overflow(a, b, &out)) return std::nullopt;
  return out;
}

/// The element count of a shape (1 for a scalar), or nullopt on overflow.
inline std::optional<std::uint64_t> checked_element_count(std::span<const std::uint64_t> shape) {
  std::uint64_t count = 1;
  for (std::uint64_t dimension : shape) {
    auto next = checked_mul(count, dimension);
    if (!next) return std::nullopt;
    count = *next;
  }
  return count;
}

/// Euclid's gcd with gcd(a, 0) = a, gcd(0, b) = b, gcd(0, 0) = 0 (the seed's).
constexpr std::uint64_t greatest_common_divisor(std::uint64_t left, std::uint64_t right) {
  while (right != 0) {
    std::uint64_t remainder = left % right;
    left = right;
    right = remainder;
  }
  return left;
}

}  // namespace eredu
