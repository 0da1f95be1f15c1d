// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Linear-format expansion (seed expand_linear_format_member and
// expand_linear_format_parameter_groups; docs/planning.md, "Expansion").
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "members.hpp"
#include "model/expand.hpp"

using namespace eredu;

namespace {

using eredu::test::member;
using eredu::test::Shape;

std::vector<ParameterMemberSpec> expand(const ParameterMemberSpec& source,
                                        const Result<LinearFormatSpec>& spec) {
  REQUIRE(spec.has_value());
  auto members = expand_linear_format_member(source, spec.value());
  if (members.has_error()) FAIL(members.error().message);
  return members.value();
}

Error expand_error(const ParameterMemberSpec& source, const LinearFormatSpec& spec) {
  auto members = expand_linear_format_member(source, spec);
  REQUIRE(members.has_error());
  return members.error();
}

const auto kAffine = LinearFormat::affine({64, 4});
const auto kUe8m0 = LinearFormat::block_fp8({128, 128, BlockFp8ScaleEncoding::Ue8m0});
const auto kFloat8 = LinearFormat::block_fp8({128, 128, BlockFp8ScaleEncoding::FloatingPoint});

LinearFormatDeclaration everywhere(Result<LinearFormatSpec> spec) {
  return
      [spec = spec.value()](const ParameterMemberSpec&) -> Result<std::optional<LinearFormatSpec>> {
        return std::optional(spec);
      };
}

}  // namespace

TEST_CASE("seed: fp8 expansion uses architecture-declared companion identity") {
  std::vector<ParameterGroupSpec> groups{
      ParameterGroupSpec::partitioned(
          "query", ParameterRole::AttentionHeads, 8,
          {member("opaque_matrix", {256, 256}, MemberSharding::partitioned(0))})
          .value()};
  auto expanded = expand_linear_format_parameter_groups(
      groups, everywhere(LinearFormatSpec::scaled(kUe8m0, "opaque_scale")));
  REQUIRE(expanded.has_value());
  REQUIRE(expanded.value().size() == 1);
  const ParameterGroupSpec& group = expanded.value()[0];
  CHECK(group.partition_units() == std::optional<std::uint64_t>{2});
  REQUIRE(group.members().size() == 2);
  CHECK(group.members()[0].target() == "opaque_matrix");
  CHECK(group.members()[1].target() == "opaque_scale");
  CHECK(group.members()[1].global_shape() == Shape{2, 2});
  CHECK(group.members()[1].sharding() == MemberSharding::partitioned(0));
  CHECK(group.members()[1].dtype() == std::optional(Dtype::F8E8M0));
  CHECK(group.logical_name() == "query");
  CHECK(group.role() == ParameterRole::AttentionHeads);
}

TEST_CASE("derived examples: exact shapes and dtypes") {
  SUBCASE("affine 64/4 [4096, 4096]") {
    auto members = expand(member("w", {4096, 4096}, MemberSharding::equal(0), Dtype::BF16),
                          LinearFormatSpec::affine(kAffine, "w.scales", "w.biases"));
    REQUIRE(members.size() == 3);
    CHECK(members[0] == member("w", {4096, 512}, MemberSharding::equal(0), Dtype::U32));
    CHECK(members[1] == member("w.scales", {4096, 64}, MemberSharding::equal(0), Dtype::BF16));
    CHECK(members[2] == member("w.biases", {4096, 64}, MemberSharding::equal(0), Dtype::BF16));
  }
  SUBCASE("affine companions take companion_dtype") {
    auto members = expand(member("w", {4096, 4096}, MemberSharding::replicated(), Dtype::BF16),
                          LinearFormatSpec::affine(kAffine, "s", "b", Dtype::F16));
    CHECK(members[1].dtype() == std::optional(Dtype::F16));
    CHECK(members[2].dtype() == std::optional(Dtype::F16));
  }
  SUBCASE("affine member without dtype: companions have none, the weight is U32") {
    auto members = expand(member("w", {8, 64}, MemberSharding::replicated()),
                          LinearFormatSpec::affine(LinearFormat::affine({32, 8}), "s", "b"));
    CHECK(members[0] == member("w", {8, 16}, MemberSharding::replicated(), Dtype::U32));
    CHECK(members[1] == member("s", {8, 2}, MemberSharding::replicated()));
    CHECK(members[2] == member("b", {8, 2}, MemberSharding::replicated()));
  }
  SUBCASE("MXFP4 [2880, 2880]") {
    auto members = expand(member("w", {2880, 2880}, MemberSharding::partitioned(0), Dtype::BF16),
                          LinearFormatSpec::scaled(LinearFormat::mxfp4(), "w.scales"));
    REQUIRE(members.size() == 2);
    CHECK(members[0] == member("w", {2880, 360}, MemberSharding::partitioned(0), Dtype::U32));
    CHECK(members[1] ==
          member("w.scales", {2880, 90}, MemberSharding::partitioned(0), Dtype::F8E8M0));
  }
  SUBCASE("GGUF Q4_K [4096, 4096]") {
    auto members = expand(member("w", {4096, 4096}, MemberSharding::equal(0), Dtype::F16),
                          LinearFormatSpec::unscaled(LinearFormat::gguf(12)));
    REQUIRE(members.size() == 1);
    CHECK(members[0] == member("w", {4096, 2304}, MemberSharding::equal(0), Dtype::U8));
  }
  SUBCASE("GGUF Q8_0 [10, 64]") {
    auto members = expand(member("w", {10, 64}, MemberSharding::replicated()),
                          LinearFormatSpec::unscaled(LinearFormat::gguf(8)));
    CHECK(members == std::vector{member("w", {10, 68}, MemberSharding::replicated(), Dtype::U8)});
  }
  SUBCASE("block FP8 [300, 200], float scales") {
    auto source = member("w", {300, 200}, MemberSharding::balanced(0), Dtype::F8E4M3);
    auto members = expand(source, LinearFormatSpec::scaled(kFloat8, "w.scale_inv"));
    REQUIRE(members.size() == 2);
    CHECK(members[0] == source);
    CHECK(members[1] == member("w.scale_inv", {3, 2}, MemberSharding::balanced(0), Dtype::F32));
  }
  SUBCASE("block FP8 scale takes companion_dtype, and batched leading axes") {
    auto members =
        expand(member("experts.w", {4, 256, 384}, MemberSharding::partitioned(0), Dtype::F8E4M3),
               LinearFormatSpec::scaled(kUe8m0, "experts.s", Dtype::BF16));
    CHECK(members[1] ==
          member("experts.s", {4, 2, 3}, MemberSharding::partitioned(0), Dtype::BF16));
  }
  SUBCASE("dense keeps the member, also 1-D") {
    auto source = member("norm", {64}, MemberSharding::replicated(), Dtype::F32);
    CHECK(expand(source, LinearFormatSpec::unscaled(LinearFormat::dense())) == std::vector{source});
  }
}

TEST_CASE("segment remap on the remapped axis only") {
  const std::vector<IndexRange> columns{{0, 64}, {64, 128}};
  SUBCASE("affine 4 bits: weight by 32/4 = 8, companions by the group") {
    auto members = expand(member("w", {8, 128}, MemberSharding::partitioned_segments(1, columns)),
                          LinearFormatSpec::affine(kAffine, "s", "b"));
    CHECK(members[0].global_shape() == Shape{8, 16});
    CHECK(members[0].sharding() == MemberSharding::partitioned_segments(1, {{0, 8}, {8, 16}}));
    CHECK(members[1].sharding() == MemberSharding::partitioned_segments(1, {{0, 1}, {1, 2}}));
    CHECK(members[2].sharding() == members[1].sharding());
  }
  SUBCASE("segments on the row axis and Partitioned on the column axis are copied") {
    const auto rows = MemberSharding::segmented(0, {{0, 3}, {3, 8}});
    auto members = expand(member("w", {8, 128}, rows), LinearFormatSpec::affine(kAffine, "s", "b"));
    CHECK(members[0].sharding() == rows);
    CHECK(members[1].sharding() == rows);
    auto partitioned = expand(member("w", {8, 128}, MemberSharding::partitioned(1)),
                              LinearFormatSpec::affine(kAffine, "s", "b"));
    CHECK(partitioned[0].sharding() == MemberSharding::partitioned(1));
    CHECK(partitioned[1].sharding() == MemberSharding::partitioned(1));
  }
  SUBCASE("3 bits by exact bits: 32 values fill 3 words (not the seed's 32 / 3 = 10)") {
    auto members =
        expand(member("w", {4, 320}, MemberSharding::segmented(1, {{0, 160}, {160, 320}})),
               LinearFormatSpec::affine(LinearFormat::affine({32, 3}), "s", "b"));
    CHECK(members[0].global_shape() == Shape{4, 30});
    // Bits [0, 480) and [480, 960): words [0, 15) and [15, 30).
    CHECK(members[0].sharding() == MemberSharding::segmented(1, {{0, 15}, {15, 30}}));
    CHECK(members[1].sharding() == MemberSharding::segmented(1, {{0, 5}, {5, 10}}));
  }
  SUBCASE("5, 6 and 8 bits by exact bits") {
    // Not a structured binding: clang 14 cannot capture one in CAPTURE's lambda.
    for (const auto& bits_words : {std::pair{5, 150}, std::pair{6, 180}, std::pair{8, 240}}) {
      const int bits = bits_words.first;
      const int words = bits_words.second;
      CAPTURE(bits);
      const std::uint64_t end = 960;  // 960 values: 150, 180 and 240 words
      auto members = expand(member("w", {2, end}, MemberSharding::segmented(1, {{0, end}})),
                            LinearFormatSpec::affine(LinearFormat::affine({32, bits}), "s", "b"));
      CHECK(members[0].sharding() ==
            MemberSharding::segmented(1, {{0, static_cast<std::uint64_t>(words)}}));
    }
  }
  SUBCASE("a weight segment off a word boundary names the source and the cell") {
    // 3 bits: only multiples of 32 values end on a word boundary.
    auto error =
        expand_error(member("w", {4, 64}, MemberSharding::segmented(1, {{0, 16}, {16, 64}})),
                     LinearFormatSpec::affine(LinearFormat::affine({16, 3}), "s", "b").value());
    CHECK(error.code == Status::InvalidTensor);
    CHECK(error.message == "packed companion w segment 0..16 is not aligned to 32");
  }
  SUBCASE("misaligned companion segment: the source target is named") {
    auto error = expand_error(
        member("w", {4, 128}, MemberSharding::partitioned_segments(1, {{0, 32}, {32, 128}})),
        LinearFormatSpec::affine(kAffine, "s", "b").value());
    CHECK(error.code == Status::InvalidTensor);
    CHECK(error.message == "packed companion w segment 0..32 is not aligned to 64");
  }
  SUBCASE("MXFP4 weight by 8, scale by 32") {
    auto members = expand(member("w", {2, 128}, MemberSharding::segmented(1, {{0, 64}, {64, 128}})),
                          LinearFormatSpec::scaled(LinearFormat::mxfp4(), "s"));
    CHECK(members[0].sharding() == MemberSharding::segmented(1, {{0, 8}, {8, 16}}));
    CHECK(members[1].sharding() == MemberSharding::segmented(1, {{0, 2}, {2, 4}}));
  }
  SUBCASE("GGUF to bytes: bound / block values × block bytes (not the seed's block indices)") {
    auto members = expand(
        member("w", {2, 512}, MemberSharding::partitioned_segments(1, {{0, 256}, {256, 512}})),
        LinearFormatSpec::unscaled(LinearFormat::gguf(12)));
    CHECK(members[0].global_shape() == Shape{2, 288});
    CHECK(members[0].sharding() == MemberSharding::partitioned_segments(1, {{0, 144}, {144, 288}}));
    auto f16 =
        expand(member("w", {64, 4096}, MemberSharding::segmented(1, {{0, 2048}, {2048, 4096}})),
               LinearFormatSpec::unscaled(LinearFormat::gguf(1)));
    CHECK(f16[0].sharding() == MemberSharding::segmented(1, {{0, 4096}, {4096, 8192}}));
    auto error = expand_error(member("w", {2, 512}, MemberSharding::segmented(1, {{16, 48}})),
                              LinearFormatSpec::unscaled(LinearFormat::gguf(2)).value());
    CHECK(error.message == "packed companion w segment 16..48 is not aligned to 32");
    CHECK(error.code == Status::InvalidTensor);
  }
  SUBCASE("block FP8 by block rows, then block columns") {
    auto rows = expand(
        member("w", {512, 256}, MemberSharding::partitioned_segments(0, {{0, 256}, {256, 512}})),
        LinearFormatSpec::scaled(kUe8m0, "s"));
    CHECK(rows[0].sharding() == MemberSharding::partitioned_segments(0, {{0, 256}, {256, 512}}));
    CHECK(rows[1].sharding() == MemberSharding::partitioned_segments(0, {{0, 2}, {2, 4}}));
    auto columns = expand(member("w", {256, 512}, MemberSharding::segmented(1, {{128, 512}})),
                          LinearFormatSpec::scaled(kUe8m0, "s"));
    CHECK(columns[1].sharding() == MemberSharding::segmented(1, {{1, 4}}));
    auto error = expand_error(member("w", {300, 256}, MemberSharding::segmented(0, {{0, 100}})),
                              LinearFormatSpec::scaled(kUe8m0, "s").value());
    CHECK(error.code == Status::InvalidTensor);
    CHECK(error.message == "packed companion w segment 0..100 is not aligned to 128");
    // A segment that ends at the axis end maps to the last, partial block.
    auto tail =
        expand(member("w", {576, 256}, MemberSharding::segmented(0, {{0, 512}, {512, 576}})),
               LinearFormatSpec::scaled(kUe8m0, "s"));
    CHECK(tail[1].global_shape() == Shape{5, 2});
    CHECK(tail[1].sharding() == MemberSharding::segmented(0, {{0, 4}, {4, 5}}));
  }
}

TEST_CASE("expansion errors in the seed's order") {
  const auto matrix = member("w", {8, 64}, MemberSharding::replicated());
  auto check = [](const Error& error, Status code, const std::string& message) {
    CHECK(error.code == code);
    CHECK(error.message == message);
  };
  SUBCASE("dense with companions is InvalidGroup, before the shape check") {
    check(expand_error(member("v", {8}, MemberSharding::replicated()),
                       LinearFormatSpec::raw(LinearFormat::dense(), "s", std::nullopt)),
          Status::InvalidGroup, "dense linear parameter v declares physical companions");
    check(expand_error(matrix, LinearFormatSpec::raw(LinearFormat::dense(), std::nullopt, "b")),
          Status::InvalidGroup, "dense linear parameter w declares physical companions");
  }
  SUBCASE("fewer than two axes is InvalidTensor, before companion checks") {
    for (const Shape& shape : {Shape{}, Shape{64}}) {
      check(expand_error(member("v", shape, MemberSharding::replicated()),
                         LinearFormatSpec::raw(LinearFormat::mxfp4(), std::nullopt, std::nullopt)),
            Status::InvalidTensor, "encoded linear parameter v must have at least two dimensions");
    }
  }
  SUBCASE("block FP8: scale, bias, then geometry") {
    check(expand_error(matrix, LinearFormatSpec::raw(
                                   LinearFormat::block_fp8({0, 0, BlockFp8ScaleEncoding::Ue8m0}),
                                   std::nullopt, "b")),
          Status::InvalidGroup,
          "block-FP8 linear parameter w must declare exactly one scale companion");
    check(expand_error(
              matrix, LinearFormatSpec::raw(
                          LinearFormat::block_fp8({0, 0, BlockFp8ScaleEncoding::Ue8m0}), "s", "b")),
          Status::InvalidGroup,
          "block-FP8 linear parameter w must not declare an affine-bias companion");
    check(expand_error(matrix, LinearFormatSpec::raw(
                                   LinearFormat::block_fp8({0, 128, BlockFp8ScaleEncoding::Ue8m0}),
                                   "s", std::nullopt)),
          Status::InvalidTensor, "block-FP8 geometry must be positive, got [0, 128]");
  }
  SUBCASE("GGUF: companions, type, alignment") {
    check(expand_error(matrix, LinearFormatSpec::raw(LinearFormat::gguf(9), "s", std::nullopt)),
          Status::InvalidGroup, "GGUF linear parameter w must not declare companion tensors");
    check(expand_error(matrix,
                       LinearFormatSpec::raw(LinearFormat::gguf(9), std::nullopt, std::nullopt)),
          Status::InvalidTensor, "unsupported GGML tensor type 9");
    check(expand_error(member("w", {4, 100}, MemberSharding::replicated()),
                       LinearFormatSpec::unscaled(LinearFormat::gguf(12)).value()),
          Status::InvalidTensor, "GGUF matrix w input 100 is not aligned to block 256");
  }
  SUBCASE("packed: scale, bias consistency, widths, alignment") {
    check(expand_error(matrix, LinearFormatSpec::raw(kAffine, std::nullopt, "b")),
          Status::InvalidGroup, "packed linear parameter w must declare a scale companion");
    check(expand_error(matrix, LinearFormatSpec::raw(kAffine, "s", std::nullopt)),
          Status::InvalidGroup,
          "packed linear parameter w declares companions inconsistent with its format");
    check(expand_error(matrix, LinearFormatSpec::raw(LinearFormat::mxfp4(), "s", "b")),
          Status::InvalidGroup,
          "packed linear parameter w declares companions inconsistent with its format");
    check(expand_error(matrix, LinearFormatSpec::raw(LinearFormat::affine({64, -1}), "s", "b")),
          Status::InvalidTensor, "packed bit width for w exceeds usize");
    check(expand_error(matrix, LinearFormatSpec::raw(LinearFormat::affine({-64, 4}), "s", "b")),
          Status::InvalidTensor, "packed group width for w exceeds usize");
    check(expand_error(member("w", {8, UINT64_MAX / 2}, MemberSharding::replicated()),
                       LinearFormatSpec::raw(kAffine, "s", "b")),
          Status::InvalidTensor, "packed matrix w overflows");
    check(expand_error(member("w", {8, 96}, MemberSharding::replicated()),
                       LinearFormatSpec::raw(kAffine, "s", "b")),
          Status::InvalidTensor,
          "packed matrix w input 96 is incompatible with group 64 and 4 bits");
    check(expand_error(member("w", {8, 48}, MemberSharding::replicated()),
                       LinearFormatSpec::raw(LinearFormat::affine({16, 3}), "s", "b")),
          Status::InvalidTensor,
          "packed matrix w input 48 is incompatible with group 16 and 3 bits");
    check(expand_error(matrix, LinearFormatSpec::raw(LinearFormat::affine({0, 4}), "s", "b")),
          Status::InvalidTensor,
          "packed matrix w input 64 is incompatible with group 0 and 4 bits");
    // Bits 0 would divide 32 by zero in the seed; here it is incompatible.
    check(expand_error(matrix, LinearFormatSpec::raw(LinearFormat::affine({64, 0}), "s", "b")),
          Status::InvalidTensor,
          "packed matrix w input 64 is incompatible with group 64 and 0 bits");
  }
  SUBCASE("an unvalidated bit width above 32 packs each value into whole words") {
    auto members = expand(member("w", {2, 64}, MemberSharding::segmented(1, {{0, 64}})),
                          LinearFormatSpec::raw(LinearFormat::affine({64, 64}), "s", "b"));
    CHECK(members[0].global_shape() == Shape{2, 128});
    CHECK(members[0].sharding() == MemberSharding::segmented(1, {{0, 128}}));
  }
}

TEST_CASE("group expansion keeps name, role and scope and rebuilds declared groups only") {
  const GroupScope scope = GroupScope::indexed(3, std::nullopt);
  auto group =
      ParameterGroupSpec::create("mlp", ParameterRole::FeedForwardIntermediate,
                                 {member("up", {256, 128}, MemberSharding::equal(0), Dtype::BF16),
                                  member("norm", {128}, MemberSharding::replicated(), Dtype::F32)},
                                 scope)
          .value();
  std::vector<std::string> seen;
  auto expanded = expand_linear_format_group(
      group, [&](const ParameterMemberSpec& source) -> Result<std::optional<LinearFormatSpec>> {
        seen.push_back(source.target());
        if (source.target() != "up") return std::optional<LinearFormatSpec>{};
        return std::optional(LinearFormatSpec::affine(kAffine, "up.scales", "up.biases").value());
      });
  REQUIRE(expanded.has_value());
  CHECK(seen == std::vector<std::string>{"up", "norm"});
  CHECK(expanded.value().scope() == scope);
  CHECK(expanded.value().logical_name() == "mlp");
  CHECK(expanded.value().role() == ParameterRole::FeedForwardIntermediate);
  CHECK_FALSE(expanded.value().partition_units().has_value());
  REQUIRE(expanded.value().members().size() == 4);
  CHECK(expanded.value().members()[0].target() == "up");
  CHECK(expanded.value().members()[1].target() == "up.scales");
  CHECK(expanded.value().members()[2].target() == "up.biases");
  CHECK(expanded.value().members()[3].target() == "norm");

  // A partitioned group without declarations keeps its units exactly,
  // although the seed's rebuild would reduce 8 to gcd(8, 4) = 4.
  auto undeclared =
      ParameterGroupSpec::partitioned("q", ParameterRole::AttentionHeads, 8,
                                      {member("q", {4, 4}, MemberSharding::partitioned(0))}, scope)
          .value();
  auto kept = expand_linear_format_group(undeclared, [](const ParameterMemberSpec&) {
    return Result<std::optional<LinearFormatSpec>>(std::optional<LinearFormatSpec>{});
  });
  CHECK(kept.value() == undeclared);
  // Declared (even as dense): rebuilt with preferred units, scope kept.
  auto rebuilt = expand_linear_format_group(undeclared, everywhere(LinearFormatSpec::unscaled({})));
  CHECK(rebuilt.value().partition_units() == std::optional<std::uint64_t>{4});
  CHECK(rebuilt.value().scope() == scope);
}

TEST_CASE("group expansion errors") {
  auto group = ParameterGroupSpec::create("attn", ParameterRole::AttentionHeads,
                                          {member("q", {256, 256}, MemberSharding::equal(0)),
                                           member("q.scale", {2, 2}, MemberSharding::equal(0))})
                   .value();
  SUBCASE("a companion id equal to another target repeats it") {
    auto error = expand_linear_format_group(
        group, [](const ParameterMemberSpec& source) -> Result<std::optional<LinearFormatSpec>> {
          if (source.target() != "q") return std::optional<LinearFormatSpec>{};
          return std::optional(LinearFormatSpec::scaled(kUe8m0, "q.scale").value());
        });
    REQUIRE(error.has_error());
    CHECK(error.error().code == Status::InvalidGroup);
    CHECK(error.error().message ==
          "parallel parameter group \"attn\" repeats tensor target \"q.scale\"");
  }
  SUBCASE("a declaration error stops the expansion") {
    int calls = 0;
    auto error = expand_linear_format_parameter_groups(
        {group, group}, [&](const ParameterMemberSpec&) -> Result<std::optional<LinearFormatSpec>> {
          ++calls;
          return fail(Status::InvalidFormat, "bad declaration");
        });
    CHECK(error.error().code == Status::InvalidFormat);
    CHECK(calls == 1);
  }
  SUBCASE("the first failing group wins") {
    auto second = ParameterGroupSpec::create("second", ParameterRole::Replicated,
                                             {member("v", {4}, MemberSharding::replicated())})
                      .value();
    auto error = expand_linear_format_parameter_groups(
        {second, group}, everywhere(LinearFormatSpec::scaled(LinearFormat::mxfp4(), "x")));
    CHECK(error.error().message == "encoded linear parameter v must have at least two dimensions");
  }
  SUBCASE("a partitioned axis that the expansion cannot find") {
    auto partitioned =
        ParameterGroupSpec::partitioned("p", ParameterRole::AttentionHeads, 4,
                                        {member("w", {8, 64}, MemberSharding::partitioned(2))})
            .value();
    auto error =
        expand_linear_format_group(partitioned, everywhere(LinearFormatSpec::unscaled({})));
    CHECK(error.error().code == Status::InvalidTensor);
    CHECK(error.error().message == "partitioned parameter w has no axis 2");
  }
}
