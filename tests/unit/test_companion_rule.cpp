// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The companion rule in the planner (docs/decisions.md, "Companion
// consistency"): splits that separate a quantized matrix from its scales,
// blocks or packed words are refused on every rank, with the tensor, axis,
// interval, width and the sizes that work; splits that keep them together
// plan exactly.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <string>

#include "interchange/groups_json.hpp"
#include "plan/companion_rule.hpp"
#include "plan/planner.hpp"

using namespace eredu;

namespace {

// One group holding one encoded matrix `w` of `shape` (a JSON array).
std::string matrix(const std::string& shape, const std::string& dtype, const std::string& format,
                   const std::string& sharding, const std::string& units = "") {
  return fmt::format(
      R"({{"schema":"eredu.groups.v1","groups":[{{"name":"m","role":"row_projection",{})"
      R"("members":[{{"target":"w","shape":{},"dtype":"{}","sharding":{},"format":{}}}]}}]}})",
      units.empty() ? "" : "\"partition_units\":" + units + ",", shape, dtype, sharding, format);
}

const std::string kFp8 =
    R"({"kind":"block_fp8","block":[128,128],"scale_encoding":"float","scale":"w.s"})";
const std::string kAffine64x4 =
    R"({"kind":"affine","group_size":64,"bits":4,"scale":"w.s","bias":"w.b"})";
const std::string kMxfp4 = R"({"kind":"mxfp4","scale":"w.s"})";

std::string gguf(const std::string& type) {
  return R"({"kind":"gguf","ggml_type":")" + type + "\"}";
}

std::string sharding(const std::string& kind, int axis) {
  return fmt::format(R"({{"kind":"{}","axis":{}}})", kind, axis);
}

std::shared_ptr<const ModelDescription> load(const std::string& text) {
  auto model = load_groups_json(text);
  REQUIRE_MESSAGE(model.has_value(), model.error().message);
  return model.value();
}

Result<LocalModelLayout> plan(const std::shared_ptr<const ModelDescription>& model,
                              std::uint64_t rank, std::uint64_t tp,
                              ShardingPolicy policy = ShardingPolicy::Require,
                              std::uint64_t pp = 1) {
  return plan_rank(model, ParallelTopology::create(tp, pp, 1, 1).value(), rank, policy);
}

// The error every rank of TP `tp` gets (the rule is rank-independent).
Error refused(const std::shared_ptr<const ModelDescription>& model, std::uint64_t tp) {
  auto first = plan(model, 0, tp);
  REQUIRE(first.has_error());
  for (std::uint64_t rank = 1; rank < tp; ++rank) {
    auto other = plan(model, rank, tp);
    REQUIRE(other.has_error());
    CHECK(other.error().code == first.error().code);
    CHECK(other.error().message == first.error().message);
  }
  CHECK(first.error().code == Status::InvalidTensor);
  return first.error();
}

const TensorPlacement& placement(const LocalModelLayout& layout, std::string_view target) {
  const LocalTensorLayout* tensor = layout.tensor(target);
  REQUIRE(tensor != nullptr);
  return tensor->placement;
}

}  // namespace

TEST_CASE("block-FP8 row-parallel [1280, 258]: refused at TP 2 and 3, plans at 1") {
  const auto model = load(matrix("[1280,258]", "F8_E4M3", kFp8, sharding("partitioned", 1), "258"));
  CHECK(refused(model, 2).message ==
        "logical parameter \"m\": tensor \"w\" on tensor rank 0 of 2 holds values [0, 172) of "
        "axis 1, which do not start and end on the 128-value blocks of \"w.s\"; tensor sizes up "
        "to 64 that work for this group: 1");
  CHECK(refused(model, 3).message ==
        "logical parameter \"m\": tensor \"w\" on tensor rank 0 of 3 holds values [0, 86) of "
        "axis 1, which do not start and end on the 128-value blocks of \"w.s\"; tensor sizes up "
        "to 64 that work for this group: 1");
  auto one = plan(model, 0, 1).value();
  CHECK(placement(one, "w") == TensorPlacement::range(1, 0, 258));
  CHECK(placement(one, "w.s") == TensorPlacement::range(1, 0, 3));
}

TEST_CASE("block-FP8 row-parallel [1280, 256] plans at TP 2 with one scale column each") {
  const auto model = load(matrix("[1280,256]", "F8_E4M3", kFp8, sharding("partitioned", 1), "256"));
  for (std::uint64_t rank = 0; rank < 2; ++rank) {
    auto layout = plan(model, rank, 2).value();
    CHECK(placement(layout, "w") == TensorPlacement::range(1, 128 * rank, 128 * rank + 128));
    CHECK(placement(layout, "w.s") == TensorPlacement::range(1, rank, rank + 1));
    CHECK(layout.tensor("w.s")->local_shape == std::vector<std::uint64_t>{10, 1});
  }
}

TEST_CASE("every found case is refused at its tensor size") {
  struct Found {
    std::string text;
    std::uint64_t tp;
    std::string message;
  };
  const std::string q4k_group =
      R"({"schema":"eredu.groups.v1","groups":[{"name":"m","role":"row_projection",)"
      R"("partition_units":64,"members":[{"target":"w","shape":[64,8192],"dtype":"F32",)"
      R"("sharding":{"kind":"partitioned","axis":1},"format":{"kind":"gguf","ggml_type":"Q4_K"}}]}]})";
  const std::vector<Found> cases{
      {matrix("[512,256]", "BF16", kAffine64x4, sharding("balanced", 1)), 3,
       "tensor \"w\" on tensor rank 0 of 3 holds values [0, 88) of axis 1, which do not start "
       "and end on the 64-value groups of \"w.s\"; tensor sizes up to 64 that work for this "
       "group: 1, 2, 4"},
      {matrix("[384,512]", "F8_E4M3", kFp8, sharding("balanced", 0)), 2,
       "tensor \"w\" on tensor rank 0 of 2 holds values [0, 192) of axis 0, which do not start "
       "and end on the 128-value blocks of \"w.s\"; tensor sizes up to 64 that work for this "
       "group: 1, 3"},
      {matrix("[1024,1024]", "F8_E4M3", kFp8, sharding("balanced", 1)), 3,
       "tensor \"w\" on tensor rank 0 of 3 holds values [0, 342) of axis 1, which do not start "
       "and end on the 128-value blocks of \"w.s\"; tensor sizes up to 64 that work for this "
       "group: 1, 2, 4, 8"},
      {matrix("[1280,258]", "F8_E4M3", kFp8, sharding("equal", 1)), 3,
       "tensor \"w\" on tensor rank 0 of 3 holds values [0, 86) of axis 1, which do not start "
       "and end on the 128-value blocks of \"w.s\"; tensor sizes up to 64 that work for this "
       "group: 1"},
      {matrix("[130,256]", "F8_E4M3", kFp8, sharding("equal", 0)), 2,
       "tensor \"w\" on tensor rank 0 of 2 holds values [0, 65) of axis 0, which do not start "
       "and end on the 128-value blocks of \"w.s\"; tensor sizes up to 64 that work for this "
       "group: 1"},
      {matrix("[64,4096]", "F32", gguf("Q4_0"), sharding("equal", 1)), 3,
       "tensor \"w\" on tensor rank 0 of 3 selects bytes [0, 768) of axis 1, which split its "
       "18-byte blocks of 32 values; tensor sizes up to 64 that work for this group: 1, 2, 4, "
       "8, 16, 32, 64"},
      {q4k_group, 3,
       "tensor \"w\" on tensor rank 1 of 3 selects bytes [1584, 3096) of axis 1, which split "
       "its 144-byte blocks of 256 values; tensor sizes up to 64 that work for this group: 1, "
       "2, 4, 8, 16, 32"},
      {matrix("[64,2880]", "BF16", kMxfp4, sharding("balanced", 1)), 4,
       "tensor \"w\" on tensor rank 0 of 4 holds values [0, 720) of axis 1, which do not start "
       "and end on the 32-value groups of \"w.s\"; tensor sizes up to 64 that work for this "
       "group: 1, 2, 3, 5, 6, 9, 10, 15, 18, 30, 45"},
      {matrix("[640,256]", "F8_E4M3", kFp8,
              R"({"kind":"segmented","axis":0,"segments":[[0,256],[256,640]]})"),
       2,
       "tensor \"w\" on tensor rank 0 of 2 holds values [256, 448) of axis 0, which do not "
       "start and end on the 128-value blocks of \"w.s\"; tensor sizes up to 64 that "
       "work for this group: 1"},
  };
  for (const Found& found : cases) {
    CAPTURE(found.text);
    const Error error = refused(load(found.text), found.tp);
    CHECK(error.message == "logical parameter \"m\": " + found.message);
  }
}

TEST_CASE("3-bit affine segments pack by exact bits") {
  const std::string three_bits =
      R"({"kind":"affine","group_size":32,"bits":3,"scale":"w.s","bias":"w.b"})";
  // 1600 values a segment: 150 words, 50 groups; a fifth is 30 words holding
  // exactly 320 values and 10 groups.
  const auto even =
      load(matrix("[64,3200]", "BF16", three_bits,
                  R"({"kind":"segmented","axis":1,"segments":[[0,1600],[1600,3200]]})"));
  for (std::uint64_t rank = 0; rank < 5; ++rank) {
    auto layout = plan(even, rank, 5).value();
    const std::vector<IndexRange> words{{30 * rank, 30 * rank + 30},
                                        {150 + 30 * rank, 150 + 30 * rank + 30}};
    CHECK(placement(layout, "w") == TensorPlacement::indices(1, words));
    const std::vector<IndexRange> groups{{10 * rank, 10 * rank + 10},
                                         {50 + 10 * rank, 50 + 10 * rank + 10}};
    CHECK(placement(layout, "w.s") == TensorPlacement::indices(1, groups));
  }
  // 224 values (7 groups, 21 words) split 5 ways: 5 words are 53⅓ values.
  const auto uneven =
      load(matrix("[64,3200]", "BF16", three_bits,
                  R"({"kind":"segmented","axis":1,"segments":[[0,224],[224,3200]]})"));
  CHECK(refused(uneven, 5).message.starts_with(
      "logical parameter \"m\": tensor \"w\" on tensor rank 0 of 5 selects 32-bit words [0, 5) "
      "of axis 1, which split its values packed at 3 bits (32 values fill 3 words)"));
}

TEST_CASE("an F16 GGUF member segmented on its columns loads every byte once") {
  const auto model =
      load(matrix("[64,4096]", "F16", gguf("F16"),
                  R"({"kind":"segmented","axis":1,"segments":[[0,2048],[2048,4096]]})"));
  auto zero = plan(model, 0, 2).value();
  auto one = plan(model, 1, 2).value();
  CHECK(model->member(0).global_shape() == std::vector<std::uint64_t>{64, 8192});
  CHECK(placement(zero, "w") ==
        TensorPlacement::indices(1, std::vector<IndexRange>{{0, 2048}, {4096, 6144}}));
  CHECK(placement(one, "w") ==
        TensorPlacement::indices(1, std::vector<IndexRange>{{2048, 4096}, {6144, 8192}}));
  CHECK(*zero.tensor("w")->local_bytes + *one.tensor("w")->local_bytes == 64 * 8192);
}

TEST_CASE("replicate-unsupported falls the group back on every rank, owned or not") {
  const std::string text =
      R"({"schema":"eredu.groups.v1","model":{"layers":2},"groups":[)"
      R"({"name":"ok","role":"replicated","scope":{"layer":0},"members":[)"
      R"({"target":"n","shape":[4],"dtype":"F32","sharding":{"kind":"replicated"}}]},)"
      R"({"name":"m","role":"row_projection","partition_units":258,"scope":{"layer":1},)"
      R"("members":[{"target":"w","shape":[1280,258],"dtype":"F8_E4M3",)"
      R"("sharding":{"kind":"partitioned","axis":1},"format":)" +
      kFp8 + "}]}]}";
  const auto model = load(text);
  for (std::uint64_t rank = 0; rank < 4; ++rank) {
    CAPTURE(rank);
    auto layout = plan(model, rank, 2, ShardingPolicy::ReplicateUnsupported, 2).value();
    CHECK(layout.fell_back_groups == std::vector<std::uint32_t>{1});
    const bool owner = rank >= 2;  // stage 1 owns layer 1
    CHECK(placement(layout, "w") ==
          (owner ? TensorPlacement::replicated() : TensorPlacement::omit()));
    CHECK(layout.tensor("w.s")->fell_back_to_replication);
  }
  CHECK(
      plan(model, 0, 2, ShardingPolicy::Require, 2)
          .error()
          .message.starts_with(
              "logical parameter \"m\": tensor \"w\" on tensor rank 0 of 2 holds values [0, 172)"));
}

TEST_CASE("groups without formats plan as before: the rule sees only encoded matrices") {
  // The same physical shapes, declared without a format: nothing to check.
  const std::string text =
      R"({"schema":"eredu.groups.v1","groups":[{"name":"m","role":"row_projection",)"
      R"("partition_units":3,"members":[)"
      R"({"target":"w","shape":[1280,258],"dtype":"F8_E4M3","sharding":{"kind":"partitioned","axis":1}},)"
      R"({"target":"w.s","shape":[10,3],"dtype":"F32","sharding":{"kind":"partitioned","axis":1}}]}]})";
  const auto model = load(text);
  CHECK(model->groups()[0].encoded().empty());
  auto layout = plan(model, 1, 2).value();
  CHECK(placement(layout, "w") == TensorPlacement::range(1, 172, 258));
  CHECK(placement(layout, "w.s") == TensorPlacement::range(1, 2, 3));
}

TEST_CASE("the sizes that work, and the rule at TP 1") {
  const auto model = load(matrix("[512,256]", "BF16", kAffine64x4, sharding("balanced", 1)));
  const ParameterGroupSpec& group = model->groups()[0];
  CHECK(working_tensor_sizes(group, 8) == std::vector<std::uint64_t>{1, 2, 4});
  CHECK(check_companion_rule(group, 1));
  CHECK(check_companion_rule(group, 4));
  CHECK(check_companion_rule(group, 3).error().code == Status::InvalidTensor);
  const CompanionVerdicts verdicts = companion_verdicts(*model, 3);
  REQUIRE(verdicts.size() == 1);
  REQUIRE(verdicts[0].has_value());
  CHECK(verdicts[0]->message == check_companion_rule(group, 3).error().message);
}
