// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Building ParameterMemberSpec values in the unit tests.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/group.hpp"

namespace eredu::test {

using Shape = std::vector<std::uint64_t>;

/// A member with `target`, global `shape`, `sharding` and an optional dtype.
inline ParameterMemberSpec member(std::string target, Shape shape, MemberSharding sharding,
                                  std::optional<Dtype> dtype = std::nullopt) {
  return ParameterMemberSpec(std::move(target), std::move(shape), std::move(sharding), dtype);
}

}  // namespace eredu::test
