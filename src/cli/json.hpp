// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Reading the library's JSON documents (docs/interchange.md) for the tables.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace eredu::cli {

using Json = nlohmann::json;

/// Unsigned integer member `key` of `object`.
inline std::uint64_t u64(const Json& object, const char* key) {
  return object.at(key).get<std::uint64_t>();
}

/// Unsigned integer member `key` of `object`, nullopt when null or absent.
inline std::optional<std::uint64_t> optional_u64(const Json& object, const char* key) {
  const auto found = object.find(key);
  if (found == object.end() || found->is_null()) return std::nullopt;
  return found->get<std::uint64_t>();
}

/// String member `key` of `object`.
inline std::string text(const Json& object, const char* key) {
  return object.at(key).get<std::string>();
}

}  // namespace eredu::cli
