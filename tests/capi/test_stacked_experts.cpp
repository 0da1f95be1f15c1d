// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Stacked experts through the C API: a member's expert axis, the expert
// range each expert rank holds on top of the tensor-parallel split, and the
// errors of a misdeclared axis (docs/planning.md, "Stacked experts").
#include <doctest/doctest.h>
#include <eredu/eredu.h>

#include <array>
#include <string>

#include "capi_support.hpp"

using namespace capi_test;

namespace {

// One layer's 4 stacked experts: `up` [4, 8, 2] F32 split on axis 1 by 8
// intermediate units, `bias` [4, 2] held whole by the tensor ranks.
struct StackedExperts {
  std::array<std::uint64_t, 3> up_shape{4, 8, 2};
  std::array<std::uint64_t, 2> bias_shape{4, 2};
  eredu_member_desc up = EREDU_MEMBER_DESC_INIT;
  eredu_member_desc bias = EREDU_MEMBER_DESC_INIT;
  eredu_group_desc desc = EREDU_GROUP_DESC_INIT;

  StackedExperts() {
    up.target = "experts.up";
    up.shape = up_shape.data();
    up.ndim = 3;
    up.has_dtype = 1;
    up.dtype = EREDU_DTYPE_F32;
    up.sharding = EREDU_SHARDING_PARTITIONED;
    up.axis = 1;
    up.has_expert_axis = 1;
    up.expert_axis = 0;
    bias.target = "experts.bias";
    bias.shape = bias_shape.data();
    bias.ndim = 2;
    bias.has_dtype = 1;
    bias.dtype = EREDU_DTYPE_F32;
    bias.has_expert_axis = 1;
    bias.expert_axis = 0;
    desc.name = "experts";
    desc.role = EREDU_ROLE_EXPERT_INTERMEDIATE;
    desc.has_partition_units = 1;
    desc.partition_units = 8;
  }

  Made<Group> make() const {
    const eredu_member_desc* members[] = {&up, &bias};
    Made<Group> made;
    eredu_group* group = nullptr;
    ErrorSlot error;
    made.status = eredu_group_new(&desc, members, 2, &group, error.slot());
    made.handle.reset(group);
    made.error_code = error.code();
    made.message = error.message();
    return made;
  }
};

eredu_model_info with_experts(std::uint64_t experts) {
  eredu_model_info info = EREDU_MODEL_INFO_INIT;
  info.name = "stacked";
  info.has_experts = 1;
  info.experts = experts;
  return info;
}

}  // namespace

TEST_SUITE("capi.stacked_experts") {
  TEST_CASE("the expert axis reads back from the group") {
    const auto group = StackedExperts().make();
    REQUIRE_MESSAGE(group.status == EREDU_OK, group.message);
    eredu_member_desc member = EREDU_MEMBER_DESC_INIT;
    REQUIRE(eredu_group_member(group.handle.get(), 0, &member, nullptr) == EREDU_OK);
    CHECK(member.has_expert_axis == 1);
    CHECK(member.expert_axis == 0);
  }

  TEST_CASE("expert rank e holds experts [2e, 2e + 2) on top of the tensor split") {
    const auto group = StackedExperts().make();
    REQUIRE(group.status == EREDU_OK);
    const eredu_model_info info = with_experts(4);
    const auto model = new_model({group.handle.get()}, &info);
    REQUIRE_MESSAGE(model.status == EREDU_OK, model.message);
    // T = 2, E = 2: rank = tensor · 2 + expert (docs/planning.md, "Rank and coordinates").
    for (std::uint64_t rank = 0; rank < 4; ++rank) {
      CAPTURE(rank);
      const std::uint64_t tensor = rank / 2;
      const std::uint64_t expert = rank % 2;
      const auto layout = plan(model.handle.get(), 2, 1, 2, 1, rank);
      REQUIRE_MESSAGE(layout.status == EREDU_OK, layout.message);
      const eredu_layout_tensor_info up = tensor_info(layout.handle.get(), "experts.up");
      CHECK(up.placement == EREDU_PLACEMENT_RANGE);
      CHECK(up.axis == 1);
      CHECK(up.start == 4 * tensor);
      CHECK(up.end == 4 * tensor + 4);
      CHECK(up.has_expert_range == 1);
      CHECK(up.expert_axis == 0);
      CHECK(up.expert_start == 2 * expert);
      CHECK(up.expert_end == 2 * expert + 2);
      CHECK(local_shape(layout.handle.get(), "experts.up") == std::vector<std::uint64_t>{2, 4, 2});
      CHECK(local_bytes(layout.handle.get(), "experts.up") == std::optional<std::uint64_t>{64});
      // The member the tensor ranks replicate selects its experts as a range.
      const eredu_layout_tensor_info bias = tensor_info(layout.handle.get(), "experts.bias");
      CHECK(bias.placement == EREDU_PLACEMENT_RANGE);
      CHECK(bias.axis == 0);
      CHECK(bias.start == 2 * expert);
      CHECK(bias.end == 2 * expert + 2);
      CHECK(bias.has_expert_range == 1);
      CHECK(local_bytes(layout.handle.get(), "experts.bias") == std::optional<std::uint64_t>{16});
    }
  }

  TEST_CASE("the expert axis cannot be the tensor-parallel axis") {
    StackedExperts experts;
    experts.up.expert_axis = 1;
    const auto group = experts.make();
    CHECK(group.status == EREDU_E_INVALID_GROUP);
    CHECK(group.message ==
          "parallel parameter group \"experts\": member \"experts.up\" stacks experts on axis 1, "
          "its tensor-parallel axis");
  }

  TEST_CASE("has_expert_axis is 0 or 1") {
    StackedExperts experts;
    experts.up.has_expert_axis = 2;
    const auto group = experts.make();
    CHECK(group.status == EREDU_E_INVALID_ARGUMENT);
  }

  TEST_CASE("an expert axis extent other than the model's experts fails at planning") {
    const auto group = StackedExperts().make();
    REQUIRE(group.status == EREDU_OK);
    const eredu_model_info info = with_experts(8);
    const auto model = new_model({group.handle.get()}, &info);
    REQUIRE(model.status == EREDU_OK);
    const auto layout = plan(model.handle.get(), 1, 1, 2, 1, 0);
    CHECK(layout.status == EREDU_E_INVALID_TENSOR);
    CHECK(layout.message ==
          "logical parameter \"experts\": tensor \"experts.up\" expert axis 0 extent 4 does not "
          "match the model's 8 routed experts");
  }
}
