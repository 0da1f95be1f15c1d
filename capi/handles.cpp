// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "handles.hpp"

namespace eredu::capi {

MemberViews::MemberViews(const std::vector<ParameterMemberSpec>& members) {
  segment_values_.reserve(members.size());
  for (const ParameterMemberSpec& member : members) {
    std::vector<std::uint64_t> values;
    values.reserve(2 * member.sharding().segments.size());
    for (const IndexRange& segment : member.sharding().segments) {
      values.push_back(segment.start);
      values.push_back(segment.end);
    }
    segment_values_.push_back(std::move(values));
  }
}

eredu_member_desc MemberViews::view(const std::vector<ParameterMemberSpec>& members,
                                    std::size_t index) const {
  const ParameterMemberSpec& member = members[index];
  const std::vector<std::uint64_t>& segments = segment_values_[index];
  eredu_member_desc out{};
  out.struct_size = sizeof out;
  out.target = member.target().c_str();
  out.shape = member.global_shape().empty() ? nullptr : member.global_shape().data();
  out.ndim = member.global_shape().size();
  out.has_dtype = member.dtype().has_value() ? 1 : 0;
  out.dtype = member.dtype() ? static_cast<eredu_dtype>(*member.dtype()) : 0;
  out.sharding = static_cast<eredu_sharding_kind>(member.sharding().kind);
  out.axis = member.sharding().axis;
  out.segments = segments.empty() ? nullptr : segments.data();
  out.segment_count = segments.size() / 2;
  out.per_kv_head = member.sharding().per_kv_head ? 1 : 0;
  out.has_expert_axis = member.sharding().expert_axis.has_value() ? 1 : 0;
  out.expert_axis = member.sharding().expert_axis.value_or(0);
  return out;
}

}  // namespace eredu::capi
