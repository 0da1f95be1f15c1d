// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Reading a whole (small) file into memory: the model folder's JSON files
// and `eredu residency --policy FILE`.
#pragma once

#include <string>
#include <string_view>

#include "core/result.hpp"

namespace eredu {

/// The bytes of the file at `path`. Errors: Io "cannot read <shown>: it is a
/// directory" or "cannot read <shown>: <strerror>", where `shown` is how the
/// caller's messages name the file.
Result<std::string> read_text_file(const std::string& path, std::string_view shown);

}  // namespace eredu
