// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "describe/checkpoint_headers.hpp"

#include <utility>

#include "core/text.hpp"

namespace eredu {
namespace {

Result<ParameterGroupSpec> rebuilt(const ParameterGroupSpec& group,
                                   std::vector<ParameterMemberSpec> members) {
  if (group.partition_units()) {
    EREDU_TRY(partitioned, ParameterGroupSpec::partitioned(
                               group.logical_name(), group.role(), *group.partition_units(),
                               std::move(members), group.scope(), group.query_units()));
    return std::move(partitioned).with_encoded(group.encoded());
  }
  EREDU_TRY(created, ParameterGroupSpec::create(group.logical_name(), group.role(),
                                                std::move(members), group.scope()));
  return std::move(created).with_encoded(group.encoded());
}

}  // namespace

WeightIndex index_from_checkpoint(const Checkpoint& checkpoint, std::string file) {
  WeightIndex index;
  index.file = std::move(file);
  index.names.reserve(checkpoint.tensors.size());
  for (const CheckpointTensor& tensor : checkpoint.tensors) index.names.push_back(tensor.name);
  index.total_size = checkpoint.tensor_bytes();
  return index;
}

Result<std::vector<ParameterGroupSpec>> adopt_stored_dtypes(std::vector<ParameterGroupSpec> groups,
                                                            const Checkpoint& checkpoint) {
  for (ParameterGroupSpec& group : groups) {
    bool changed = false;
    std::vector<ParameterMemberSpec> members = group.members();
    for (ParameterMemberSpec& member : members) {
      const CheckpointTensor* stored = checkpoint.find(member.target());
      if (stored == nullptr || !stored->dtype || stored->shape != member.global_shape() ||
          member.dtype() == stored->dtype) {
        continue;
      }
      member = ParameterMemberSpec(member.target(), member.global_shape(), member.sharding(),
                                   stored->dtype);
      changed = true;
    }
    if (changed) {
      EREDU_TRY(group_with_dtypes, rebuilt(group, std::move(members)));
      group = std::move(group_with_dtypes);
    }
  }
  return groups;
}

Result<void> check_stored_shapes(const ModelDescription& model, const Checkpoint& checkpoint) {
  for (const ParameterGroupSpec& group : model.groups()) {
    for (const ParameterMemberSpec& member : group.members()) {
      const CheckpointTensor* stored = checkpoint.find(member.target());
      if (stored == nullptr) continue;
      const StoredShape shape = stored_shape(*stored);
      if (shape.shape == member.global_shape() && stores_dtype(*stored, member.dtype())) continue;
      return failf(Status::CheckpointMismatch,
                   "tensor {}: described as {} {}, but {} stores {} {}{}",
                   debug_quoted(member.target()),
                   member.dtype() ? dtype_name(*member.dtype()) : "(no dtype)",
                   shape_text(member.global_shape()), checkpoint.files[stored->file], stored->type,
                   shape_text(stored->shape),
                   stored->dtype ? "" : fmt::format(" ({} bytes per row)", shape.shape.back()));
    }
  }
  return outcome::success();
}

}  // namespace eredu
