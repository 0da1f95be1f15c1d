// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Steps 1 to 3 of loading an eredu.groups.v1 document (docs/interchange.md,
// "Load errors"): one streaming pass from the text to the group specs.
#pragma once

#include <cstddef>
#include <optional>
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

/// Receives a document's groups while it is read, in document order. The
/// reader calls it from the thread that reads.
class GroupsConsumer {
 public:
  virtual ~GroupsConsumer() = default;
  /// The `model` object, once it has been read without a structure error
  /// and before any group: groups may be built from here on.
  virtual void model(const ModelInfo& info) = 0;
  /// The next group whose ParameterGroupSpec construction succeeded, with
  /// its members' `format` declarations (empty for most groups). Only
  /// called while the document can still load: no structure error so far
  /// and no failed construction before it.
  virtual void group(ParameterGroupSpec group, std::vector<MemberFormat> formats) = 0;
};

/// What a valid document holds besides its groups.
struct GroupsDocument {
  ModelInfo info;
  /// The construction error of the first group whose ParameterGroupSpec
  /// could not be built; the consumer got the groups before it.
  std::optional<Error> group_error;
};

/// Reads `input`, handing `consumer` the groups, and reports steps 1 to 3
/// (Parse, UnsupportedVersion, OutOfMemory); the groups it handed over are
/// only a model's when it succeeds. Releases the input's pages as it reads
/// them (PaddedInput::release_before); nothing handed over or returned
/// points into it.
Result<GroupsDocument> read_groups_document(PaddedInput& input, GroupsConsumer& consumer);

}  // namespace eredu
