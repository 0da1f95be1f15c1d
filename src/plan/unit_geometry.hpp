// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// What fixed a group's partition-unit count, for the message of a group
// whose units cannot be split (docs/planning.md, "Sharding policies").
#pragma once

#include <cstdint>
#include <string>

#include "model/group.hpp"

namespace eredu {

/// "1 partition unit — gcd of gate_proj.weight rows 320 and
/// gate_proj.weight_scale_inv rows 3 —" when the partitioned extents of the
/// group's members (whole axes or segments) have the group's unit count as
/// their greatest common divisor, naming only the extents that lower it, in
/// member order; "8 partition units — declared by the group —" otherwise.
/// Two or more targets are shown without the prefix of dotted components
/// they share. `group` must have partition units.
std::string unit_geometry(const ParameterGroupSpec& group);

}  // namespace eredu
