// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Reading a group's `scope` of an eredu.groups.v1 document.
#pragma once

#include "core/result.hpp"
#include "interchange/first_error.hpp"
#include "interchange/json_path.hpp"
#include "model/model.hpp"

namespace eredu::json {

/// The scope: a word (`embedding`, `output_head`, `tied_embedding`) or an
/// object of `layer` and/or `expert`; all layers when null. A structure
/// error is noted in `group_error` at `rank` (that of `scope` in a group).
Read<GroupScope> read_scope(od::value& value, const Path& path, FirstError& group_error,
                            unsigned rank);

}  // namespace eredu::json
