// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The proof that read plans are right: every rank reads its extents with
// pread, and the tensors reassembled from the ranks equal the file's bytes.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "checkpoint/checkpoint.hpp"
#include "model/model.hpp"
#include "topology/topology.hpp"

namespace eredu::test {

/// What one reassembly read, over every rank.
struct ReassemblyTotals {
  std::uint64_t tensors = 0;           // distinct tensors reassembled
  std::uint64_t bytes_read = 0;        // bytes every rank read, together
  std::uint64_t checkpoint_bytes = 0;  // bytes of those tensors in the files
};

/// Plans every rank of `topology` (tensor parallel only) for `model`,
/// builds each rank's read plan over `checkpoint`, reads every extent with
/// pread into the rank's local buffers (and again with read_tensor) and
/// checks, failing the current
/// doctest case otherwise: no rank reads a byte twice or outside the
/// tensor; each local buffer equals the file's bytes at the indices the
/// layout selects (element by element, independently of the extents); and
/// the tensors reassembled from all ranks equal the file, each byte read by
/// exactly one rank for a sharded tensor and by every rank for a replicated
/// one.
ReassemblyTotals check_reassembly(const std::shared_ptr<const ModelDescription>& model,
                                  const Checkpoint& checkpoint, const ParallelTopology& topology);

}  // namespace eredu::test
