// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Reading a member's `sharding` object of an eredu.groups.v1 document.
#pragma once

#include <optional>
#include <vector>

#include "core/result.hpp"
#include "interchange/first_error.hpp"
#include "interchange/json_path.hpp"
#include "model/model.hpp"

namespace eredu::json {

/// The sharding, or nothing when `value` is null or has a structure error,
/// which is noted in `member_error` at `rank` (that of `sharding` in a
/// member): unknown fields, `kind`, `axis`, `segments` in this order, an
/// `axis` or `segments` missing or not allowed for the kind with its field.
/// `segments` is scratch for the segments, reused across members.
Read<std::optional<MemberSharding>> read_sharding(od::value& value, const Path& path,
                                                  FirstError& member_error, unsigned rank,
                                                  std::vector<IndexRange>& segments);

}  // namespace eredu::json
