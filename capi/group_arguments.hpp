// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Conversion of the C group descriptors (eredu_group_scope,
// eredu_member_desc) to core values, shared by every function taking them.
#pragma once

#include <eredu/eredu.h>

#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "model/group.hpp"

namespace eredu::capi {

/// A scope argument; NULL means GroupScope::all().
Result<GroupScope> scope_argument(const eredu_group_scope* scope);

/// The `name`, `role` and `scope` arguments of a group builder, checked in
/// that order.
struct GroupHeadArgument {
  std::string_view name;
  ParameterRole role;
  GroupScope scope;
};
Result<GroupHeadArgument> group_head_argument(const char* name, eredu_role role,
                                              const eredu_group_scope* scope);

/// One member descriptor, checked as eredu_group_new documents; messages
/// name it `base[index]` (an array element) or `base` (index nullopt).
Result<ParameterMemberSpec> member_argument(const eredu_member_desc* desc, const char* base,
                                            std::optional<std::size_t> index);

/// A `members` array of `count` descriptors ("members[i]" in messages).
Result<std::vector<ParameterMemberSpec>> members_argument(const eredu_member_desc* const* members,
                                                          std::size_t count);

}  // namespace eredu::capi
