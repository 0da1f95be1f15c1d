// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// eredu_dependency_versions: what `eredu --version` lists.
#include <fmt/format.h>
#include <simdjson.h>
#include <xxhash.h>
#include <zstd.h>

#include <boost/version.hpp>
#include <nlohmann/json.hpp>
#include <string>

#include "eredu/eredu.h"

namespace {

std::string dependency_versions() {
  const unsigned xxhash = XXH_versionNumber();
  return fmt::format(
      "fmt {}.{}.{}, simdjson {}.{}.{}, nlohmann_json {}.{}.{}, boost {}.{}.{}, zstd {}, xxhash "
      "{}.{}.{}",
      FMT_VERSION / 10000, FMT_VERSION / 100 % 100, FMT_VERSION % 100,
      simdjson::SIMDJSON_VERSION_MAJOR, simdjson::SIMDJSON_VERSION_MINOR,
      simdjson::SIMDJSON_VERSION_REVISION, NLOHMANN_JSON_VERSION_MAJOR, NLOHMANN_JSON_VERSION_MINOR,
      NLOHMANN_JSON_VERSION_PATCH, BOOST_VERSION / 100000, BOOST_VERSION / 100 % 1000,
      BOOST_VERSION % 100, ZSTD_versionString(), xxhash / 10000, xxhash / 100 % 100, xxhash % 100);
}

}  // namespace

extern "C" const char* eredu_dependency_versions(void) {
  // Built once, on first use (thread-safe static initialization); an
  // allocation failure there is not recoverable for a diagnostic string.
  static const std::string text = [] {
    try {
      return dependency_versions();
    } catch (...) {
      return std::string("unknown");
    }
  }();
  return text.c_str();
}
