// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Read plans (docs/checkpoints.md, "Read plans"): for one planned rank, the
// byte extents of the checkpoint files that fill each of its local tensors.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "checkpoint/checkpoint.hpp"
#include "core/result.hpp"
#include "plan/layout.hpp"

namespace eredu {

/// Copy `length` bytes from file offset `offset + i·stride` to local-buffer
/// offset `dest + i·dest_stride`, for i in [0, count). Offsets are bytes
/// from the start of the file and of the tensor's local buffer; a single
/// extent has count 1 and stride = dest_stride = length.
struct ReadExtent {
  std::uint32_t file = 0;  // index into ReadPlan::files
  std::uint64_t offset = 0;
  std::uint64_t length = 0;
  std::uint64_t count = 1;
  std::uint64_t stride = 0;
  std::uint64_t dest = 0;
  std::uint64_t dest_stride = 0;
  friend bool operator==(const ReadExtent&, const ReadExtent&) = default;
};

/// One tensor the rank materializes.
struct TensorReadPlan {
  std::string target;
  /// The checkpoint's element type: a safetensors dtype ("BF16") or a ggml
  /// type name ("Q4_K").
  std::string dtype;
  /// The layout's local shape, outermost first: elements, except the row
  /// axis of a GGUF block type, which counts bytes (its packed U8 form).
  std::vector<std::uint64_t> local_shape;
  std::uint64_t local_bytes = 0;    // the local buffer's size
  std::uint64_t read_bytes = 0;     // bytes the extents read (Σ length·count)
  std::uint64_t padding_rows = 0;   // local rows past the checkpoint's, not read
  std::vector<ReadExtent> extents;  // in ascending destination order
};

/// Every tensor one rank materializes, in the layout's (target) order.
struct ReadPlan {
  std::string model;  // the model description's name
  std::uint64_t rank = 0;
  std::vector<std::string> files;  // the checkpoint's files the extents use
  std::string root;                // Checkpoint::root
  std::vector<TensorReadPlan> tensors;
  std::uint64_t read_bytes = 0;   // Σ over tensors
  std::uint64_t local_bytes = 0;  // Σ over tensors
};

/// The read plan of `layout`'s rank over `checkpoint`. Every materialized
/// tensor's bytes are read exactly once, in the fewest extents the layout
/// allows: one per run of the innermost selected axis and per combination
/// of the selected axes outside it, where a run of consecutive outer rows
/// is one strided extent. Omitted tensors are absent. Errors:
/// CheckpointMismatch when a materialized tensor is not in the checkpoint,
/// or its stored shape or element type disagrees with the member's (a GGUF
/// block type stands for the member's packed U8 form), naming the tensor and
/// both; Internal when the layout's local shape disagrees with its
/// selection. Padding rows are left unread at the end of the padded axis.
/// Pure; thread-safe.
Result<ReadPlan> build_read_plan(const LocalModelLayout& layout, const Checkpoint& checkpoint);

}  // namespace eredu
