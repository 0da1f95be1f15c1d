// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The opaque handles of the C API: thin owners of immutable core values.
#pragma once

#include <eredu/eredu.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "model/group.hpp"
#include "model/model.hpp"
#include "plan/layout.hpp"

namespace eredu::capi {

/// Members of a handle with their segments flattened to {start, end} pairs
/// once, so that views of them hand out plain uint64 arrays.
class MemberViews {
 public:
  explicit MemberViews(const std::vector<ParameterMemberSpec>& members);

  /// Member `index` of `members` (the vector given to the constructor) as a
  /// borrowed eredu_member_desc, valid while both live.
  eredu_member_desc view(const std::vector<ParameterMemberSpec>& members, std::size_t index) const;

 private:
  std::vector<std::vector<std::uint64_t>> segment_values_;
};

}  // namespace eredu::capi

struct eredu_group {
  explicit eredu_group(eredu::ParameterGroupSpec group)
      : spec(std::move(group)), views(spec.members()) {}
  eredu::ParameterGroupSpec spec;
  eredu::capi::MemberViews views;
};

/// Members that are not a group, e.g. one expanded member.
struct eredu_member_list {
  explicit eredu_member_list(std::vector<eredu::ParameterMemberSpec> list)
      : members(std::move(list)), views(members) {}
  std::vector<eredu::ParameterMemberSpec> members;
  eredu::capi::MemberViews views;
};

struct eredu_model {
  std::shared_ptr<const eredu::ModelDescription> description;
  /// What describing could not verify (eredu_model_warning).
  std::vector<std::string> warnings;
};

/// A planned rank. Index runs are flattened here once, before the handle is
/// published, so that eredu_layout_tensor_info hands out plain uint64 pairs
/// without copying.
struct eredu_layout {
  eredu::LocalModelLayout layout;
  std::vector<std::uint64_t> run_values;  // {start, end} pairs of every Indices tensor
  std::vector<std::size_t> run_offsets;   // per tensor: first value in run_values
};
