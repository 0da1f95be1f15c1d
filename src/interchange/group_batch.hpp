// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Groups of an eredu.groups.v1 document as read, before their
// ParameterGroupSpecs are constructed (step 4 of docs/interchange.md, "Load
// errors"). Groups read in a row share one batch's storage, so that reading
// a group allocates nothing of its own: the thread that builds the model
// makes the specs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "interchange/format_declaration.hpp"
#include "model/model.hpp"

namespace eredu {

/// A member's `format` declaration, by member position in its group.
struct MemberFormat {
  std::size_t member = 0;
  FormatDeclaration declaration;
};

/// Where a run of bytes or dimensions is in its batch: [offset, offset + size).
struct BatchSpan {
  std::size_t offset = 0;
  std::size_t size = 0;
};

/// A member as read: its target is in its batch's `text`, its shape
/// (elements per axis, outermost first) in the batch's `dims`.
struct MemberRecord {
  BatchSpan target;
  BatchSpan shape;
  std::optional<Dtype> dtype;
  MemberSharding sharding;
};

/// A group as read: its name is in its batch's `text`; its members, and
/// their format declarations, are runs of the batch's.
struct GroupRecord {
  BatchSpan name;
  ParameterRole role = ParameterRole::Replicated;
  std::optional<std::uint64_t> units;
  std::optional<std::uint64_t> query_units;
  std::optional<std::uint64_t> vocab_pad_multiple;
  GroupScope scope;
  BatchSpan members;
  BatchSpan formats;
};

/// Groups read in a row, in document order, and the storage they share.
struct GroupBatch {
  std::string text;
  std::vector<std::uint64_t> dims;
  std::vector<MemberRecord> members;
  std::vector<MemberFormat> formats;
  std::vector<GroupRecord> groups;
  /// On a document's first batch: the groups and members that the share of
  /// the input it was read from extrapolates to over the whole input, so
  /// that the model's storage can be reserved once; zero on the others.
  std::size_t expected_groups = 0;
  std::size_t expected_members = 0;

  /// Appends `bytes` to `text`.
  BatchSpan add_text(std::string_view bytes);

  /// The ParameterGroupSpec of `groups[group]`, whose members it moves
  /// from: ParameterGroupSpec's construction errors (InvalidGroup), and
  /// InvalidGroup where `query_units` comes without `units`.
  Result<ParameterGroupSpec> construct(std::size_t group);
  /// The format declarations of `groups[group]`, moved from.
  std::vector<MemberFormat> take_formats(std::size_t group);
};

}  // namespace eredu
