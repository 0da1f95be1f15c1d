// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "format/linear_format.hpp"

#include <fmt/format.h>

#include <array>

#include "core/enum_words.hpp"
#include "core/text.hpp"
#include "format/ggml.hpp"

namespace eredu {
namespace {

constexpr std::array<std::string_view, kLinearFormatKindCount> kKindNames{
    "dense", "affine", "mxfp4", "gguf", "block_fp8"};
constexpr std::array<std::string_view, 2> kScaleEncodingNames{"float", "ue8m0"};

// Supported GGUF block geometry, or {0, 0} for an unsupported code.
GgmlTypeInfo gguf_block(GgufIQuant gguf) {
  auto info = ggml_type_info(gguf.ggml_type);
  return info ? info.value() : GgmlTypeInfo{};
}

// The companions each format requires: (scale, affine bias).
std::pair<bool, bool> required_companions(LinearFormatKind kind) {
  switch (kind) {
    case LinearFormatKind::Dense:
    case LinearFormatKind::GgufIQuant:
      return {false, false};
    case LinearFormatKind::MxFp4:
    case LinearFormatKind::E4M3BlockFp8:
      return {true, false};
    case LinearFormatKind::Affine:
      return {true, true};
  }
  return {false, false};
}

Result<void> check_identity(const std::optional<std::string>& id) {
  if (id && is_blank(*id))
    return fail(Status::InvalidFormat, "parameter identity must not be empty");
  return outcome::success();
}

}  // namespace

std::string_view linear_format_kind_name(LinearFormatKind kind) {
  return enum_word(kKindNames, kind);
}

std::optional<LinearFormatKind> parse_linear_format_kind(std::string_view name) {
  return parse_enum_word<LinearFormatKind>(kKindNames, name);
}

std::optional<LinearFormatKind> linear_format_kind_from_value(std::uint32_t value) {
  return enum_from_value<LinearFormatKind>(value, kLinearFormatKindCount);
}

std::string_view block_fp8_scale_encoding_name(BlockFp8ScaleEncoding encoding) {
  return enum_word(kScaleEncodingNames, encoding);
}

std::optional<BlockFp8ScaleEncoding> parse_block_fp8_scale_encoding(std::string_view name) {
  return parse_enum_word<BlockFp8ScaleEncoding>(kScaleEncodingNames, name);
}

std::optional<BlockFp8ScaleEncoding> block_fp8_scale_encoding_from_value(std::uint32_t value) {
  return enum_from_value<BlockFp8ScaleEncoding>(value, kScaleEncodingNames.size());
}

Result<AffineQuantization> AffineQuantization::create(std::int32_t group_size, std::int32_t bits) {
  AffineQuantization value{group_size, bits};
  EREDU_TRY(value.validate());
  return value;
}

Result<void> AffineQuantization::validate() const {
  if (group_size != 16 && (group_size <= 0 || group_size % 32 != 0)) {
    return failf(Status::InvalidFormat,
                 "group_size must be 16 or a positive multiple of 32, got {}", group_size);
  }
  switch (bits) {
    case 2:
    case 3:
    case 4:
    case 5:
    case 6:
    case 8:
      return outcome::success();
    default:
      return failf(Status::InvalidFormat, "bits must be one of 2, 3, 4, 5, 6, or 8, got {}", bits);
  }
}

Result<BlockFp8Format> BlockFp8Format::create(std::int32_t block_rows, std::int32_t block_columns,
                                              BlockFp8ScaleEncoding scale_encoding) {
  BlockFp8Format value{block_rows, block_columns, scale_encoding};
  EREDU_TRY(value.validate());
  return value;
}

Result<void> BlockFp8Format::validate() const {
  if (block_rows <= 0 || block_columns <= 0) {
    return failf(Status::InvalidFormat, "block-FP8 geometry must be positive, got [{}, {}]",
                 block_rows, block_columns);
  }
  return outcome::success();
}

std::int32_t WeightQuantization::group_size() const {
  if (const auto* affine = std::get_if<AffineQuantization>(&value_)) return affine->group_size;
  if (std::holds_alternative<MxFp4Format>(value_)) return MxFp4Format::kGroupSize;
  return static_cast<std::int32_t>(gguf_block(std::get<GgufIQuant>(value_)).block_values);
}

std::int32_t WeightQuantization::bits() const {
  if (const auto* affine = std::get_if<AffineQuantization>(&value_)) return affine->bits;
  if (std::holds_alternative<MxFp4Format>(value_)) return MxFp4Format::kBits;
  return static_cast<std::int32_t>(gguf_block(std::get<GgufIQuant>(value_)).block_bytes);
}

bool WeightQuantization::has_biases() const {
  return std::holds_alternative<AffineQuantization>(value_);
}

Result<void> WeightQuantization::validate() const {
  if (const auto* affine = std::get_if<AffineQuantization>(&value_)) return affine->validate();
  if (const auto* gguf = std::get_if<GgufIQuant>(&value_)) {
    EREDU_TRY(ggml_type_info(gguf->ggml_type));
  }
  return outcome::success();
}

Result<void> LinearFormat::validate() const {
  if (const auto* fp8 = get_if<BlockFp8Format>()) return fp8->validate();
  if (auto quantization = weight_quantization()) return quantization->validate();
  return outcome::success();
}

std::optional<WeightQuantization> LinearFormat::weight_quantization() const {
  if (const auto* affine = get_if<AffineQuantization>()) return WeightQuantization(*affine);
  if (const auto* mxfp4 = get_if<MxFp4Format>()) return WeightQuantization(*mxfp4);
  if (const auto* gguf = get_if<GgufIQuant>()) return WeightQuantization(*gguf);
  return std::nullopt;
}

std::string LinearFormat::debug() const {
  switch (kind()) {
    case LinearFormatKind::Dense:
      return "Dense";
    case LinearFormatKind::Affine: {
      const auto& affine = std::get<AffineQuantization>(value_);
      return fmt::format("Affine(AffineQuantization {{ group_size: {}, bits: {}, mode: Affine }})",
                         affine.group_size, affine.bits);
    }
    case LinearFormatKind::MxFp4:
      return "MxFp4";
    case LinearFormatKind::GgufIQuant: {
      const std::uint32_t code = std::get<GgufIQuant>(value_).ggml_type;
      auto info = ggml_type_info(code);
      return info ? fmt::format("GgufIQuant {{ ggml_type: {} }}", info.value().name)
                  : fmt::format("GgufIQuant {{ ggml_type: {} }}", code);
    }
    case LinearFormatKind::E4M3BlockFp8: {
      const auto& fp8 = std::get<BlockFp8Format>(value_);
      return fmt::format(
          "E4M3BlockFp8(BlockFp8Format {{ block_rows: {}, block_columns: {}, scale_encoding: {} "
          "}})",
          fp8.block_rows, fp8.block_columns,
          fp8.scale_encoding == BlockFp8ScaleEncoding::Ue8m0 ? "Ue8m0" : "FloatingPoint");
    }
  }
  return {};
}

Result<LinearFormatSpec> LinearFormatSpec::unscaled(LinearFormat format,
                                                    std::optional<Dtype> companion_dtype) {
  LinearFormatSpec spec = raw(format, std::nullopt, std::nullopt, companion_dtype);
  EREDU_TRY(spec.validate());
  return spec;
}

Result<LinearFormatSpec> LinearFormatSpec::scaled(LinearFormat format, std::string scale,
                                                  std::optional<Dtype> companion_dtype) {
  LinearFormatSpec spec = raw(format, std::move(scale), std::nullopt, companion_dtype);
  EREDU_TRY(spec.validate());
  return spec;
}

Result<LinearFormatSpec> LinearFormatSpec::affine(LinearFormat format, std::string scale,
                                                  std::string bias,
                                                  std::optional<Dtype> companion_dtype) {
  LinearFormatSpec spec = raw(format, std::move(scale), std::move(bias), companion_dtype);
  EREDU_TRY(spec.validate());
  return spec;
}

LinearFormatSpec LinearFormatSpec::raw(LinearFormat format, std::optional<std::string> scale,
                                       std::optional<std::string> affine_bias,
                                       std::optional<Dtype> companion_dtype) {
  LinearFormatSpec spec;
  spec.format_ = format;
  spec.scale_ = std::move(scale);
  spec.affine_bias_ = std::move(affine_bias);
  spec.companion_dtype_ = companion_dtype;
  return spec;
}

Result<void> LinearFormatSpec::validate() const {
  EREDU_TRY(check_identity(scale_));
  EREDU_TRY(check_identity(affine_bias_));
  EREDU_TRY(format_.validate());
  const auto expected = required_companions(format_.kind());
  const std::pair<bool, bool> actual{scale_.has_value(), affine_bias_.has_value()};
  if (actual != expected) {
    return failf(Status::InvalidFormat,
                 "linear format {} requires scale/bias companions ({}, {}), got ({}, {})",
                 format_.debug(), expected.first, expected.second, actual.first, actual.second);
  }
  if (scale_ && affine_bias_ && *scale_ == *affine_bias_) {
    return fail(Status::InvalidFormat,
                "linear scale and affine-bias companions require distinct identities");
  }
  const LinearFormatKind kind = format_.kind();
  if (companion_dtype_ && kind != LinearFormatKind::Affine &&
      kind != LinearFormatKind::E4M3BlockFp8) {
    return failf(Status::InvalidFormat, "linear format {} takes no companion dtype",
                 format_.debug());
  }
  return outcome::success();
}

}  // namespace eredu
