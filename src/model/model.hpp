// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// A model description: its groups in document order, indexed by target.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "model/group.hpp"
#include "model/group_class.hpp"
#include "model/target_index.hpp"
#include "model/target_order.hpp"

namespace eredu {

/// The optional `model` object of eredu.groups.v1.
struct ModelInfo {
  std::optional<std::string> name;
  std::optional<std::uint64_t> layers;   // >= 1 when present
  std::optional<std::uint64_t> experts;  // routed experts per layer; 0 == absent
  friend bool operator==(const ModelInfo&, const ModelInfo&) = default;
};

/// Where one flat member lives and what it weighs.
struct MemberEntry {
  std::uint32_t group = 0;
  std::uint32_t member = 0;
  std::optional<std::uint64_t> global_bytes;  // nullopt without dtype
};

/// An immutable, validated model description. Safe to read from many threads.
class ModelDescription {
 public:
  const ModelInfo& info() const { return info_; }
  const std::vector<ParameterGroupSpec>& groups() const { return groups_; }
  /// Flat members in document order.
  const std::vector<MemberEntry>& members() const { return members_; }
  /// Flat member indices sorted by target (byte-wise).
  const std::vector<std::uint32_t>& by_target() const { return by_target_; }
  /// The sorted position of each flat member (inverse of by_target).
  const std::vector<std::uint32_t>& position_of() const { return position_of_; }
  const ParameterMemberSpec& member(std::uint32_t flat) const {
    const MemberEntry& entry = members_[flat];
    return groups_[entry.group].members()[entry.member];
  }
  std::size_t tensor_count() const { return members_.size(); }
  /// Each group's class (GroupClassifier): groups of one class plan alike.
  const std::vector<std::uint32_t>& group_classes() const { return group_classes_; }
  /// The number of classes: one more than the largest of group_classes.
  std::uint32_t class_count() const { return class_count_; }
  /// Sum of the global bytes of members with a dtype.
  std::uint64_t global_bytes() const { return global_bytes_; }
  /// Members without a dtype.
  std::uint64_t unknown_bytes_tensors() const { return unknown_bytes_tensors_; }

 private:
  friend class ModelBuilder;
  ModelInfo info_;
  std::vector<ParameterGroupSpec> groups_;
  std::vector<MemberEntry> members_;
  std::vector<std::uint32_t> by_target_;
  std::vector<std::uint32_t> position_of_;
  std::vector<std::uint32_t> group_classes_;
  std::uint32_t class_count_ = 0;
  std::uint64_t global_bytes_ = 0;
  std::uint64_t unknown_bytes_tensors_ = 0;
};

/// Builds a ModelDescription group by group. Each `add_group` is atomic: on
/// failure the builder is unchanged.
class ModelBuilder {
 public:
  /// Errors: InvalidArgument when `layers` is 0 (experts 0 means absent).
  static Result<ModelBuilder> create(ModelInfo info);

  /// Room for `groups` more groups and `members` more members, so that
  /// adding that many reallocates nothing.
  void reserve(std::size_t groups, std::size_t members);

  /// Checks, in order: the scope lies inside `layers` / `experts` when those
  /// are known (InvalidGroup); every member's element count and bytes, and the
  /// running byte total, fit 64 bits (InvalidTensor); no target was used by an
  /// earlier group (InvalidGroup, "parallel placement target <T> was
  /// registered more than once").
  Result<void> add_group(ParameterGroupSpec group);

  /// The first check of `add_group` alone: the group's scope lies inside
  /// `layers` / `experts` when those are known (InvalidGroup). Lets a
  /// loader report it before later checks of its own (docs/interchange.md,
  /// "Load errors", step 4).
  Result<void> check_scope(const ParameterGroupSpec& group) const;

  /// Sorts the target index and returns the finished description.
  Result<std::shared_ptr<const ModelDescription>> finish() &&;

 private:
  explicit ModelBuilder(ModelInfo info);
  std::unique_ptr<ModelDescription> model_;
  TargetIndex targets_;
  TargetOrder order_;
  GroupClassifier classifier_;
  // Per-group scratch of add_group, reused so that a group allocates nothing.
  std::vector<std::uint32_t> hashes_scratch_;
  std::vector<std::optional<std::uint64_t>> bytes_scratch_;
};

}  // namespace eredu
