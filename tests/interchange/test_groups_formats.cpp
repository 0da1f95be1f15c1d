// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The `format` member of eredu.groups.v1 (docs/interchange.md): loading expands
// a logical dense matrix into its packed weight and companions as the seed's
// expand_linear_format_member does, with the dtypes of the format table and the
// load-error order (structure, group construction, format construction,
// expansion, earlier targets).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "interchange/groups_json.hpp"
#include "interchange/groups_write.hpp"
#include "load_ok.hpp"

namespace eredu {
namespace {

using test::load_ok;

void check_error(std::string_view text, Status code, std::string_view message) {
  auto loaded = load_groups_json(text);
  REQUIRE_FALSE(loaded);
  CHECK(loaded.error().code == code);
  CHECK_MESSAGE(loaded.error().message.find(message) != std::string::npos,
                "message: " << loaded.error().message << " lacks: " << message);
}

// One group named "g" holding `members` (a JSON array body).
std::string group(std::string_view members, std::string_view extra = "") {
  return R"({"schema":"eredu.groups.v1","groups":[{"name":"g","role":"column_projection",)" +
         std::string(extra) + R"("members":[)" + std::string(members) + "]}]}";
}

// A member `t` of `shape` sharded by `sharding` with `format`.
std::string member(std::string_view shape, std::string_view format,
                   std::string_view sharding = R"({"kind":"replicated"})",
                   std::string_view dtype = R"("BF16")") {
  return R"({"target":"t","shape":)" + std::string(shape) + R"(,"dtype":)" + std::string(dtype) +
         R"(,"sharding":)" + std::string(sharding) + R"(,"format":)" + std::string(format) + "}";
}

struct Expected {
  std::string target;
  std::vector<std::uint64_t> shape;
  std::optional<Dtype> dtype;
  MemberSharding sharding;
};

void check_members(const ModelDescription& model, const std::vector<Expected>& expected) {
  REQUIRE(model.groups().size() == 1);
  const auto& members = model.groups()[0].members();
  REQUIRE(members.size() == expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    CAPTURE(i);
    CHECK(members[i].target() == expected[i].target);
    CHECK(members[i].global_shape() == expected[i].shape);
    CHECK(members[i].dtype() == expected[i].dtype);
    CHECK(members[i].sharding() == expected[i].sharding);
  }
}

TEST_CASE("an affine member expands into U32 words, scales and biases") {
  const auto model = load_ok(group(
      member("[4096,4096]",
             R"({"kind":"affine","group_size":64,"bits":4,"scale":"t.scales","bias":"t.biases"})",
             R"({"kind":"partitioned","axis":1})"),
      R"("partition_units":128,)"));
  const auto column = MemberSharding::partitioned(1);
  check_members(*model, {{"t", {4096, 512}, Dtype::U32, column},
                         {"t.scales", {4096, 64}, Dtype::BF16, column},
                         {"t.biases", {4096, 64}, Dtype::BF16, column}});
  // The preferred 128 units shrink to what every companion can represent.
  CHECK(model->groups()[0].partition_units() == 64u);
  CHECK(model->global_bytes() == 4096u * 512 * 4 + 2 * 4096u * 64 * 2);

  // companion_dtype overrides the member's dtype for scales and biases.
  const auto f32 = load_ok(group(member(
      "[8,64]",
      R"({"kind":"affine","group_size":32,"bits":8,"scale":"s","bias":"b","companion_dtype":"F32"})")));
  check_members(*f32, {{"t", {8, 16}, Dtype::U32, {}},
                       {"s", {8, 2}, Dtype::F32, {}},
                       {"b", {8, 2}, Dtype::F32, {}}});
}

TEST_CASE("MXFP4, GGUF and block-FP8 members expand with the format table's dtypes") {
  check_members(*load_ok(group(member("[2880,2880]", R"({"kind":"mxfp4","scale":"t.scales"})"))),
                {{"t", {2880, 360}, Dtype::U32, {}}, {"t.scales", {2880, 90}, Dtype::F8E8M0, {}}});
  for (std::string_view type : {R"("Q4_K")", "12"}) {
    CAPTURE(type);
    check_members(*load_ok(group(member(
                      "[4096,4096]", R"({"kind":"gguf","ggml_type":)" + std::string(type) + "}"))),
                  {{"t", {4096, 2304}, Dtype::U8, {}}});
  }
  check_members(*load_ok(group(member("[10,64]", R"({"kind":"gguf","ggml_type":"Q8_0"})"))),
                {{"t", {10, 68}, Dtype::U8, {}}});
  const std::string fp8 = R"({"kind":"block_fp8","block":[128,128],"scale":"t.scale_inv",)";
  check_members(*load_ok(group(member("[300,200]", fp8 + R"("scale_encoding":"ue8m0"})",
                                      R"({"kind":"replicated"})", R"("F8_E4M3")"))),
                {{"t", {300, 200}, Dtype::F8E4M3, {}}, {"t.scale_inv", {3, 2}, Dtype::F8E8M0, {}}});
  check_members(*load_ok(group(member("[300,200]", fp8 + R"("scale_encoding":"float"})",
                                      R"({"kind":"replicated"})", R"("F8_E4M3")"))),
                {{"t", {300, 200}, Dtype::F8E4M3, {}}, {"t.scale_inv", {3, 2}, Dtype::F32, {}}});
  check_members(*load_ok(group(member(
                    "[300,200]", fp8 + R"("scale_encoding":"float","companion_dtype":"BF16"})"))),
                {{"t", {300, 200}, Dtype::BF16, {}}, {"t.scale_inv", {3, 2}, Dtype::BF16, {}}});
}

TEST_CASE("a member without dtype keeps the table's packed dtype; its companions have none") {
  check_members(
      *load_ok(group(member("[8,64]",
                            R"({"kind":"affine","group_size":64,"bits":4,"scale":"s","bias":"b"})",
                            R"({"kind":"replicated"})", "null"))),
      {{"t", {8, 8}, Dtype::U32, {}},
       {"s", {8, 1}, std::nullopt, {}},
       {"b", {8, 1}, std::nullopt, {}}});
}

TEST_CASE("a dense format rebuilds its group with the preferred units reduced") {
  const auto model =
      load_ok(group(member("[12,8]", R"({"kind":"dense"})", R"({"kind":"partitioned","axis":0})"),
                    R"("partition_units":8,)"));
  check_members(*model, {{"t", {12, 8}, Dtype::BF16, MemberSharding::partitioned(0)}});
  CHECK(model->groups()[0].partition_units() == 4u);
  // Without any format member, the declared units stay as they are (and the
  // planner reports the misfit).
  const auto plain = load_ok(
      R"({"schema":"eredu.groups.v1","groups":[{"name":"g","role":"channels","partition_units":8,)"
      R"("members":[{"target":"t","shape":[12,8],"sharding":{"kind":"partitioned","axis":0}}]}]})");
  CHECK(plain->groups()[0].partition_units() == 8u);
}

TEST_CASE("segment shardings are remapped onto the packed axis") {
  // Affine 4 bits: the weight's segments divide by 32 / 4 = 8, the
  // companions' by the group (32).
  const auto model = load_ok(group(
      member("[4,128]", R"({"kind":"affine","group_size":32,"bits":4,"scale":"s","bias":"b"})",
             R"({"kind":"segmented","axis":1,"segments":[[0,64],[64,128]]})")));
  check_members(*model,
                {{"t", {4, 16}, Dtype::U32, MemberSharding::segmented(1, {{0, 8}, {8, 16}})},
                 {"s", {4, 4}, Dtype::BF16, MemberSharding::segmented(1, {{0, 2}, {2, 4}})},
                 {"b", {4, 4}, Dtype::BF16, MemberSharding::segmented(1, {{0, 2}, {2, 4}})}});
}

TEST_CASE("format structure errors are parse errors naming the field") {
  const std::string at = "/groups/0/members/0/format";
  check_error(
      group(member("[8,64]", R"({"kind":"affine","group_size":64,"scale":"s","bias":"b"})")),
      Status::Parse, at + "/bits: required for format kind affine");
  check_error(group(member("[8,64]", R"({"kind":"mxfp4","scale":"s","bias":"b"})")), Status::Parse,
              at + "/bias: not allowed for format kind mxfp4");
  check_error(group(member("[8,64]", R"({"kind":"mxfp4","scale":"s","companion_dtype":"F32"})")),
              Status::Parse, at + "/companion_dtype: not allowed for format kind mxfp4");
  check_error(group(member("[8,64]", R"({"kind":"dense","block":[1,1]})")), Status::Parse,
              at + "/block: not allowed for format kind dense");
  check_error(group(member("[8,64]", R"({"kind":"int4"})")), Status::Parse,
              at + "/kind: unknown format kind \"int4\"");
  check_error(group(member("[8,64]", R"({"scale":"s"})")), Status::Parse,
              at + "/kind: required field is missing");
  check_error(group(member("[8,64]", R"({"kind":"gguf","ggml_type":"Q9_9"})")), Status::Parse,
              at + "/ggml_type: unknown GGML type \"Q9_9\"");
  check_error(group(member("[8,64]", R"({"kind":"gguf","ggml_type":-1})")), Status::Parse,
              at + "/ggml_type");
  check_error(
      group(member("[8,64]",
                   R"({"kind":"block_fp8","block":[128],"scale_encoding":"float","scale":"s"})")),
      Status::Parse, at + "/block: expected a [rows, columns] pair, found 1 elements");
  check_error(
      group(member("[8,64]",
                   R"({"kind":"block_fp8","block":[1,1],"scale_encoding":"e8","scale":"s"})")),
      Status::Parse, at + "/scale_encoding: unknown scale encoding \"e8\"");
  check_error(group(member("[8,64]", R"({"kind":"dense","x":1})")), Status::Parse,
              at + "/x: unknown field");
  check_error(group(member("[8,64]", "[]")), Status::Parse, at + ": expected an object");
  // A structure error anywhere beats a format construction error.
  check_error(
      R"({"schema":"eredu.groups.v1","groups":[{"name":"g","role":"channels","members":[)" +
          member("[8,64]", R"({"kind":"affine","group_size":48,"bits":4,"scale":"s","bias":"b"})") +
          R"(]},{"name":"h","role":"bogus","members":[]}]})",
      Status::Parse, "/groups/1/role: unknown role");
}

TEST_CASE("format construction errors are EREDU_E_INVALID_FORMAT") {
  auto affine = [](std::string_view group_size, std::string_view bits) {
    return group(member("[8,64]", R"({"kind":"affine","group_size":)" + std::string(group_size) +
                                      R"(,"bits":)" + std::string(bits) +
                                      R"(,"scale":"s","bias":"b"})"));
  };
  // The message locates the format by its JSON pointer.
  check_error(affine("48", "7"), Status::InvalidFormat,
              "/groups/0/members/0/format: group_size must be 16 or a positive multiple of 32, "
              "got 48");
  check_error(affine("64", "7"), Status::InvalidFormat,
              "bits must be one of 2, 3, 4, 5, 6, or 8, got 7");
  check_error(affine("4294967296", "4"), Status::InvalidFormat,
              "group_size must be 16 or a positive multiple of 32, got 4294967296");
  check_error(affine("64", "4294967300"), Status::InvalidFormat,
              "bits must be one of 2, 3, 4, 5, 6, or 8, got 4294967300");
  check_error(group(member("[8,64]",
                           R"({"kind":"affine","group_size":64,"bits":4,"scale":"s","bias":"s"})")),
              Status::InvalidFormat, "distinct");
  check_error(group(member("[8,64]", R"({"kind":"mxfp4","scale":"  "})")), Status::InvalidFormat,
              "parameter identity must not be empty");
  check_error(group(member("[8,64]", R"({"kind":"gguf","ggml_type":"Q8_1"})")),
              Status::InvalidFormat, "unsupported GGML tensor type 9");
  check_error(group(member("[8,64]", R"({"kind":"gguf","ggml_type":36})")), Status::InvalidFormat,
              "unsupported GGML tensor type 36");
  check_error(group(member("[8,64]", R"({"kind":"gguf","ggml_type":4294967296})")),
              Status::InvalidFormat, "unsupported GGML tensor type 4294967296");
  check_error(
      group(member("[8,64]",
                   R"({"kind":"block_fp8","block":[0,128],"scale_encoding":"float","scale":"s"})")),
      Status::InvalidFormat, "block-FP8 geometry must be positive, got [0, 128]");
}

TEST_CASE("expansion errors keep the seed's codes") {
  check_error(group(member("[8,100]",
                           R"({"kind":"affine","group_size":64,"bits":4,"scale":"s","bias":"b"})")),
              Status::InvalidTensor,
              "packed matrix t input 100 is incompatible with group 64 and 4 bits");
  check_error(group(member("[64]", R"({"kind":"mxfp4","scale":"s"})")), Status::InvalidTensor,
              "encoded linear parameter t must have at least two dimensions");
  check_error(group(member("[8,100]", R"({"kind":"gguf","ggml_type":"Q8_0"})")),
              Status::InvalidTensor, "GGUF matrix t input 100 is not aligned to block 32");
  check_error(group(member("[4,128]",
                           R"({"kind":"affine","group_size":32,"bits":4,"scale":"s","bias":"b"})",
                           R"({"kind":"segmented","axis":1,"segments":[[0,60],[60,128]]})")),
              Status::InvalidTensor, "packed companion t segment 0..60 is not aligned to 8");
  // A companion named like another member of its group.
  check_error(group(member("[8,64]", R"({"kind":"mxfp4","scale":"t"})")), Status::InvalidGroup,
              "repeats tensor target");
}

TEST_CASE("step 4 runs group by group: construction, format, expansion, earlier targets") {
  // Group construction (partition units without a partitioned member) comes
  // before the group's format.
  check_error(group(member("[8,64]",
                           R"({"kind":"affine","group_size":48,"bits":4,"scale":"s","bias":"b"})"),
                    R"("partition_units":2,)"),
              Status::InvalidGroup, "group-level logical partition");
  // A scope outside the model comes before the format.
  check_error(
      R"({"schema":"eredu.groups.v1","model":{"layers":2},"groups":[{"name":"g","role":"channels","scope":{"layer":5},"members":[)" +
          member("[8,64]", R"({"kind":"affine","group_size":48,"bits":4,"scale":"s","bias":"b"})") +
          "]}]}",
      Status::InvalidGroup, "outside the model's 2 layers");
  // An earlier group's format error beats a later group's construction error.
  check_error(
      R"({"schema":"eredu.groups.v1","groups":[{"name":"g","role":"channels","members":[)" +
          member("[8,64]", R"({"kind":"affine","group_size":48,"bits":4,"scale":"s","bias":"b"})") +
          R"(]},{"name":" ","role":"channels","members":[]}]})",
      Status::InvalidFormat, "got 48");
  // A companion target used by an earlier group.
  check_error(R"({"schema":"eredu.groups.v1","groups":[{"name":"a","role":"channels","members":[)"
              R"({"target":"t.scales","shape":[1],"sharding":{"kind":"replicated"}}]},)"
              R"({"name":"g","role":"channels","members":[)" +
                  member("[8,64]", R"({"kind":"mxfp4","scale":"t.scales"})") + "]}]}",
              Status::InvalidGroup,
              "parallel placement target \"t.scales\" was registered more than once");
}

TEST_CASE("an expanded description is written as declared and reloads equal") {
  const auto model = load_ok(group(
      member("[4096,4096]",
             R"({"kind":"affine","group_size":64,"bits":4,"scale":"t.scales","bias":"t.biases"})",
             R"({"kind":"partitioned","axis":1})"),
      R"("partition_units":128,)"));
  const std::string written = groups_to_json(*model);
  CHECK(written.find(R"("format":{"kind":"affine","group_size":64,"bits":4,"scale":"t.scales",)"
                     R"("bias":"t.biases"}})") != std::string::npos);
  CHECK(written.find("U32") == std::string::npos);
  const auto reloaded = load_ok(written);
  CHECK(reloaded->groups() == model->groups());
  CHECK(groups_to_json(*reloaded) == written);
}

}  // namespace
}  // namespace eredu
