// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Reads a small JSON file (a model folder's config.json, a weight index).
#pragma once

#include <nlohmann/json.hpp>

#include <string>

#include "core/result.hpp"

namespace eredu {

/// Reads and parses the JSON file at `path`. Errors: Io when the file cannot
/// be read, Parse when it is not valid JSON (the message names the file).
Result<nlohmann::json> read_json_file(const std::string& path);

}  // namespace eredu
