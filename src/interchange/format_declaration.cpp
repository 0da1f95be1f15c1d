// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "interchange/format_declaration.hpp"

#include <limits>

namespace eredu {
namespace {

constexpr std::uint64_t kInt32Max = std::numeric_limits<std::int32_t>::max();

Result<AffineQuantization> construct_affine(std::uint64_t group_size, std::uint64_t bits) {
  if (group_size > kInt32Max) {
    return failf(Status::InvalidFormat,
                 "group_size must be 16 or a positive multiple of 32, got {}", group_size);
  }
  const auto group = static_cast<std::int32_t>(group_size);
  if (bits > kInt32Max) {
    // Group is checked before bits: a valid group with any bits width shows
    // whether the group alone is wrong.
    EREDU_TRY(AffineQuantization::create(group, 4));
    return failf(Status::InvalidFormat, "bits must be one of 2, 3, 4, 5, 6, or 8, got {}", bits);
  }
  return AffineQuantization::create(group, static_cast<std::int32_t>(bits));
}

Result<BlockFp8Format> construct_block_fp8(const FormatDeclaration& declaration) {
  if (declaration.block_rows > kInt32Max || declaration.block_columns > kInt32Max) {
    return failf(Status::InvalidFormat, "block-FP8 geometry must fit 32-bit integers, got [{}, {}]",
                 declaration.block_rows, declaration.block_columns);
  }
  return BlockFp8Format::create(static_cast<std::int32_t>(declaration.block_rows),
                                static_cast<std::int32_t>(declaration.block_columns),
                                declaration.scale_encoding);
}

}  // namespace

Result<LinearFormatSpec> construct_linear_format(const FormatDeclaration& declaration) {
  const std::string none;
  const std::string& scale = declaration.scale ? *declaration.scale : none;
  switch (declaration.kind) {
    case LinearFormatKind::Dense:
      return LinearFormatSpec::unscaled(LinearFormat::dense());
    case LinearFormatKind::Affine: {
      EREDU_TRY(affine, construct_affine(declaration.group_size, declaration.bits));
      return LinearFormatSpec::affine(LinearFormat::affine(affine), scale,
                                      declaration.bias ? *declaration.bias : none,
                                      declaration.companion_dtype);
    }
    case LinearFormatKind::MxFp4:
      return LinearFormatSpec::scaled(LinearFormat::mxfp4(), scale);
    case LinearFormatKind::GgufIQuant:
      if (declaration.ggml_type > std::numeric_limits<std::uint32_t>::max()) {
        return failf(Status::InvalidFormat, "unsupported GGML tensor type {}",
                     declaration.ggml_type);
      }
      return LinearFormatSpec::unscaled(
          LinearFormat::gguf(static_cast<std::uint32_t>(declaration.ggml_type)));
    case LinearFormatKind::E4M3BlockFp8: {
      EREDU_TRY(fp8, construct_block_fp8(declaration));
      return LinearFormatSpec::scaled(LinearFormat::block_fp8(fp8), scale,
                                      declaration.companion_dtype);
    }
  }
  return fail(Status::Internal, "unknown linear format kind");
}

}  // namespace eredu
