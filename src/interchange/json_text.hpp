// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The type and the text of On-Demand values and keys, with errors located
// by their JSON pointer.
#pragma once

#include <string_view>

#include "core/result.hpp"
#include "interchange/json_path.hpp"

namespace eredu::json {

Read<od::json_type> type_of(od::value& value, const Path& path);

/// The text of the string `value` (known to be a string), consuming it.
/// The view lives as long as the input and the parser.
Read<std::string_view> string_text(od::value& value, const Path& path);

/// The unescaped key of `field`; the view lives as long as the parser.
Read<std::string_view> key_text(od::field& field, const Path& path);

}  // namespace eredu::json
