// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Building ParameterMemberSpec values and small models in the unit tests.
#pragma once

#include <doctest/doctest.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/group.hpp"
#include "model/model.hpp"

namespace eredu::test {

using Shape = std::vector<std::uint64_t>;

/// A member with `target`, global `shape`, `sharding` and an optional dtype.
inline ParameterMemberSpec member(std::string target, Shape shape, MemberSharding sharding,
                                  std::optional<Dtype> dtype = std::nullopt) {
  return ParameterMemberSpec(std::move(target), std::move(shape), std::move(sharding), dtype);
}

/// A model of `groups` in order, with `info`; every step must succeed.
inline std::shared_ptr<const ModelDescription> model_of(std::vector<ParameterGroupSpec> groups,
                                                        ModelInfo info = {}) {
  auto builder = ModelBuilder::create(std::move(info)).value();
  for (auto& group : groups) REQUIRE(builder.add_group(std::move(group)));
  return std::move(builder).finish().value();
}

}  // namespace eredu::test
