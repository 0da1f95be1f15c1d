// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Vocabulary padding through the C API: the group's multiple, and the
// allocated shape, rows read and padding rows of the planned tensors
// (docs/planning.md, "Vocabulary padding").
#include <doctest/doctest.h>
#include <eredu/eredu.h>

#include <array>
#include <string>

#include "capi_support.hpp"

using namespace capi_test;

namespace {

struct Vocabulary {
  std::array<std::uint64_t, 2> shape{11, 4};
  eredu_member_desc embed = EREDU_MEMBER_DESC_INIT;
  eredu_group_desc desc = EREDU_GROUP_DESC_INIT;

  // 11 BF16 rows of width 4, padded to a multiple of 2 × the tensor size.
  Vocabulary() {
    embed.target = "embed";
    embed.shape = shape.data();
    embed.ndim = 2;
    embed.has_dtype = 1;
    embed.dtype = EREDU_DTYPE_BF16;
    embed.sharding = EREDU_SHARDING_BALANCED;
    desc.name = "embed";
    desc.role = EREDU_ROLE_VOCABULARY;
    desc.has_vocab_pad_multiple = 1;
    desc.vocab_pad_multiple = 2;
  }

  Made<Group> make() const {
    const eredu_member_desc* members[] = {&embed};
    Made<Group> made;
    eredu_group* group = nullptr;
    ErrorSlot error;
    made.status = eredu_group_new(&desc, members, 1, &group, error.slot());
    made.handle.reset(group);
    made.message = error.message();
    return made;
  }
};

}  // namespace

TEST_SUITE("capi.vocab_padding") {
  TEST_CASE("the multiple reads back") {
    const auto group = Vocabulary().make();
    REQUIRE(group.status == EREDU_OK);
    eredu_group_info info = EREDU_GROUP_INFO_INIT;
    REQUIRE(eredu_group_get_info(group.handle.get(), &info, nullptr) == EREDU_OK);
    CHECK(info.has_vocab_pad_multiple == 1);
    CHECK(info.vocab_pad_multiple == 2);
    CHECK(info.has_query_units == 0);
  }

  TEST_CASE("each rank allocates P / T rows and reads the rows that exist") {
    const auto group = Vocabulary().make();
    REQUIRE(group.status == EREDU_OK);
    const auto model = new_model({group.handle.get()});
    REQUIRE(model.status == EREDU_OK);
    // P = 12 at T = 3: rows [0, 4), [4, 8), [8, 11) and one padding row.
    const std::array<std::uint64_t, 3> ends{4, 8, 11};
    for (std::uint64_t rank = 0; rank < 3; ++rank) {
      CAPTURE(rank);
      const auto layout = plan_tp(model.handle.get(), rank, 3);
      REQUIRE(layout.status == EREDU_OK);
      const eredu_layout_tensor_info embed = tensor_info(layout.handle.get(), "embed");
      CHECK(embed.placement == EREDU_PLACEMENT_RANGE);
      CHECK(embed.start == 4 * rank);
      CHECK(embed.end == ends[rank]);
      REQUIRE(embed.local_ndim == 2);
      CHECK(embed.local_shape[0] == 4);
      CHECK(embed.local_shape[1] == 4);
      CHECK(embed.padding_rows == (rank == 2 ? 1u : 0u));
      CHECK(embed.local_bytes == 4 * 4 * 2);
    }
    // T = 8: P = 16, two rows per rank; ranks 6 and 7 hold only padding.
    const auto past = plan_tp(model.handle.get(), 7, 8);
    REQUIRE(past.status == EREDU_OK);
    const eredu_layout_tensor_info embed = tensor_info(past.handle.get(), "embed");
    CHECK(embed.start == 11);
    CHECK(embed.end == 11);
    CHECK(embed.padding_rows == 2);
    CHECK(embed.local_bytes == 2 * 4 * 2);
  }

  TEST_CASE("misuse: the flag, a zero multiple, another role, no balanced member") {
    Vocabulary flag;
    flag.desc.has_vocab_pad_multiple = 2;
    const auto bad_flag = flag.make();
    CHECK(bad_flag.status == EREDU_E_INVALID_ARGUMENT);
    CHECK(bad_flag.message == "flag desc->has_vocab_pad_multiple is 2, expected 0 or 1");
    CHECK(bad_flag.handle == nullptr);

    Vocabulary zero;
    zero.desc.vocab_pad_multiple = 0;
    const auto zero_group = zero.make();
    CHECK(zero_group.status == EREDU_E_INVALID_GROUP);
    CHECK(zero_group.message ==
          "parallel parameter group \"embed\": vocab_pad_multiple must be at least 1");

    Vocabulary role;
    role.desc.role = EREDU_ROLE_CHANNELS;
    const auto role_group = role.make();
    CHECK(role_group.status == EREDU_E_INVALID_GROUP);
    CHECK(role_group.message ==
          "parallel parameter group \"embed\": vocab_pad_multiple needs role vocabulary");

    Vocabulary replicated;
    replicated.embed.sharding = EREDU_SHARDING_REPLICATED;
    const auto replicated_group = replicated.make();
    CHECK(replicated_group.status == EREDU_E_INVALID_GROUP);
    CHECK(replicated_group.message ==
          "parallel parameter group \"embed\": vocab_pad_multiple needs a balanced member");

    // Without the flag the multiple is ignored.
    Vocabulary off;
    off.desc.has_vocab_pad_multiple = 0;
    off.desc.vocab_pad_multiple = 0;
    CHECK(off.make().status == EREDU_OK);
  }
}
