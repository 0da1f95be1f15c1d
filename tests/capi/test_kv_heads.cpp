// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// KV-head replication through the C API: per_kv_head members, query units,
// and kv_head_copies on the planned tensors (docs/planning.md).
#include <doctest/doctest.h>
#include <eredu/eredu.h>

#include <array>
#include <string>

#include "capi_support.hpp"

using namespace capi_test;

namespace {

struct Attention {
  std::array<std::uint64_t, 2> q_shape{16, 4};
  std::array<std::uint64_t, 2> k_shape{4, 4};
  eredu_member_desc q = EREDU_MEMBER_DESC_INIT;
  eredu_member_desc k = EREDU_MEMBER_DESC_INIT;
  eredu_group_desc desc = EREDU_GROUP_DESC_INIT;

  // Two KV heads, eight query heads, head width 2.
  Attention() {
    q.target = "q";
    q.shape = q_shape.data();
    q.ndim = 2;
    q.sharding = EREDU_SHARDING_PARTITIONED;
    k = q;
    k.target = "k";
    k.shape = k_shape.data();
    k.per_kv_head = 1;
    desc.name = "attn";
    desc.role = EREDU_ROLE_ATTENTION_HEADS;
    desc.has_partition_units = 1;
    desc.partition_units = 2;
    desc.has_query_units = 1;
    desc.query_units = 8;
  }

  Made<Group> make() const {
    const eredu_member_desc* members[] = {&q, &k};
    Made<Group> made;
    eredu_group* group = nullptr;
    ErrorSlot error;
    made.status = eredu_group_new(&desc, members, 2, &group, error.slot());
    made.handle.reset(group);
    made.message = error.message();
    return made;
  }
};

}  // namespace

TEST_SUITE("capi.kv_heads") {
  TEST_CASE("query units and per_kv_head read back") {
    const Attention attention;
    const auto group = attention.make();
    REQUIRE(group.status == EREDU_OK);
    eredu_group_info info = EREDU_GROUP_INFO_INIT;
    REQUIRE(eredu_group_get_info(group.handle.get(), &info, nullptr) == EREDU_OK);
    CHECK(info.has_query_units == 1);
    CHECK(info.query_units == 8);
    eredu_member_desc member = EREDU_MEMBER_DESC_INIT;
    REQUIRE(eredu_group_member(group.handle.get(), 1, &member, nullptr) == EREDU_OK);
    CHECK(member.per_kv_head == 1);
    REQUIRE(eredu_group_member(group.handle.get(), 0, &member, nullptr) == EREDU_OK);
    CHECK(member.per_kv_head == 0);
  }

  TEST_CASE("each KV head is held whole by T / H ranks") {
    const Attention attention;
    const auto group = attention.make();
    REQUIRE(group.status == EREDU_OK);
    const auto model = new_model({group.handle.get()});
    REQUIRE(model.status == EREDU_OK);
    for (std::uint64_t rank = 0; rank < 4; ++rank) {
      const auto layout = plan_tp(model.handle.get(), rank, 4);
      REQUIRE(layout.status == EREDU_OK);
      const eredu_layout_tensor_info k = tensor_info(layout.handle.get(), "k");
      CHECK(k.placement == EREDU_PLACEMENT_RANGE);
      CHECK(k.start == 2 * (rank / 2));
      CHECK(k.end == 2 * (rank / 2) + 2);
      CHECK(k.kv_head_copies == 2);
      CHECK(k.logical_start == rank / 2);
      const eredu_layout_tensor_info q = tensor_info(layout.handle.get(), "q");
      CHECK(q.start == 4 * rank);
      CHECK(q.end == 4 * rank + 4);
      CHECK(q.kv_head_copies == 1);
    }
    const auto refused = plan_tp(model.handle.get(), 0, 3);
    CHECK(refused.status == EREDU_E_INVALID_TENSOR);
    CHECK(refused.message ==
          "logical parameter \"attn\": 2 KV heads and 8 query heads cannot be split 3 ways: KV "
          "heads are replicated only at a multiple of 2 that divides 8; tensor sizes up to 64 that "
          "work for this group: 1, 2, 4, 8");
  }

  TEST_CASE("misuse: flags, query units without a partition, a per_kv_head member alone") {
    Attention flag;
    flag.k.per_kv_head = 2;
    const auto bad_flag = flag.make();
    CHECK(bad_flag.status == EREDU_E_INVALID_ARGUMENT);
    CHECK(bad_flag.message == "flag members[1]->per_kv_head is 2, expected 0 or 1");

    Attention no_partition;
    no_partition.desc.has_partition_units = 0;
    no_partition.k.per_kv_head = 0;
    no_partition.k.sharding = EREDU_SHARDING_EQUAL;
    no_partition.q.sharding = EREDU_SHARDING_EQUAL;
    const auto unpartitioned = no_partition.make();
    CHECK(unpartitioned.status == EREDU_E_INVALID_GROUP);
    CHECK(unpartitioned.message ==
          "parallel parameter group \"attn\": query_units needs partition_units");

    Attention no_query;
    no_query.desc.has_query_units = 0;
    const auto alone = no_query.make();
    CHECK(alone.status == EREDU_E_INVALID_GROUP);
    CHECK(alone.message ==
          "parallel parameter group \"attn\": per_kv_head member \"k\" needs the group's "
          "query_units");

    Attention odd;
    odd.desc.query_units = 7;
    const auto not_multiple = odd.make();
    CHECK(not_multiple.status == EREDU_E_INVALID_GROUP);
  }
}
