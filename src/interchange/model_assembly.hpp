// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Step 4 of loading an eredu.groups.v1 document (docs/interchange.md,
// "Load errors"): the model built from the groups as the reader hands them
// over: their specs are constructed, then added to the model. Once the
// document's `model` object is known and a first batch of groups has come,
// one helper thread builds while the reader goes on reading; until then (a
// small document, no `model` object, or one after `groups`) the groups wait
// and are built on the calling thread when reading ends.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "core/result.hpp"
#include "interchange/groups_reader.hpp"
#include "model/model.hpp"

namespace eredu {

class ModelAssembly final : public GroupsConsumer {
 public:
  ModelAssembly() = default;
  ModelAssembly(const ModelAssembly&) = delete;
  ModelAssembly& operator=(const ModelAssembly&) = delete;
  /// Stops and joins the helper thread; what it built is dropped.
  ~ModelAssembly() override;

  void model(const ModelInfo& info) override;
  void groups(GroupBatch batch) override;

  /// The model of a document read without error: the first step-4 error
  /// in group order (a group's construction, then its checks as it is
  /// added), else the finished description. Rethrows what the helper thread threw
  /// (std::bad_alloc), as building on the calling thread would.
  Result<std::shared_ptr<const ModelDescription>> finish(GroupsDocument document) &&;

 private:
  void build_on_helper();
  // Adds the batch's groups, until one fails; notes the first error.
  void build(GroupBatch& batch);
  void stop_helper();

  std::mutex mutex_;
  std::condition_variable ready_;
  std::vector<GroupBatch> queue_;  // read, not yet built; under mutex_
  bool closed_ = false;            // under mutex_
  std::size_t next_index_ = 0;     // of the next group to build
  // Owned by the helper thread while it runs, by the caller otherwise.
  std::optional<ModelBuilder> builder_;
  std::optional<Error> error_;
  std::exception_ptr thrown_;
  std::thread helper_;
};

}  // namespace eredu
