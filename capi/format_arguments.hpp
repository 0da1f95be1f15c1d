// Conversion of a C linear format (eredu_linear_format) to a core
// LinearFormat, shared by the eredu_linear_format_* functions and the
// layerwise metadata's quantization; defined in format.cpp.
#pragma once

#include <eredu/eredu.h>

#include "core/result.hpp"
#include "firewall.hpp"
#include "format/linear_format.hpp"

namespace eredu::capi {

/// The first checks of a format named `name`: struct_size, then
/// `name`->kind.
Result<LinearFormatKind> format_kind_argument(const eredu_linear_format* format,
                                              const ArgumentName& name);

/// format_kind_argument, then (BLOCK_FP8 only) `name`->scale_encoding.
Result<LinearFormat> format_argument(const eredu_linear_format* format, const ArgumentName& name);

}  // namespace eredu::capi
