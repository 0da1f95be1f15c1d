// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Vocabulary padding (docs/planning.md, "Vocabulary padding"): allocated
// rows, rows read, padding rows, bytes, and the coverage proof over the rows
// read.
#include <doctest/doctest.h>

#include "interchange/layout_json.hpp"
#include "model/vocab_padding.hpp"
#include "plan/planner.hpp"
#include "plan/resolve.hpp"
#include "unit/members.hpp"
#include "world/world.hpp"

using namespace eredu;

namespace {

using eredu::test::member;
using eredu::test::model_of;
using eredu::test::Shape;

// An embedding of `vocab` rows of width 4 (BF16) and a head with a norm and
// the output rows, both padded to a multiple of `multiple`.
std::shared_ptr<const ModelDescription> vocab_model(std::uint64_t vocab, std::uint64_t multiple) {
  auto embed = ParameterGroupSpec::create(
                   "embed", ParameterRole::Vocabulary,
                   {member("embed", {vocab, 4}, MemberSharding::balanced(0), Dtype::BF16)},
                   GroupScope::embedding())
                   .value()
                   .with_vocab_pad_multiple(multiple);
  auto head = ParameterGroupSpec::create(
                  "head", ParameterRole::Vocabulary,
                  {member("norm", {4}, MemberSharding::replicated(), Dtype::BF16),
                   member("lm_head", {vocab, 4}, MemberSharding::balanced(0), Dtype::BF16)},
                  GroupScope::output_head())
                  .value()
                  .with_vocab_pad_multiple(multiple);
  REQUIRE(embed);
  REQUIRE(head);
  return model_of({std::move(embed).value(), std::move(head).value()}, {{}, 1, {}});
}

LocalModelLayout plan(const std::shared_ptr<const ModelDescription>& model, std::uint64_t tp,
                      std::uint64_t rank, ShardingPolicy policy = ShardingPolicy::Require) {
  auto layout = plan_rank(model, ParallelTopology::create(tp, 1, 1, 1).value(), rank, policy);
  REQUIRE_MESSAGE(layout.has_value(), layout.error().message);
  return std::move(layout).value();
}

const LocalTensorLayout& at(const LocalModelLayout& layout, std::string_view target) {
  const LocalTensorLayout* entry = layout.tensor(target);
  REQUIRE(entry != nullptr);
  return *entry;
}

}  // namespace

TEST_CASE("P = ceil(V / (M*T)) * M*T: each rank allocates P/T rows and reads those that exist") {
  // V = 11, M = 2, T = 3: P = 12, 4 rows per rank; the last reads 3.
  const auto model = vocab_model(11, 2);
  const std::vector<IndexRange> read{{0, 4}, {4, 8}, {8, 11}};
  for (std::uint64_t t = 0; t < 3; ++t) {
    CAPTURE(t);
    const LocalModelLayout layout = plan(model, 3, t);
    for (const char* target : {"embed", "lm_head"}) {
      const LocalTensorLayout& entry = at(layout, target);
      CHECK(entry.placement == TensorPlacement::range(0, read[t].start, read[t].end));
      CHECK(entry.local_shape == Shape{4, 4});
      CHECK(entry.padding_rows == (t == 2 ? 1u : 0u));
      CHECK(entry.local_bytes == std::optional<std::uint64_t>{4 * 4 * 2});
    }
    CHECK(at(layout, "norm").placement == TensorPlacement::replicated());
    CHECK(at(layout, "norm").padding_rows == 0);
    // Bytes count the allocated rows: two 4 x 4 BF16 tensors and the norm.
    CHECK(layout.totals.local_bytes == 2 * (4 * 4 * 2) + 4 * 2);
  }
  // Without padding the same rows split 4, 4, 3.
  auto plain = model_of({ParameterGroupSpec::create(
                             "embed", ParameterRole::Vocabulary,
                             {member("embed", {11, 4}, MemberSharding::balanced(0), Dtype::BF16)})
                             .value()});
  CHECK(at(plan(plain, 3, 2), "embed").local_shape == Shape{3, 4});
}

TEST_CASE("one rank pads at tensor size 1; the layout JSON names the padding rows") {
  const LocalModelLayout layout = plan(vocab_model(11, 8), 1, 0);
  CHECK(at(layout, "embed").placement == TensorPlacement::range(0, 0, 11));
  CHECK(at(layout, "embed").local_shape == Shape{16, 4});
  CHECK(at(layout, "embed").padding_rows == 5);
  const std::string json = layout_to_json(layout);
  CHECK(json.find("\"padding_rows\":5") != std::string::npos);
  // An exact multiple needs no padding rows, and the JSON leaves them out.
  const LocalModelLayout exact = plan(vocab_model(16, 8), 2, 1);
  CHECK(at(exact, "embed").placement == TensorPlacement::range(0, 8, 16));
  CHECK(at(exact, "embed").padding_rows == 0);
  CHECK(layout_to_json(exact).find("padding_rows") == std::string::npos);
}

TEST_CASE("a rank past the vocabulary holds only padding and reads [V, V)") {
  // V = 3, M = 4, T = 2: P = 8; rank 0 reads [0, 3) and pads 1, rank 1 pads 4.
  const auto model = vocab_model(3, 4);
  const LocalModelLayout first = plan(model, 2, 0);
  CHECK(at(first, "lm_head").placement == TensorPlacement::range(0, 0, 3));
  CHECK(at(first, "lm_head").padding_rows == 1);
  const LocalModelLayout second = plan(model, 2, 1);
  CHECK(at(second, "lm_head").placement == TensorPlacement::range(0, 3, 3));
  CHECK(at(second, "lm_head").local_shape == Shape{4, 4});
  CHECK(at(second, "lm_head").padding_rows == 4);
  // More tensor ranks than rows: refused unpadded, planned padded.
  auto world =
      plan_world(model, ParallelTopology::create(4, 1, 1, 1).value(), ShardingPolicy::Require);
  REQUIRE_MESSAGE(world, world.error().message);
  CHECK(world.value().coverage_ok());
}

TEST_CASE("the coverage proof checks that the rows read tile [0, V)") {
  for (std::uint64_t tp : {1u, 2u, 3u, 5u, 8u}) {
    CAPTURE(tp);
    auto world = plan_world(vocab_model(11, 2), ParallelTopology::create(tp, 1, 1, 2).value(),
                            ShardingPolicy::Require);
    REQUIRE_MESSAGE(world, world.error().message);
    CHECK(world.value().coverage_ok());
  }
}

TEST_CASE("padded splits are even under require_even") {
  // 11 rows do not split 3 ways; padded to 12 they do.
  const LocalModelLayout layout = plan(vocab_model(11, 2), 3, 2, ShardingPolicy::RequireEven);
  CHECK(at(layout, "embed").local_shape == Shape{4, 4});
}

TEST_CASE("vocab_pad_multiple: a vocabulary group with one balanced extent, M at least 1") {
  const auto vocabulary = [](std::vector<ParameterMemberSpec> members, ParameterRole role) {
    return ParameterGroupSpec::create("embed", role, std::move(members)).value();
  };
  const ParameterGroupSpec embed = vocabulary(
      {member("embed", {11, 4}, MemberSharding::balanced(0))}, ParameterRole::Vocabulary);
  auto zero = embed.with_vocab_pad_multiple(0);
  REQUIRE_FALSE(zero);
  CHECK(zero.error().code == Status::InvalidGroup);
  CHECK(zero.error().message ==
        "parallel parameter group \"embed\": vocab_pad_multiple must be at least 1");
  auto role = vocabulary({member("embed", {11, 4}, MemberSharding::balanced(0))},
                         ParameterRole::ColumnProjection)
                  .with_vocab_pad_multiple(2);
  REQUIRE_FALSE(role);
  CHECK(role.error().message ==
        "parallel parameter group \"embed\": vocab_pad_multiple needs role vocabulary");
  auto none =
      vocabulary({member("norm", {4}, MemberSharding::replicated())}, ParameterRole::Vocabulary)
          .with_vocab_pad_multiple(2);
  REQUIRE_FALSE(none);
  CHECK(none.error().message ==
        "parallel parameter group \"embed\": vocab_pad_multiple needs a balanced member");
  auto two = vocabulary({member("a", {11, 4}, MemberSharding::balanced(0)),
                         member("b", {4, 12}, MemberSharding::balanced(1))},
                        ParameterRole::Vocabulary)
                 .with_vocab_pad_multiple(2);
  REQUIRE_FALSE(two);
  CHECK(two.error().message ==
        "parallel parameter group \"embed\": vocab_pad_multiple needs one vocabulary: balanced "
        "member \"b\" has extent 12, not 11");
  // The group itself is unchanged; the copy carries the multiple.
  auto padded = embed.with_vocab_pad_multiple(64);
  REQUIRE(padded);
  CHECK(padded.value().vocab_pad_multiple() == std::optional<std::uint64_t>{64});
  CHECK(padded.value().padded_vocabulary() == std::optional<std::uint64_t>{11});
  CHECK_FALSE(embed.vocab_pad_multiple());
}

TEST_CASE("padding that overflows 64 bits is an error, not a wrapped shape") {
  auto overflow = vocab_padding(UINT64_MAX - 1, UINT64_MAX / 2, 4);
  REQUIRE_FALSE(overflow);
  CHECK(overflow.error().code == Status::InvalidTensor);
  // One rank's rows: UINT64_MAX / 4 rows of 4 elements.
  auto layout = plan_rank(vocab_model(3, UINT64_MAX / 4),
                          ParallelTopology::create(2, 1, 1, 1).value(), 0, ShardingPolicy::Require);
  REQUIRE_FALSE(layout);
  CHECK(layout.error().code == Status::InvalidTensor);
  CHECK(layout.error().message ==
        "logical parameter \"embed\": tensor \"embed\" padded local shape [4611686018427387903, "
        "4] overflows 64 bits");
  CHECK(layout.error().entries.size() == 2);
  // Each tensor fits (UINT64_MAX / 8 rows of 4 BF16 elements); their sum does not.
  auto total = plan_rank(vocab_model(3, UINT64_MAX / 8),
                         ParallelTopology::create(2, 1, 1, 1).value(), 0, ShardingPolicy::Require);
  REQUIRE_FALSE(total);
  CHECK(total.error().message ==
        "logical parameter \"head\": the rank's local bytes overflow 64 bits");
}

TEST_CASE("pad_vocabulary pads every vocabulary group with a balanced member") {
  auto attention =
      ParameterGroupSpec::create("mlp", ParameterRole::ColumnProjection,
                                 {member("mlp", {8, 4}, MemberSharding::balanced(0), Dtype::BF16)})
          .value();
  auto embed = ParameterGroupSpec::create(
                   "embed", ParameterRole::Vocabulary,
                   {member("embed", {11, 4}, MemberSharding::balanced(0), Dtype::BF16)})
                   .value();
  const auto model = model_of({attention, embed});
  auto padded = pad_vocabulary(*model, 128);
  REQUIRE(padded);
  CHECK_FALSE(padded.value()->groups()[0].vocab_pad_multiple());
  CHECK(padded.value()->groups()[1].vocab_pad_multiple() == std::optional<std::uint64_t>{128});
  CHECK_FALSE(model->groups()[1].vocab_pad_multiple());
  auto zero = pad_vocabulary(*model, 0);
  REQUIRE_FALSE(zero);
  CHECK(zero.error().code == Status::InvalidArgument);
  auto without = pad_vocabulary(*model_of({attention}), 128);
  REQUIRE_FALSE(without);
  CHECK(without.error().code == Status::InvalidArgument);
  CHECK(without.error().message ==
        "vocabulary padding needs a vocabulary group with a balanced member; the description "
        "has none");
}
