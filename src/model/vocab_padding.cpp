// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "model/vocab_padding.hpp"

#include <algorithm>

namespace eredu {

bool pads_vocabulary(const ParameterGroupSpec& group) {
  return group.role() == ParameterRole::Vocabulary &&
         std::any_of(group.members().begin(), group.members().end(),
                     [](const ParameterMemberSpec& member) {
                       return member.sharding().kind == ShardingKind::Balanced;
                     });
}

Result<std::shared_ptr<const ModelDescription>> pad_vocabulary(const ModelDescription& model,
                                                               std::uint64_t multiple) {
  if (multiple == 0) {
    return fail(Status::InvalidArgument, "the vocabulary padding multiple must be at least 1");
  }
  const auto& groups = model.groups();
  if (std::none_of(groups.begin(), groups.end(), pads_vocabulary)) {
    return fail(Status::InvalidArgument,
                "vocabulary padding needs a vocabulary group with a balanced member; the "
                "description has none");
  }
  EREDU_TRY(builder, ModelBuilder::create(model.info()));
  for (const ParameterGroupSpec& group : groups) {
    if (!pads_vocabulary(group)) {
      EREDU_TRY(builder.add_group(group));
      continue;
    }
    EREDU_TRY(padded, group.with_vocab_pad_multiple(multiple));
    EREDU_TRY(builder.add_group(std::move(padded)));
  }
  return std::move(builder).finish();
}

}  // namespace eredu
