// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "model/model.hpp"

#include <fmt/ranges.h>

#include <algorithm>
#include <limits>

#include "core/checked.hpp"
#include "core/text.hpp"

namespace eredu {
namespace {

Result<void> check_scope(const ParameterGroupSpec& group, const ModelInfo& info) {
  const GroupScope& scope = group.scope();
  if (scope.kind != GroupScope::Kind::Indexed) return outcome::success();
  if (scope.layer && info.layers && *scope.layer >= *info.layers) {
    return failf(Status::InvalidGroup,
                 "parallel parameter group {} is scoped to layer {}, outside the model's {} layers",
                 debug_quoted(group.logical_name()), *scope.layer, *info.layers);
  }
  if (scope.expert && info.experts && *scope.expert >= *info.experts) {
    return failf(Status::InvalidGroup,
                 "parallel parameter group {} is scoped to expert {}, outside the model's {} "
                 "routed experts",
                 debug_quoted(group.logical_name()), *scope.expert, *info.experts);
  }
  return outcome::success();
}

// The member's global bytes (nullopt without dtype); InvalidTensor when its
// element count or byte size does not fit 64 bits.
Result<std::optional<std::uint64_t>> member_bytes(const ParameterMemberSpec& member) {
  auto elements = checked_element_count(member.global_shape());
  if (!elements) {
    return failf(Status::InvalidTensor, "tensor {} element count of shape [{}] overflows 64 bits",
                 debug_quoted(member.target()), fmt::join(member.global_shape(), ", "));
  }
  if (!member.dtype()) return std::optional<std::uint64_t>{};
  auto bytes = checked_mul(*elements, dtype_size(*member.dtype()));
  if (!bytes) {
    return failf(Status::InvalidTensor, "tensor {} byte size of shape [{}] as {} overflows 64 bits",
                 debug_quoted(member.target()), fmt::join(member.global_shape(), ", "),
                 dtype_name(*member.dtype()));
  }
  return std::optional<std::uint64_t>{*bytes};
}

}  // namespace

ModelBuilder::ModelBuilder(ModelInfo info)
    : model_(std::make_unique<ModelDescription>()),
      targets_([model = model_.get()](std::uint32_t flat) -> std::string_view {
        return model->member(flat).target();
      }) {
  if (info.experts == 0u) info.experts.reset();
  model_->info_ = std::move(info);
}

Result<ModelBuilder> ModelBuilder::create(ModelInfo info) {
  if (info.layers == 0u) {
    return fail(Status::InvalidArgument, "a model's decoder-layer count must be at least 1");
  }
  return ModelBuilder(std::move(info));
}

Result<void> ModelBuilder::check_scope(const ParameterGroupSpec& group) const {
  return eredu::check_scope(group, model_->info_);
}

void ModelBuilder::reserve(std::size_t groups, std::size_t members) {
  model_->groups_.reserve(model_->groups_.size() + groups);
  model_->group_classes_.reserve(model_->group_classes_.size() + groups);
  model_->members_.reserve(model_->members_.size() + members);
  targets_.reserve(model_->members_.size() + members);
  order_.reserve(members);
}

Result<void> ModelBuilder::add_group(ParameterGroupSpec group) {
  ModelDescription& model = *model_;
  EREDU_TRY(check_scope(group));
  const auto& members = group.members();
  if (members.size() > std::numeric_limits<std::uint32_t>::max() - model.members_.size() ||
      model.groups_.size() >= std::numeric_limits<std::uint32_t>::max()) {
    return fail(Status::InvalidArgument, "a model description holds at most 2^32 - 1 tensors");
  }
  // Hashed first, so that the index's slots load while the bytes are added.
  std::vector<std::uint32_t>& hashes = hashes_scratch_;
  hashes.clear();
  for (const ParameterMemberSpec& member : members) {
    hashes.push_back(TargetIndex::hash(member.target()));
    targets_.prefetch(hashes.back());
  }
  std::vector<std::optional<std::uint64_t>>& bytes = bytes_scratch_;
  bytes.clear();
  std::uint64_t total = model.global_bytes_;
  for (const ParameterMemberSpec& member : members) {
    EREDU_TRY(member_total, member_bytes(member));
    if (member_total) {
      auto next = checked_add(total, *member_total);
      if (!next) {
        return failf(Status::InvalidTensor,
                     "tensor {} makes the model's byte total overflow 64 bits",
                     debug_quoted(member.target()));
      }
      total = *next;
    }
    bytes.push_back(member_total);
  }
  for (std::size_t i = 0; i < members.size(); ++i) {
    if (targets_.contains(members[i].target(), hashes[i])) {
      return failf(Status::InvalidGroup,
                   "parallel placement target {} was registered more than once",
                   debug_quoted(members[i].target()));
    }
  }
  // Everything is checked: commit. The group's member storage does not move
  // again, so the target views below stay valid.
  const auto group_index = static_cast<std::uint32_t>(model.groups_.size());
  model.group_classes_.push_back(classifier_.classify(group));
  model.groups_.push_back(std::move(group));
  const auto& stored = model.groups_.back().members();
  for (std::uint32_t i = 0; i < stored.size(); ++i) {
    model.members_.push_back(MemberEntry{group_index, i, bytes[i]});
    targets_.insert(static_cast<std::uint32_t>(model.members_.size() - 1), hashes[i]);
    order_.add(stored[i].target());
    if (!bytes[i]) model.unknown_bytes_tensors_ += 1;
  }
  model.global_bytes_ = total;
  return outcome::success();
}

Result<std::shared_ptr<const ModelDescription>> ModelBuilder::finish() && {
  ModelDescription& model = *model_;
  const auto count = static_cast<std::uint32_t>(model.members_.size());
  model.by_target_ = std::move(order_).order();
  model.position_of_.resize(count);
  for (std::uint32_t position = 0; position < count; ++position) {
    model.position_of_[model.by_target_[position]] = position;
  }
  model.class_count_ = classifier_.class_count();
  targets_.clear();
  return std::shared_ptr<const ModelDescription>(std::move(model_));
}

}  // namespace eredu
