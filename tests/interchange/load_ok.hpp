// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Loading an eredu.groups.v1 document that the interchange tests expect to
// load.
#pragma once

#include <doctest/doctest.h>

#include <memory>
#include <string_view>
#include <utility>

#include "interchange/groups_json.hpp"

namespace eredu::test {

/// The description `text` loads to; the test fails with the error message
/// when loading fails.
inline std::shared_ptr<const ModelDescription> load_ok(std::string_view text) {
  auto loaded = load_groups_json(text);
  if (!loaded) FAIL_CHECK(loaded.error().message);
  REQUIRE(loaded);
  return std::move(loaded).value();
}

}  // namespace eredu::test
