// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Steps 1 to 3 of loading an eredu.groups.v1 document (docs/interchange.md,
// "Load errors"): one streaming pass from the text to the groups as read,
// whose specs are constructed in step 4.
#pragma once

#include <cstddef>

#include "core/result.hpp"
#include "interchange/group_batch.hpp"
#include "interchange/padded_input.hpp"
#include "model/model.hpp"

namespace eredu {

/// Groups per GroupBatch handed over while a document is read.
inline constexpr std::size_t kBatchGroups = 64;

/// Receives a document's groups while it is read, in document order. The
/// reader calls it from the thread that reads.
class GroupsConsumer {
 public:
  virtual ~GroupsConsumer() = default;
  /// The `model` object, once it has been read without a structure error
  /// and before any group: groups may be built from here on.
  virtual void model(const ModelInfo& info) = 0;
  /// The next groups, in document order: kBatchGroups of them, except for
  /// the last batch. Only called while the document can still load (no
  /// structure error so far); their specs are not constructed yet.
  virtual void groups(GroupBatch batch) = 0;
};

/// What a valid document holds besides its groups.
struct GroupsDocument {
  ModelInfo info;
};

/// Reads `input`, handing `consumer` the groups, and reports steps 1 to 3
/// (Parse, UnsupportedVersion, OutOfMemory); the groups it handed over are
/// only a model's when it succeeds. Releases the input's pages as it reads
/// them (PaddedInput::release_before); nothing handed over or returned
/// points into it.
Result<GroupsDocument> read_groups_document(PaddedInput& input, GroupsConsumer& consumer);

}  // namespace eredu
