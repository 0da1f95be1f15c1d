// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Reading an `eredu.groups.v1` description named on the command line.
#pragma once

#include <memory>
#include <string>

#include "core/result.hpp"
#include "model/model.hpp"

namespace eredu {

/// The description in file `source`, or on standard input for "-".
/// Errors: Io (unreadable), then load_groups_json's.
Result<std::shared_ptr<const ModelDescription>> load_description(const std::string& source);

}  // namespace eredu
