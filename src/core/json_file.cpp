// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "core/json_file.hpp"

#include <string>

#include "core/text.hpp"
#include "core/text_file.hpp"
#include "core/unique_key_json.hpp"

namespace eredu {

Result<nlohmann::json> read_json_file(const std::string& path) {
  EREDU_TRY(content, read_text_file(path, path));
  // A repeated key would silently keep its last value (a typo must never
  // change a description).
  return parse_unique_key_json<nlohmann::json>(
      content,
      [&](const std::string& key) {
        return fmt::format("{} repeats the key {}", path, debug_quoted(key));
      },
      [&](const char* what) { return fmt::format("{} is not valid JSON: {}", path, what); });
}

}  // namespace eredu
