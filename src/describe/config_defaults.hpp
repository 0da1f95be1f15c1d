// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// config.json's omitted fields, filled as the model type's transformers
// configuration class fills them (docs/describe.md, "Config defaults").
#pragma once

#include <nlohmann/json.hpp>

#include <string_view>

namespace eredu {

/// Sets every key of the JSON object `defaults` that `config` lacks or
/// gives as null; a nested object fills the nested object of that key
/// (`vision_config`, `text_config`), made when absent or null. A key that
/// `config` gives with another type is left as given (and refused by the
/// family's own checks). `defaults` is a table of the registry (a test
/// parses every one); an empty or unparsable view fills nothing.
void fill_config_defaults(nlohmann::json& config, std::string_view defaults);

}  // namespace eredu
