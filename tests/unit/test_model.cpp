// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// ModelBuilder: atomic group registration, target order, byte accounting.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "model/model.hpp"
#include "model/target_order.hpp"

using namespace eredu;

namespace {

ParameterGroupSpec single(std::string name, std::string target, std::vector<std::uint64_t> shape,
                          std::optional<Dtype> dtype = Dtype::BF16, GroupScope scope = {}) {
  return ParameterGroupSpec::create(std::move(name), ParameterRole::Replicated,
                                    {ParameterMemberSpec(std::move(target), std::move(shape),
                                                         MemberSharding::replicated(), dtype)},
                                    scope)
      .value();
}

}  // namespace

TEST_CASE("a target registered by an earlier group is rejected and nothing is added") {
  auto builder = ModelBuilder::create({}).value();
  REQUIRE(builder.add_group(single("a", "w", {4})));
  auto duplicate = builder.add_group(single("b", "w", {4}));
  CHECK(duplicate.error().code == Status::InvalidGroup);
  CHECK(duplicate.error().message ==
        "parallel placement target \"w\" was registered more than once");
  REQUIRE(builder.add_group(single("c", "v", {2})));
  auto model = std::move(builder).finish().value();
  CHECK(model->groups().size() == 2);
  CHECK(model->tensor_count() == 2);
  CHECK(model->global_bytes() == 12);
  CHECK(model->member(model->by_target()[0]).target() == "v");
  CHECK(model->position_of()[0] == 1);
}

TEST_CASE("scopes must lie inside the model's layers and experts") {
  auto builder = ModelBuilder::create({"m", 2, 4}).value();
  auto layer = builder.add_group(single("late", "w", {1}, Dtype::F32, GroupScope::indexed(2, {})));
  CHECK(layer.error().code == Status::InvalidGroup);
  CHECK(layer.error().message ==
        "parallel parameter group \"late\" is scoped to layer 2, outside the model's 2 layers");
  auto expert = builder.add_group(single("e", "w", {1}, Dtype::F32, GroupScope::indexed(1, 4)));
  CHECK(expert.error().code == Status::InvalidGroup);
  CHECK(builder.add_group(single("ok", "w", {1}, Dtype::F32, GroupScope::indexed(1, 3))));
  CHECK(ModelBuilder::create({std::nullopt, 0, std::nullopt}).error().code ==
        Status::InvalidArgument);
}

TEST_CASE("element counts, bytes and totals are overflow-checked") {
  auto builder = ModelBuilder::create({}).value();
  auto elements = builder.add_group(single("g", "huge", {1ull << 32, 1ull << 32}));
  CHECK(elements.error().code == Status::InvalidTensor);
  CHECK(elements.error().message ==
        "tensor \"huge\" element count of shape [4294967296, 4294967296] overflows 64 bits");
  auto bytes = builder.add_group(single("g", "wide", {1ull << 63}, Dtype::F32));
  CHECK(bytes.error().code == Status::InvalidTensor);
  CHECK(bytes.error().message ==
        "tensor \"wide\" byte size of shape [9223372036854775808] as F32 overflows 64 bits");
  REQUIRE(builder.add_group(single("g", "half", {1ull << 62}, Dtype::I16)));
  auto total = builder.add_group(single("g", "more", {1ull << 62}, Dtype::I16));
  CHECK(total.error().code == Status::InvalidTensor);
  CHECK(total.error().message == "tensor \"more\" makes the model's byte total overflow 64 bits");
  // Without a dtype the size is unknown, never an overflow of bytes.
  REQUIRE(builder.add_group(single("g", "untyped", {1ull << 62, 2}, std::nullopt)));
  auto model = std::move(builder).finish().value();
  CHECK(model->global_bytes() == (1ull << 63));
  CHECK(model->unknown_bytes_tensors() == 1);
}

TEST_CASE("duplicate detection holds across many groups") {
  auto builder = ModelBuilder::create({}).value();
  for (int g = 0; g < 5000; ++g) {
    REQUIRE(builder.add_group(single("g", fmt::format("tensor.{}", g), {2})));
  }
  auto duplicate = builder.add_group(single("late", "tensor.4321", {2}));
  CHECK(duplicate.error().message ==
        "parallel placement target \"tensor.4321\" was registered more than once");
  REQUIRE(builder.add_group(single("fresh", "tensor.5000", {2})));
  auto model = std::move(builder).finish().value();
  CHECK(model->tensor_count() == 5001);
  CHECK(model->member(model->by_target()[0]).target() == "tensor.0");
  CHECK(model->member(model->by_target()[1]).target() == "tensor.1");
  CHECK(model->member(model->by_target()[2]).target() == "tensor.10");
}

TEST_CASE("targets are ordered byte-wise, whatever their lengths and shared prefixes") {
  // Targets that end at, before and after a multiple of 8 bytes.
  std::vector<std::string> targets{"abcdefgh", "abcdefghi", "abcdefghabcdefgh",
                                   "abcdefghabcdefgh!"};
  for (std::string_view more : {"", "a", "ab", "abcdefg", "\xff", "b"}) targets.emplace_back(more);
  for (int i = 0; i < 300; ++i) {
    // Long shared prefixes, numbers of every width, and bytes past 0x7f.
    targets.push_back(fmt::format("model.layers.{}.mlp.experts.{}.w", i % 7, i));
    targets.push_back(fmt::format("model.layers.{}.mlp.experts.{}.w\xc3\xa9", i % 7, i));
    targets.push_back(fmt::format("{:0>{}}", i, 1 + i % 20));
  }
  std::vector<std::string_view> views(targets.begin(), targets.end());
  std::vector<std::uint32_t> expected(views.size());
  for (std::uint32_t i = 0; i < expected.size(); ++i) expected[i] = i;
  std::sort(expected.begin(), expected.end(),
            [&](std::uint32_t a, std::uint32_t b) { return views[a] < views[b]; });
  CHECK(order_by_target(views) == expected);
}

TEST_CASE("targets added one at a time are ordered across runs") {
  // Three runs, the last one short, each merged into the order so far.
  // Each run holds targets that sort before the earlier runs'.
  const std::size_t count = 2 * TargetOrder::kRun + 123;
  std::vector<std::string> targets;
  targets.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    targets.push_back(fmt::format("model.layers.{}.mlp.experts.{}.w", count - i, i % 97));
  }
  TargetOrder order;
  order.reserve(count);
  for (const std::string& target : targets) order.add(target);
  std::vector<std::uint32_t> expected(count);
  for (std::uint32_t i = 0; i < expected.size(); ++i) expected[i] = i;
  std::sort(expected.begin(), expected.end(),
            [&](std::uint32_t a, std::uint32_t b) { return targets[a] < targets[b]; });
  CHECK(std::move(order).order() == expected);
  CHECK(std::move(TargetOrder()).order().empty());
}
