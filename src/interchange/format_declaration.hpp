// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The `format` object of an eredu.groups.v1 member (docs/interchange.md) as
// read from JSON, before the format is constructed: the loader checks its
// structure (EREDU_E_PARSE, format_declaration_json.hpp) while reading and
// constructs it (EREDU_E_INVALID_FORMAT) only in step 4, group by group.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "core/result.hpp"
#include "format/dtype.hpp"
#include "format/linear_format.hpp"

namespace eredu {

/// The fields of one `format` object. Only the fields its kind allows are
/// set; numbers are kept as read (uint64) so that out-of-range values are
/// reported by construction with the number the text gave.
struct FormatDeclaration {
  LinearFormatKind kind = LinearFormatKind::Dense;
  std::uint64_t group_size = 0;  // affine
  std::uint64_t bits = 0;        // affine
  std::uint64_t ggml_type = 0;   // gguf: a code (names are resolved when read)
  std::uint64_t block_rows = 0;  // block_fp8
  std::uint64_t block_columns = 0;
  BlockFp8ScaleEncoding scale_encoding = BlockFp8ScaleEncoding::FloatingPoint;
  std::optional<std::string> scale;  // affine, mxfp4, block_fp8
  std::optional<std::string> bias;   // affine
  std::optional<Dtype> companion_dtype;
};

/// Constructs the seed's LinearFormatSpec (validated constructors). Affine
/// group and bits that do not fit the seed's `i32` fields get the seed's
/// own messages with the number as given; a block-FP8 `block` dimension
/// past `i32` is `block-FP8 geometry must fit 32-bit integers, got [r, c]`
/// (docs/decisions.md). Errors: InvalidFormat, in the seed's order (affine
/// group before bits; blank companion ids; `scale` = `bias`; unsupported
/// GGML type; block-FP8 geometry).
Result<LinearFormatSpec> construct_linear_format(const FormatDeclaration& declaration);

}  // namespace eredu
