// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "describe/config_defaults.hpp"

namespace eredu {
namespace {

void fill(nlohmann::json& config, const nlohmann::json& defaults) {
  for (const auto& [key, value] : defaults.items()) {
    auto found = config.find(key);
    if (found == config.end() || found->is_null()) {
      config[key] = value;
    } else if (value.is_object() && found->is_object()) {
      fill(*found, value);
    }
  }
}

}  // namespace

void fill_config_defaults(nlohmann::json& config, std::string_view defaults) {
  if (defaults.empty() || !config.is_object()) return;
  const nlohmann::json parsed = nlohmann::json::parse(defaults, nullptr, false);
  if (parsed.is_object()) fill(config, parsed);
}

}  // namespace eredu
