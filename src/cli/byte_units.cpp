// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "cli/byte_units.hpp"

#include <fmt/format.h>

#include <array>
#include <charconv>
#include <utility>

#include "cli/library.hpp"

namespace eredu::cli {

std::string human_bytes(std::uint64_t bytes) {
  constexpr std::array<const char*, 6> kUnits = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  if (bytes < 1024) return fmt::format("{} B", bytes);
  double value = static_cast<double>(bytes) / 1024.0;
  std::size_t unit = 0;
  while (value >= 1024.0 && unit + 1 < kUnits.size()) {
    value /= 1024.0;
    ++unit;
  }
  return fmt::format("{:.2f} {}", value, kUnits[unit]);
}

Result<std::uint64_t> parse_size(std::string_view flag, std::string_view text) {
  constexpr std::uint64_t kKi = 1024;
  constexpr std::uint64_t kK = 1000;
  constexpr std::array<std::pair<std::string_view, std::uint64_t>, 9> kScales = {{
      {"", 1},
      {"KiB", kKi},
      {"MiB", kKi * kKi},
      {"GiB", kKi * kKi * kKi},
      {"TiB", kKi * kKi * kKi * kKi},
      {"KB", kK},
      {"MB", kK * kK},
      {"GB", kK * kK * kK},
      {"TB", kK * kK * kK * kK},
  }};
  const std::size_t digits = std::min(text.find_first_not_of("0123456789"), text.size());
  const std::string_view suffix = text.substr(digits);
  std::uint64_t count = 0;
  const std::errc error = std::from_chars(text.data(), text.data() + digits, count).ec;
  for (const auto& [unit, scale] : kScales) {
    if (digits == 0 || suffix != unit) continue;
    std::uint64_t bytes = 0;
    if (error == std::errc() && !__builtin_mul_overflow(count, scale, &bytes)) return bytes;
    return failf(EREDU_E_INVALID_ARGUMENT, "{} {} is more than 18446744073709551615 bytes", flag,
                 debug_quoted(text));
  }
  return failf(EREDU_E_INVALID_ARGUMENT,
               "{} {} is not a size; use bytes, or a whole number with KiB, MiB, GiB, TiB "
               "(powers of 1024) or KB, MB, GB, TB (powers of 1000), like 80GiB",
               flag, debug_quoted(text));
}

}  // namespace eredu::cli
