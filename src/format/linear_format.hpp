// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Checkpoint linear-matrix encodings (docs/planning.md, "Linear formats"):
// AffineQuantization, WeightQuantization, BlockFp8Format, LinearFormat and
// LinearFormatSpec. Construction errors are Status::InvalidFormat
// (docs/status.md, 700).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "core/result.hpp"
#include "format/dtype.hpp"

namespace eredu {

/// Seed `AffineQuantization` (mode is always Affine): per-group integer
/// storage with one scale and one bias per `group_size` input values.
/// Fields are public as in the seed; `create` validates, a plain aggregate
/// does not (for unvalidated raw specs).
struct AffineQuantization {
  std::int32_t group_size = 64;
  std::int32_t bits = 4;

  /// InvalidFormat, group checked before bits:
  /// `group_size must be 16 or a positive multiple of 32, got G`,
  /// `bits must be one of 2, 3, 4, 5, 6, or 8, got B`.
  static Result<AffineQuantization> create(std::int32_t group_size, std::int32_t bits);
  Result<void> validate() const;
  friend bool operator==(const AffineQuantization&, const AffineQuantization&) = default;
};

/// Microscaling FP4: E2M1 values, one E8M0 scale per 32 values, no bias.
struct MxFp4Format {
  static constexpr std::int32_t kGroupSize = 32;  // seed MXFP4_GROUP_SIZE
  static constexpr std::int32_t kBits = 4;        // seed MXFP4_BITS
  friend bool operator==(const MxFp4Format&, const MxFp4Format&) = default;
};

/// Checkpoint-native GGML blocks of type `ggml_type` (a ggml code; see
/// format/ggml.hpp). The seed's endianness is not carried: the planner
/// never reads it.
struct GgufIQuant {
  std::uint32_t ggml_type = 0;
  friend bool operator==(const GgufIQuant&, const GgufIQuant&) = default;
};

/// Ordinary floating-point matrix storage.
struct DenseFormat {
  friend bool operator==(const DenseFormat&, const DenseFormat&) = default;
};

/// Seed `BlockFp8ScaleEncoding`. Values match EREDU_BLOCK_FP8_SCALE_*.
enum class BlockFp8ScaleEncoding : std::uint32_t { FloatingPoint = 0, Ue8m0 = 1 };

/// Seed `BlockFp8Format`: one inverse scale per block_rows × block_columns
/// block of an E4M3 matrix.
struct BlockFp8Format {
  std::int32_t block_rows = 128;
  std::int32_t block_columns = 128;
  BlockFp8ScaleEncoding scale_encoding = BlockFp8ScaleEncoding::FloatingPoint;

  /// InvalidFormat `block-FP8 geometry must be positive, got [R, C]`.
  static Result<BlockFp8Format> create(std::int32_t block_rows, std::int32_t block_columns,
                                       BlockFp8ScaleEncoding scale_encoding);
  Result<void> validate() const;
  friend bool operator==(const BlockFp8Format&, const BlockFp8Format&) = default;
};

/// Seed `WeightQuantization`: the packed encodings (Affine | MxFp4 |
/// GgufIQuant).
class WeightQuantization {
 public:
  using Variant = std::variant<AffineQuantization, MxFp4Format, GgufIQuant>;
  explicit WeightQuantization(Variant value) : value_(value) {}

  const Variant& variant() const { return value_; }
  /// Affine: its group; MxFp4: 32; GgufIQuant: values per block (0 for an
  /// unsupported type, which `validate` rejects).
  std::int32_t group_size() const;
  /// Affine: its bits; MxFp4: 4; GgufIQuant: bytes per block (the seed's
  /// naming quirk; 0 for an unsupported type).
  std::int32_t bits() const;
  /// True only for Affine.
  bool has_biases() const;
  /// Affine rules; MxFp4 ok; GgufIQuant: a supported type (InvalidFormat).
  Result<void> validate() const;
  friend bool operator==(const WeightQuantization&, const WeightQuantization&) = default;

 private:
  Variant value_;
};

/// Which LinearFormat alternative. Values match EREDU_LINEAR_FORMAT_*.
enum class LinearFormatKind : std::uint32_t {
  Dense = 0,
  Affine = 1,
  MxFp4 = 2,
  GgufIQuant = 3,
  E4M3BlockFp8 = 4,
};
inline constexpr std::uint32_t kLinearFormatKindCount = 5;

/// The interchange word of a kind: "dense", "affine", "mxfp4", "gguf",
/// "block_fp8" (`format.kind` in docs/interchange.md).
std::string_view linear_format_kind_name(LinearFormatKind kind);
std::optional<LinearFormatKind> parse_linear_format_kind(std::string_view name);
std::optional<LinearFormatKind> linear_format_kind_from_value(std::uint32_t value);

/// The interchange word of a scale encoding: "float", "ue8m0".
std::string_view block_fp8_scale_encoding_name(BlockFp8ScaleEncoding encoding);
std::optional<BlockFp8ScaleEncoding> parse_block_fp8_scale_encoding(std::string_view name);
std::optional<BlockFp8ScaleEncoding> block_fp8_scale_encoding_from_value(std::uint32_t value);

/// Seed `LinearFormat`: the physical encoding of one linear matrix. The
/// variant order is LinearFormatKind's.
class LinearFormat {
 public:
  using Variant =
      std::variant<DenseFormat, AffineQuantization, MxFp4Format, GgufIQuant, BlockFp8Format>;
  LinearFormat() = default;                       // Dense
  LinearFormat(Variant value) : value_(value) {}  // implicit, like a Rust enum variant

  static LinearFormat dense() { return LinearFormat(DenseFormat{}); }
  static LinearFormat affine(AffineQuantization affine) { return LinearFormat(affine); }
  static LinearFormat mxfp4() { return LinearFormat(MxFp4Format{}); }
  static LinearFormat gguf(std::uint32_t ggml_type) { return LinearFormat(GgufIQuant{ggml_type}); }
  static LinearFormat block_fp8(BlockFp8Format fp8) { return LinearFormat(fp8); }

  LinearFormatKind kind() const { return static_cast<LinearFormatKind>(value_.index()); }
  const Variant& variant() const { return value_; }
  /// The alternative `T`, or nullptr when the format is another kind.
  template <class T>
  const T* get_if() const {
    return std::get_if<T>(&value_);
  }

  /// Dense ok; Affine rules; MxFp4 ok; GgufIQuant supported type;
  /// E4M3BlockFp8 geometry. Errors are InvalidFormat.
  Result<void> validate() const;
  /// Affine / MxFp4 / GgufIQuant: the matching WeightQuantization; Dense and
  /// E4M3BlockFp8: nullopt.
  std::optional<WeightQuantization> weight_quantization() const;
  /// Rust `{:?}` of the seed value, for messages: `Dense`, `MxFp4`,
  /// `Affine(AffineQuantization { group_size: 64, bits: 4, mode: Affine })`,
  /// `GgufIQuant { ggml_type: Q4_K }` (`GgufIQuant { ggml_type: 99 }` for an
  /// unsupported code), `E4M3BlockFp8(BlockFp8Format { block_rows: 128,
  /// block_columns: 128, scale_encoding: Ue8m0 })`.
  std::string debug() const;
  friend bool operator==(const LinearFormat&, const LinearFormat&) = default;

 private:
  Variant value_;
};

/// Seed `LinearFormatSpec`: a format plus the exact checkpoint targets of its
/// scale and affine-bias companions, and this project's optional
/// `companion_dtype` (docs/interchange.md, `format`: the dtype of affine scales
/// and biases and of block-FP8 scales).
class LinearFormatSpec {
 public:
  /// Validated constructors (seed `unscaled`, `scaled`, `affine`): a blank
  /// companion id first (`parameter identity must not be empty`), then
  /// `validate()`. Every error is InvalidFormat.
  static Result<LinearFormatSpec> unscaled(LinearFormat format,
                                           std::optional<Dtype> companion_dtype = std::nullopt);
  static Result<LinearFormatSpec> scaled(LinearFormat format, std::string scale,
                                         std::optional<Dtype> companion_dtype = std::nullopt);
  static Result<LinearFormatSpec> affine(LinearFormat format, std::string scale, std::string bias,
                                         std::optional<Dtype> companion_dtype = std::nullopt);
  /// An unvalidated spec: any combination, to reach the seed's own
  /// defence-in-depth branches of expand_linear_format_member.
  static LinearFormatSpec raw(LinearFormat format, std::optional<std::string> scale,
                              std::optional<std::string> affine_bias,
                              std::optional<Dtype> companion_dtype = std::nullopt);

  /// InvalidFormat, in order: a blank scale or bias id; `format.validate()`;
  /// `linear format F requires scale/bias companions (s, b), got (s', b')`
  /// (F = `LinearFormat::debug`; Dense/GgufIQuant need (false, false),
  /// MxFp4/E4M3BlockFp8 (true, false), Affine (true, true)); `linear scale
  /// and affine-bias companions require distinct identities`; a
  /// companion_dtype on a format other than Affine and E4M3BlockFp8
  /// (`linear format F takes no companion dtype`).
  Result<void> validate() const;

  const LinearFormat& encoding() const { return format_; }
  const std::optional<std::string>& scale() const { return scale_; }
  const std::optional<std::string>& affine_bias() const { return affine_bias_; }
  std::optional<Dtype> companion_dtype() const { return companion_dtype_; }
  friend bool operator==(const LinearFormatSpec&, const LinearFormatSpec&) = default;

 private:
  LinearFormat format_;
  std::optional<std::string> scale_;
  std::optional<std::string> affine_bias_;
  std::optional<Dtype> companion_dtype_;
};

}  // namespace eredu
