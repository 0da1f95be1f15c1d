// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// eredu_model_from_json applies the rules of eredu_group_new: what a C
// caller cannot build (a name holding a NUL, more than EREDU_MAX_NDIM axes)
// a document cannot describe either.
#include <doctest/doctest.h>
#include <eredu/eredu.h>

#include <cstddef>
#include <string>

#include "capi_support.hpp"

using namespace capi_test;

namespace {

// One replicated group whose only member is `target` of `shape` (JSON text).
std::string one_member(const std::string& group, const std::string& target,
                       const std::string& shape) {
  return R"({"schema":"eredu.groups.v1","model":{"name":"m","layers":1,"experts":0},)"
         R"("groups":[{"name":")" +
         group + R"(","role":"replicated","scope":{"layer":0},"members":[{"target":")" + target +
         R"(","shape":)" + shape + R"(,"dtype":"F32","sharding":{"kind":"replicated"}}]}]})";
}

std::string ones(std::size_t axes) {
  std::string shape = "[";
  for (std::size_t i = 0; i < axes; ++i) shape += i == 0 ? "1" : ",1";
  return shape + "]";
}

}  // namespace

TEST_SUITE("capi.json") {
  TEST_CASE("a target or group name holding a NUL is refused") {
    const auto good = model_from_json(one_member("g", "w", "[2]"));
    REQUIRE(good.status == EREDU_OK);

    const auto target = model_from_json(one_member("g", R"(w\u0000x)", "[2]"));
    CHECK(target.status == EREDU_E_INVALID_GROUP);
    CHECK(target.handle == nullptr);
    CHECK(target.message ==
          R"(parallel parameter group "g": tensor target "w\0x" contains a NUL character)");

    const auto group = model_from_json(one_member(R"(g\u0000)", "w", "[2]"));
    CHECK(group.status == EREDU_E_INVALID_GROUP);
    CHECK(group.message == R"(parallel parameter logical name "g\0" contains a NUL character)");
  }

  TEST_CASE("a member has at most EREDU_MAX_NDIM axes, as for eredu_group_new") {
    const auto most = model_from_json(one_member("g", "w", ones(EREDU_MAX_NDIM)));
    CHECK(most.status == EREDU_OK);

    const auto more = model_from_json(one_member("g", "w", ones(EREDU_MAX_NDIM + 1)));
    CHECK(more.status == EREDU_E_INVALID_TENSOR);
    CHECK(more.handle == nullptr);
    CHECK(more.message == R"(tensor "w" has 1025 axes, more than the 1024 eredu accepts)");
  }
}
