// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Checkpoint formats: the GGML block table (docs/planning.md, "GGML block
// table"), AffineQuantization / WeightQuantization / BlockFp8Format /
// LinearFormat ("Linear formats") and LinearFormatSpec cardinality.
#include <doctest/doctest.h>

#include <map>
#include <string>
#include <tuple>

#include "format/ggml.hpp"
#include "format/linear_format.hpp"

using namespace eredu;

namespace {

// The GGML block table of docs/planning.md, row by row: code -> (name, values,
// bytes).
const std::map<std::uint32_t, std::tuple<std::string, std::uint64_t, std::uint64_t>> kTable{
    {0, {"F32", 1, 4}},         {1, {"F16", 1, 2}},         {2, {"Q4_0", 32, 18}},
    {3, {"Q4_1", 32, 20}},      {6, {"Q5_0", 32, 22}},      {7, {"Q5_1", 32, 24}},
    {8, {"Q8_0", 32, 34}},      {10, {"Q2_K", 256, 84}},    {11, {"Q3_K", 256, 110}},
    {12, {"Q4_K", 256, 144}},   {13, {"Q5_K", 256, 176}},   {14, {"Q6_K", 256, 210}},
    {16, {"IQ2_XXS", 256, 66}}, {17, {"IQ2_XS", 256, 74}},  {18, {"IQ3_XXS", 256, 98}},
    {19, {"IQ1_S", 256, 50}},   {20, {"IQ4_NL", 32, 18}},   {21, {"IQ3_S", 256, 110}},
    {22, {"IQ2_S", 256, 82}},   {23, {"IQ4_XS", 256, 136}}, {24, {"I8", 1, 1}},
    {25, {"I16", 1, 2}},        {26, {"I32", 1, 4}},        {27, {"I64", 1, 8}},
    {28, {"F64", 1, 8}},        {29, {"IQ1_M", 256, 56}},   {30, {"BF16", 1, 2}},
    {39, {"MXFP4", 32, 17}},
};

std::string error_text(const Result<void>& result) {
  REQUIRE(result.has_error());
  CHECK(result.error().code == Status::InvalidFormat);
  return result.error().message;
}

template <class T>
std::string error_text(const Result<T>& result) {
  REQUIRE(result.has_error());
  CHECK(result.error().code == Status::InvalidFormat);
  return result.error().message;
}

}  // namespace

TEST_CASE("GGML table matches the documented block table for every code") {
  for (std::uint32_t code = 0; code < 64; ++code) {
    CAPTURE(code);
    auto info = ggml_type_info(code);
    auto row = kTable.find(code);
    if (row == kTable.end()) {
      CHECK(error_text(info) == "unsupported GGML tensor type " + std::to_string(code));
      continue;
    }
    REQUIRE(info.has_value());
    CHECK(info.value().code == code);
    CHECK(std::string(info.value().name) == std::get<0>(row->second));
    CHECK(info.value().block_values == std::get<1>(row->second));
    CHECK(info.value().block_bytes == std::get<2>(row->second));
    CHECK(ggml_code_from_name(info.value().name) == std::optional<std::uint32_t>{code});
  }
  CHECK(error_text(ggml_type_info(UINT32_MAX)) == "unsupported GGML tensor type 4294967295");
  CHECK(supported_ggml_types().size() == kTable.size());
}

TEST_CASE("GGML names: rejected live types keep their codes, unknown names have none") {
  CHECK(ggml_code_from_name("Q8_1") == std::optional<std::uint32_t>{9});
  CHECK(ggml_code_from_name("Q8_K") == std::optional<std::uint32_t>{15});
  CHECK(ggml_code_from_name("TQ1_0") == std::optional<std::uint32_t>{34});
  CHECK(ggml_code_from_name("TQ2_0") == std::optional<std::uint32_t>{35});
  CHECK(error_text(ggml_type_info(*ggml_code_from_name("TQ2_0"))) ==
        "unsupported GGML tensor type 35");
  CHECK_FALSE(ggml_code_from_name("q4_k").has_value());
  CHECK_FALSE(ggml_code_from_name("Q4_2").has_value());
  CHECK_FALSE(ggml_code_from_name("").has_value());
}

TEST_CASE("affine quantization: default 64/4, group checked before bits") {
  const AffineQuantization defaults;
  CHECK(defaults.group_size == 64);
  CHECK(defaults.bits == 4);
  for (std::int32_t group : {16, 32, 64, 96, 128, 4096}) {
    for (std::int32_t bits : {2, 3, 4, 5, 6, 8}) {
      CAPTURE(group);
      CAPTURE(bits);
      auto value = AffineQuantization::create(group, bits);
      REQUIRE(value.has_value());
      CHECK(value.value() == AffineQuantization{group, bits});
    }
  }
  for (std::int32_t group : {0, -32, 8, 24, 48, 100}) {
    CHECK(error_text(AffineQuantization::create(group, 4)) ==
          "group_size must be 16 or a positive multiple of 32, got " + std::to_string(group));
  }
  for (std::int32_t bits : {0, 1, 7, 9, 16, -4}) {
    CHECK(error_text(AffineQuantization::create(64, bits)) ==
          "bits must be one of 2, 3, 4, 5, 6, or 8, got " + std::to_string(bits));
  }
  // Both wrong: the group is reported.
  CHECK(error_text(AffineQuantization::create(8, 7)) ==
        "group_size must be 16 or a positive multiple of 32, got 8");
}

TEST_CASE("block-FP8 geometry must be positive") {
  auto fp8 = BlockFp8Format::create(128, 64, BlockFp8ScaleEncoding::Ue8m0);
  REQUIRE(fp8.has_value());
  CHECK(fp8.value().block_rows == 128);
  CHECK(fp8.value().block_columns == 64);
  CHECK(fp8.value().scale_encoding == BlockFp8ScaleEncoding::Ue8m0);
  CHECK(error_text(BlockFp8Format::create(0, 128, BlockFp8ScaleEncoding::FloatingPoint)) ==
        "block-FP8 geometry must be positive, got [0, 128]");
  CHECK(error_text(BlockFp8Format::create(128, -1, BlockFp8ScaleEncoding::FloatingPoint)) ==
        "block-FP8 geometry must be positive, got [128, -1]");
}

TEST_CASE("weight quantization accessors, with the GGUF bits quirk") {
  const WeightQuantization affine(AffineQuantization{32, 3});
  CHECK(affine.group_size() == 32);
  CHECK(affine.bits() == 3);
  CHECK(affine.has_biases());
  CHECK(affine.validate().has_value());

  const WeightQuantization mxfp4(MxFp4Format{});
  CHECK(mxfp4.group_size() == 32);
  CHECK(mxfp4.bits() == 4);
  CHECK_FALSE(mxfp4.has_biases());
  CHECK(mxfp4.validate().has_value());

  const WeightQuantization q4k(GgufIQuant{12});
  CHECK(q4k.group_size() == 256);
  CHECK(q4k.bits() == 144);  // block bytes, not bits
  CHECK_FALSE(q4k.has_biases());
  CHECK(q4k.validate().has_value());

  const WeightQuantization unsupported(GgufIQuant{9});
  CHECK(unsupported.group_size() == 0);
  CHECK(unsupported.bits() == 0);
  CHECK(error_text(unsupported.validate()) == "unsupported GGML tensor type 9");
  CHECK(error_text(WeightQuantization(AffineQuantization{64, 7}).validate()) ==
        "bits must be one of 2, 3, 4, 5, 6, or 8, got 7");
}

TEST_CASE("linear format kinds, validation and weight quantization") {
  CHECK(LinearFormat().kind() == LinearFormatKind::Dense);
  CHECK(LinearFormat::dense().validate().has_value());
  CHECK_FALSE(LinearFormat::dense().weight_quantization().has_value());
  CHECK(LinearFormat::mxfp4().weight_quantization() == WeightQuantization(MxFp4Format{}));
  CHECK(LinearFormat::gguf(8).weight_quantization() == WeightQuantization(GgufIQuant{8}));
  CHECK(LinearFormat::affine({}).weight_quantization() ==
        WeightQuantization(AffineQuantization{64, 4}));
  const auto fp8 = LinearFormat::block_fp8({128, 128, BlockFp8ScaleEncoding::Ue8m0});
  CHECK(fp8.kind() == LinearFormatKind::E4M3BlockFp8);
  CHECK_FALSE(fp8.weight_quantization().has_value());
  CHECK(fp8.validate().has_value());

  CHECK(error_text(LinearFormat::affine({48, 4}).validate()) ==
        "group_size must be 16 or a positive multiple of 32, got 48");
  CHECK(error_text(LinearFormat::gguf(31).validate()) == "unsupported GGML tensor type 31");
  CHECK(error_text(LinearFormat::block_fp8({1, 0, BlockFp8ScaleEncoding::Ue8m0}).validate()) ==
        "block-FP8 geometry must be positive, got [1, 0]");
}

TEST_CASE("linear format names and debug text") {
  CHECK(linear_format_kind_name(LinearFormatKind::E4M3BlockFp8) == "block_fp8");
  CHECK(parse_linear_format_kind("gguf") == std::optional(LinearFormatKind::GgufIQuant));
  CHECK_FALSE(parse_linear_format_kind("fp8").has_value());
  CHECK(linear_format_kind_from_value(4) == std::optional(LinearFormatKind::E4M3BlockFp8));
  CHECK_FALSE(linear_format_kind_from_value(5).has_value());
  CHECK(block_fp8_scale_encoding_name(BlockFp8ScaleEncoding::FloatingPoint) == "float");
  CHECK(parse_block_fp8_scale_encoding("ue8m0") == std::optional(BlockFp8ScaleEncoding::Ue8m0));
  CHECK_FALSE(block_fp8_scale_encoding_from_value(2).has_value());

  CHECK(LinearFormat::dense().debug() == "Dense");
  CHECK(LinearFormat::mxfp4().debug() == "MxFp4");
  CHECK(LinearFormat::affine({}).debug() ==
        "Affine(AffineQuantization { group_size: 64, bits: 4, mode: Affine })");
  CHECK(LinearFormat::gguf(12).debug() == "GgufIQuant { ggml_type: Q4_K }");
  CHECK(LinearFormat::gguf(99).debug() == "GgufIQuant { ggml_type: 99 }");
  CHECK(LinearFormat::block_fp8({128, 64, BlockFp8ScaleEncoding::FloatingPoint}).debug() ==
        "E4M3BlockFp8(BlockFp8Format { block_rows: 128, block_columns: 64, scale_encoding: "
        "FloatingPoint })");
}

TEST_CASE("linear format spec: exact companion cardinality per format") {
  const auto fp8 = LinearFormat::block_fp8({128, 128, BlockFp8ScaleEncoding::Ue8m0});
  CHECK(LinearFormatSpec::unscaled(LinearFormat::dense()).has_value());
  CHECK(LinearFormatSpec::unscaled(LinearFormat::gguf(12)).has_value());
  CHECK(LinearFormatSpec::scaled(LinearFormat::mxfp4(), "w.scales").has_value());
  CHECK(LinearFormatSpec::scaled(fp8, "w.scale_inv").has_value());
  auto affine =
      LinearFormatSpec::affine(LinearFormat::affine({}), "w.scales", "w.biases", Dtype::F16);
  REQUIRE(affine.has_value());
  CHECK(affine.value().scale() == std::optional<std::string>{"w.scales"});
  CHECK(affine.value().affine_bias() == std::optional<std::string>{"w.biases"});
  CHECK(affine.value().companion_dtype() == std::optional(Dtype::F16));
  CHECK(affine.value().encoding() == LinearFormat::affine({}));

  CHECK(error_text(LinearFormatSpec::scaled(LinearFormat::dense(), "s")) ==
        "linear format Dense requires scale/bias companions (false, false), got (true, false)");
  CHECK(error_text(LinearFormatSpec::unscaled(LinearFormat::mxfp4())) ==
        "linear format MxFp4 requires scale/bias companions (true, false), got (false, false)");
  CHECK(error_text(LinearFormatSpec::affine(fp8, "s", "b")) ==
        "linear format E4M3BlockFp8(BlockFp8Format { block_rows: 128, block_columns: 128, "
        "scale_encoding: Ue8m0 }) requires scale/bias companions (true, false), got (true, true)");
  CHECK(error_text(LinearFormatSpec::scaled(LinearFormat::affine({}), "s")) ==
        "linear format Affine(AffineQuantization { group_size: 64, bits: 4, mode: Affine }) "
        "requires scale/bias companions (true, true), got (true, false)");
  CHECK(error_text(LinearFormatSpec::scaled(LinearFormat::gguf(12), "s")) ==
        "linear format GgufIQuant { ggml_type: Q4_K } requires scale/bias companions (false, "
        "false), got (true, false)");
}

TEST_CASE("linear format spec: check order and identities") {
  // Blank ids come first, scale before bias (ParameterSpec::trainable).
  CHECK(error_text(LinearFormatSpec::affine(LinearFormat::affine({8, 7}), " ", "b")) ==
        "parameter identity must not be empty");
  CHECK(error_text(LinearFormatSpec::affine(LinearFormat::affine({8, 7}), "s", "\t\u3000")) ==
        "parameter identity must not be empty");
  // Then the format, then cardinality.
  CHECK(error_text(LinearFormatSpec::unscaled(LinearFormat::affine({8, 7}))) ==
        "group_size must be 16 or a positive multiple of 32, got 8");
  CHECK(error_text(LinearFormatSpec::scaled(LinearFormat::gguf(4), "s")) ==
        "unsupported GGML tensor type 4");
  CHECK(error_text(LinearFormatSpec::affine(LinearFormat::affine({}), "w.q", "w.q")) ==
        "linear scale and affine-bias companions require distinct identities");
  // The companion dtype only where a companion takes it.
  CHECK(LinearFormatSpec::scaled(LinearFormat::block_fp8({}), "s", Dtype::BF16).has_value());
  CHECK(error_text(LinearFormatSpec::scaled(LinearFormat::mxfp4(), "s", Dtype::F16)) ==
        "linear format MxFp4 takes no companion dtype");
  CHECK(error_text(LinearFormatSpec::unscaled(LinearFormat::dense(), Dtype::F16)) ==
        "linear format Dense takes no companion dtype");
  // raw() skips every check; validate() reports the first.
  const auto raw = LinearFormatSpec::raw(LinearFormat::dense(), "s", std::nullopt);
  CHECK(raw.scale() == std::optional<std::string>{"s"});
  CHECK(error_text(raw.validate()) ==
        "linear format Dense requires scale/bias companions (false, false), got (true, false)");
}
