// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Steps 1 to 3 of loading an eredu.groups.v1 document (docs/interchange.md,
// "Load errors"): one streaming pass from the text to the group specs.
#pragma once

#include <cstddef>
#include <optional>
#include <utility>
#include <vector>

#include "core/result.hpp"
#include "interchange/format_declaration.hpp"
#include "interchange/padded_input.hpp"
#include "model/model.hpp"

namespace eredu {

/// A member's `format` declaration, by member position in its group.
struct MemberFormat {
  std::size_t member = 0;
  FormatDeclaration declaration;
};

/// What a valid document holds, for step 4 to build.
struct GroupsDocument {
  ModelInfo info;
  /// The groups up to the first whose ParameterGroupSpec construction
  /// failed, which is `group_error`.
  std::vector<ParameterGroupSpec> groups;
  std::optional<Error> group_error;
  /// The `format` declarations of the groups that have any, by group index
  /// (ascending); empty for descriptions without formats.
  std::vector<std::pair<std::size_t, std::vector<MemberFormat>>> formats;
};

/// Reads `input` and reports steps 1 to 3 (Parse, UnsupportedVersion,
/// OutOfMemory). Releases the input's pages as it reads them
/// (PaddedInput::release_before); nothing returned points into it.
Result<GroupsDocument> read_groups_document(PaddedInput& input);

}  // namespace eredu
