// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "interchange/model_assembly.hpp"

#include <optional>
#include <system_error>
#include <utility>

#include "interchange/json_path.hpp"
#include "model/expand.hpp"

namespace eredu {
namespace {

// The group at `index`, which has `formats`: its scope, then every format's
// construction in member order (the message locates the format by its JSON
// pointer), then the expansion into physical members.
Result<ParameterGroupSpec> expand_formats(const ModelBuilder& builder, std::size_t index,
                                          ParameterGroupSpec group,
                                          std::vector<MemberFormat> formats) {
  EREDU_TRY(builder.check_scope(group));
  std::vector<std::optional<LinearFormatSpec>> specs(group.members().size());
  for (const MemberFormat& format : formats) {
    auto spec = construct_linear_format(format.declaration);
    if (!spec) {
      const json::Path root;
      const json::Path groups = root.field("groups");
      const json::Path group_at = groups.item(index);
      const json::Path members = group_at.field("members");
      const json::Path member = members.item(format.member);
      return failf(Status::InvalidFormat, "{}: {}", member.field("format").str(),
                   spec.error().message);
    }
    specs[format.member] = std::move(spec).value();
  }
  std::size_t position = 0;
  return expand_linear_format_group(
      group, [&](const ParameterMemberSpec&) -> Result<std::optional<LinearFormatSpec>> {
        return specs[position++];
      });
}

}  // namespace

ModelAssembly::~ModelAssembly() { stop_helper(); }

void ModelAssembly::model(const ModelInfo& info) {
  auto builder = ModelBuilder::create(info);
  if (!builder) {
    error_ = std::move(builder).error();
    return;
  }
  builder_.emplace(std::move(builder).value());
}

void ModelAssembly::groups(GroupBatch batch) {
  // A last batch that is not full does not start the helper: a document of
  // so few groups builds faster on the calling thread.
  const bool full = batch.groups.size() == kBatchGroups;
  {
    const std::lock_guard lock(mutex_);
    queue_.push_back(std::move(batch));
  }
  if (helper_.joinable()) {
    ready_.notify_one();
    return;
  }
  if (!full || !builder_ || error_) return;
  try {
    helper_ = std::thread(&ModelAssembly::build_on_helper, this);
  } catch (const std::system_error&) {
    // No thread to be had: the groups wait for finish().
  }
}

void ModelAssembly::build_on_helper() {
  std::vector<GroupBatch> batches;
  try {
    for (;;) {
      {
        std::unique_lock lock(mutex_);
        ready_.wait(lock, [&] { return closed_ || !queue_.empty(); });
        batches.swap(queue_);
        if (batches.empty()) return;  // closed, all built
      }
      for (GroupBatch& batch : batches) {
        if (batch.expected_members != 0) {
          builder_->reserve(batch.expected_groups, batch.expected_members);
        }
        build(batch);
      }
      batches.clear();
    }
  } catch (...) {
    thrown_ = std::current_exception();
  }
}

void ModelAssembly::build(GroupBatch& batch) {
  for (std::size_t group = 0; group < batch.groups.size() && !error_; ++group) {
    const std::size_t index = next_index_++;
    auto added = [&]() -> Result<void> {
      EREDU_TRY(spec, batch.construct(group));
      if (batch.groups[group].formats.size == 0) return builder_->add_group(std::move(spec));
      EREDU_TRY(expanded,
                expand_formats(*builder_, index, std::move(spec), batch.take_formats(group)));
      return builder_->add_group(std::move(expanded));
    }();
    if (!added) error_ = std::move(added).error();
  }
}

void ModelAssembly::stop_helper() {
  if (!helper_.joinable()) return;
  {
    const std::lock_guard lock(mutex_);
    closed_ = true;
  }
  ready_.notify_one();
  helper_.join();
}

Result<std::shared_ptr<const ModelDescription>> ModelAssembly::finish(GroupsDocument document) && {
  stop_helper();
  if (thrown_) std::rethrow_exception(thrown_);
  if (!builder_ && !error_) model(document.info);
  if (error_) return outcome::failure(std::move(*error_));
  std::size_t groups = 0;
  std::size_t members = 0;
  for (const GroupBatch& batch : queue_) {
    groups += batch.groups.size();
    members += batch.members.size();
  }
  builder_->reserve(groups, members);
  for (GroupBatch& batch : queue_) build(batch);
  std::vector<GroupBatch>().swap(queue_);
  if (error_) return outcome::failure(std::move(*error_));
  return std::move(*builder_).finish();
}

}  // namespace eredu
