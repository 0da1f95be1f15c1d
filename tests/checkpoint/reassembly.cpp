// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "reassembly.hpp"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <map>
#include <vector>

#include "plan/planner.hpp"
#include "readplan/read_plan.hpp"
#include "readplan/read_rank.hpp"
#include "readplan/read_tensor.hpp"

namespace eredu::test {
namespace {

std::string read_range(const std::string& path, std::uint64_t offset, std::uint64_t length) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  REQUIRE(fd >= 0);
  std::string bytes(length, '\0');
  const ssize_t got = ::pread(fd, bytes.data(), length, static_cast<off_t>(offset));
  ::close(fd);
  REQUIRE(got == static_cast<ssize_t>(length));
  return bytes;
}

// The global indices a rank holds on each axis, in local order, from the
// layout alone (not from the extents): the placement's selection, the
// expert range, the whole axis otherwise; rows past the stored extent are
// padding and have no global index.
std::vector<std::vector<std::uint64_t>> held_indices(const LocalTensorLayout& tensor,
                                                     const StoredShape& stored) {
  const std::vector<std::uint64_t>& shape = tensor.global_shape();
  std::vector<std::vector<std::uint64_t>> axes;
  for (std::uint64_t axis = 0; axis < shape.size(); ++axis) {
    std::vector<IndexRange> ranges = selection_on_axis(tensor.placement, shape, axis);
    if (tensor.member->sharding().expert_axis == axis && tensor.expert_range) {
      ranges = {*tensor.expert_range};
    }
    std::vector<std::uint64_t> indices;
    for (const IndexRange& range : ranges) {
      for (std::uint64_t index = range.start; index < range.end; ++index) {
        if (index < stored.shape[axis]) indices.push_back(index);
      }
    }
    axes.push_back(std::move(indices));
  }
  return axes;
}

struct Reassembled {
  std::string full;                  // the tensor's bytes, as the ranks held them
  std::vector<std::uint32_t> reads;  // per stored element: ranks that held it
  std::uint64_t expected_holders = 0;
  std::uint64_t mismatches = 0;  // elements a rank held with other bytes than the file's
};

// Checks one rank's local buffer against the file, element by element, and
// adds what it holds to `whole`.
void check_local_buffer(const LocalTensorLayout& tensor, const CheckpointTensor& stored,
                        const std::string& file_bytes, const std::string& local,
                        Reassembled& whole) {
  const StoredShape shape = stored_shape(stored);
  const auto axes = held_indices(tensor, shape);
  const std::uint64_t width = shape.element_bytes;
  std::vector<std::uint64_t> global_strides(shape.shape.size(), 1);
  std::vector<std::uint64_t> local_strides(shape.shape.size(), 1);
  for (std::size_t axis = shape.shape.size(); axis-- > 1;) {
    global_strides[axis - 1] = global_strides[axis] * shape.shape[axis];
    local_strides[axis - 1] = local_strides[axis] * tensor.local_shape[axis];
  }
  std::vector<std::uint64_t> at(shape.shape.size(), 0);
  std::function<void(std::size_t, std::uint64_t, std::uint64_t)> walk =
      [&](std::size_t axis, std::uint64_t global, std::uint64_t position) {
        if (axis == shape.shape.size()) {
          const std::string_view held(local.data() + position * width, width);
          const std::string_view stored_bytes(file_bytes.data() + global * width, width);
          if (held != stored_bytes) ++whole.mismatches;
          whole.full.replace(global * width, width, held);
          ++whole.reads[global];
          return;
        }
        for (std::size_t i = 0; i < axes[axis].size(); ++i) {
          walk(axis + 1, global + axes[axis][i] * global_strides[axis],
               position + i * local_strides[axis]);
        }
      };
  walk(0, 0, 0);
}

// One rank's extents: inside the tensor, inside the buffer, no byte twice.
void check_extents(const TensorReadPlan& read, const CheckpointTensor& stored) {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges;
  for (const ReadExtent& extent : read.extents) {
    for (std::uint64_t i = 0; i < extent.count; ++i) {
      const std::uint64_t from = extent.offset + i * extent.stride;
      REQUIRE(from >= stored.offset);
      REQUIRE(from + extent.length <= stored.offset + stored.bytes);
      REQUIRE(extent.dest + i * extent.dest_stride + extent.length <= read.local_bytes);
      ranges.emplace_back(from, from + extent.length);
    }
  }
  std::sort(ranges.begin(), ranges.end());
  for (std::size_t i = 1; i < ranges.size(); ++i) REQUIRE(ranges[i - 1].second <= ranges[i].first);
}

}  // namespace

ReassemblyTotals check_reassembly(const std::shared_ptr<const ModelDescription>& model,
                                  const Checkpoint& checkpoint, const ParallelTopology& topology) {
  std::map<std::string, Reassembled> tensors;
  std::map<std::string, std::string> file_bytes;  // per tensor
  ReassemblyTotals totals;
  for (std::uint64_t rank = 0; rank < topology.world_size(); ++rank) {
    auto layout = plan_rank(model, topology, rank, ShardingPolicy::Require);
    REQUIRE(layout);
    auto plan = build_read_plan(layout.value(), checkpoint);
    REQUIRE(plan);
    CHECK(plan.value().rank == rank);
    std::vector<std::string> one_by_one;  // read_tensor's buffers
    for (const TensorReadPlan& read : plan.value().tensors) {
      CAPTURE(rank);
      CAPTURE(read.target);
      const LocalTensorLayout* tensor = layout.value().tensor(read.target);
      const CheckpointTensor* stored = checkpoint.find(read.target);
      REQUIRE(tensor != nullptr);
      REQUIRE(stored != nullptr);
      CHECK(read.dtype == stored->type);
      CHECK(read.local_shape == tensor->local_shape);
      check_extents(read, *stored);
      std::string local(read.local_bytes, '\0');
      for (const ReadExtent& extent : read.extents) {
        const std::string& name = plan.value().files.at(extent.file);
        const std::string path = plan.value().root.empty() ? name : plan.value().root + "/" + name;
        CHECK(path == checkpoint.path(stored->file));
        for (std::uint64_t i = 0; i < extent.count; ++i) {
          const std::string bytes =
              read_range(path, extent.offset + i * extent.stride, extent.length);
          local.replace(extent.dest + i * extent.dest_stride, extent.length, bytes);
          totals.bytes_read += extent.length;
        }
      }
      // read_tensor fills the same buffer (mapped rows for strided extents).
      std::string through(read.local_bytes, '\0');
      const std::size_t index = static_cast<std::size_t>(&read - plan.value().tensors.data());
      REQUIRE(read_tensor(plan.value(), index, through));
      CHECK(through == local);
      one_by_one.push_back(through);
      auto [entry, first] = tensors.try_emplace(read.target);
      if (first) {
        file_bytes[read.target] =
            read_range(checkpoint.path(stored->file), stored->offset, stored->bytes);
        const StoredShape shape = stored_shape(*stored);
        entry->second.full.assign(stored->bytes, '\0');
        entry->second.reads.assign(stored->bytes / shape.element_bytes, 0);
        const bool replicated = tensor->placement.kind == PlacementKind::Replicated;
        entry->second.expected_holders =
            replicated ? topology.world_size() : tensor->kv_head_copies;
        totals.checkpoint_bytes += stored->bytes;
      }
      check_local_buffer(*tensor, *stored, file_bytes[read.target], local, entry->second);
    }
    // read_rank fills every buffer at once as read_tensor does one by one,
    // with rows coalesced and, with small requests, split across threads.
    for (const std::uint64_t request : {std::uint64_t{4096}, std::uint64_t{1} << 20}) {
      std::vector<std::string> all;
      for (const TensorReadPlan& read : plan.value().tensors) all.emplace_back(read.local_bytes, 0);
      const std::vector<std::span<char>> spans(all.begin(), all.end());
      ReadRankOptions options;
      options.threads = 3;
      options.request_bytes = request;
      auto stats = read_rank(plan.value(), spans, options);
      REQUIRE(stats);
      CHECK(stats.value().bytes_kept == plan.value().read_bytes);
      CHECK(stats.value().bytes_read >= plan.value().read_bytes);
      CHECK(all == one_by_one);
    }
  }
  for (const auto& entry : tensors) {
    // Not structured bindings: clang 14 cannot capture them in CAPTURE's lambda.
    const auto& target = std::get<0>(entry);
    const auto& whole = std::get<1>(entry);
    CAPTURE(target);
    CHECK(whole.mismatches == 0);
    CHECK(whole.full == file_bytes[target]);
    const auto [fewest, most] = std::minmax_element(whole.reads.begin(), whole.reads.end());
    if (fewest != whole.reads.end()) {
      CHECK(*fewest == whole.expected_holders);
      CHECK(*most == whole.expected_holders);
    }
  }
  totals.tensors = tensors.size();
  return totals;
}

}  // namespace eredu::test
