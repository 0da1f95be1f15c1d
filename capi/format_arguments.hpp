// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Conversion of a C linear format (eredu_linear_format) to a core
// LinearFormat, shared by the eredu_linear_format_* functions and the
// layerwise metadata's quantization; defined in format.cpp.
#pragma once

#include <eredu/eredu.h>

#include "core/result.hpp"
#include "firewall.hpp"
#include "format/linear_format.hpp"

namespace eredu::capi {

/// A caller's format as this library's struct (defaults past its
/// struct_size, docs/abi.md) and its checked kind.
struct FormatRead {
  eredu_linear_format fields;
  LinearFormatKind kind;
};

/// The first checks of a format named `name`: NULL, struct_size, then
/// `name`->kind.
Result<FormatRead> format_read(const eredu_linear_format* format, const ArgumentName& name);

/// The core format of a read struct: (BLOCK_FP8 only) `name`->scale_encoding.
Result<LinearFormat> format_value(const FormatRead& read, const ArgumentName& name);

/// format_read, then format_value.
Result<LinearFormat> format_argument(const eredu_linear_format* format, const ArgumentName& name);

}  // namespace eredu::capi
