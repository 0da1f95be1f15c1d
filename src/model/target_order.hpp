// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The byte-wise order of a description's targets (ModelDescription's
// by_target).
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace eredu {

/// The indices of `targets` in byte-wise order of the targets, which must
/// be unique and hold no NUL (as ParameterGroupSpec ensures).
std::vector<std::uint32_t> order_by_target(std::span<const std::string_view> targets);

}  // namespace eredu
