// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "interchange/group_batch.hpp"

#include <fmt/format.h>

#include <iterator>
#include <utility>

#include "core/text.hpp"

namespace eredu {

BatchSpan GroupBatch::add_text(std::string_view bytes) {
  const BatchSpan span{text.size(), bytes.size()};
  text.append(bytes);
  return span;
}

Result<ParameterGroupSpec> GroupBatch::construct(std::size_t group) {
  const GroupRecord& record = groups[group];
  const std::string_view name = std::string_view(text).substr(record.name.offset, record.name.size);
  if (record.query_units && !record.units) {
    return failf(Status::InvalidGroup,
                 "parallel parameter group {}: query_units needs partition_units",
                 debug_quoted(name));
  }
  std::vector<ParameterMemberSpec> specs;
  specs.reserve(record.members.size);
  for (std::size_t index = 0; index < record.members.size; ++index) {
    MemberRecord& member = members[record.members.offset + index];
    const auto shape = dims.begin() + static_cast<std::ptrdiff_t>(member.shape.offset);
    specs.emplace_back(
        std::string(text, member.target.offset, member.target.size),
        std::vector<std::uint64_t>(shape, shape + static_cast<std::ptrdiff_t>(member.shape.size)),
        std::move(member.sharding), member.dtype);
  }
  auto spec = record.units ? ParameterGroupSpec::partitioned(std::string(name), record.role,
                                                             *record.units, std::move(specs),
                                                             record.scope, record.query_units)
                           : ParameterGroupSpec::create(std::string(name), record.role,
                                                        std::move(specs), record.scope);
  if (spec && record.vocab_pad_multiple) {
    spec = spec.value().with_vocab_pad_multiple(*record.vocab_pad_multiple);
  }
  return spec;
}

std::vector<MemberFormat> GroupBatch::take_formats(std::size_t group) {
  const BatchSpan span = groups[group].formats;
  const auto first = formats.begin() + static_cast<std::ptrdiff_t>(span.offset);
  return std::vector<MemberFormat>(
      std::make_move_iterator(first),
      std::make_move_iterator(first + static_cast<std::ptrdiff_t>(span.size)));
}

}  // namespace eredu
