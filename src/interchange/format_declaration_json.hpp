// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Reading a member's `format` object of an eredu.groups.v1 document into a
// FormatDeclaration (docs/interchange.md: its fields and which kind takes
// which).
#pragma once

#include <optional>

#include "core/result.hpp"
#include "interchange/first_error.hpp"
#include "interchange/format_declaration.hpp"
#include "interchange/json_path.hpp"

namespace eredu::json {

/// The declaration, or nothing when `value` is null or has a structure
/// error, which is noted in `member_error` at `rank` (that of `format` in a
/// member). Inside the object: unknown fields, then the fields in the
/// documented order, then fields required or not allowed for the kind.
Read<std::optional<FormatDeclaration>> read_format_declaration(od::value& value, const Path& path,
                                                               FirstError& member_error,
                                                               unsigned rank);

}  // namespace eredu::json
