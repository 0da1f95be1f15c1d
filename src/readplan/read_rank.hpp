// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Executing a whole read plan: every tensor of a rank read from its files by
// a small pool of threads (docs/checkpoints.md, "Reading a whole rank").
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "core/result.hpp"
#include "readplan/read_plan.hpp"

namespace eredu {

/// How read_rank reads.
struct ReadRankOptions {
  /// Threads reading, the calling one included; 0: one per hardware thread.
  unsigned threads = 0;
  /// The most bytes one read request asks for (at least 4096): contiguous
  /// extents are split into requests of this size, coalesced rows are
  /// grouped into spans of at most this size.
  std::uint64_t request_bytes = std::uint64_t{1} << 20;
  /// Rows of a strided extent whose gaps are at most this many bytes are
  /// read as one span by one preadv scattering the rows into place (the
  /// gaps are read into scratch memory and dropped, counted in bytes_read);
  /// rows with wider gaps are copied from a read-only mapping of the span
  /// they cover (or read row by row with O_DIRECT), so the default 0 reads
  /// exactly the bytes kept.
  std::uint64_t max_gap_bytes = 0;
  /// Read with O_DIRECT through aligned bounce buffers, bypassing the page
  /// cache; a file whose file system refuses O_DIRECT is read buffered
  /// (ReadRankStats::direct tells).
  bool direct = false;
  /// Called on the calling thread with (bytes kept so far, bytes to keep);
  /// returning false cancels the call (Status::Cancelled).
  std::function<bool(std::uint64_t, std::uint64_t)> progress;
};

/// What read_rank did.
struct ReadRankStats {
  std::uint64_t bytes_read = 0;  // bytes the requests read from the files (mapped rows: copied)
  std::uint64_t bytes_kept = 0;  // bytes written to the buffers: the plan's read_bytes
  std::uint64_t tensors = 0;     // tensors filled
  std::uint64_t requests = 0;    // read system calls and mappings of rows
  unsigned threads = 0;          // threads that read, the calling one included
  bool direct = false;           // every request was an O_DIRECT read
};

/// Reads every tensor of `plan` into `buffers` (one per tensor, in the
/// plan's order, each at least the tensor's local_bytes): every extent's
/// bytes and nothing else, as read_tensor does, with each file opened once.
/// Padding rows and bytes past local_bytes are left as they were. Errors:
/// InvalidArgument (a buffer count other than the tensor count, a buffer
/// smaller than its tensor, a request size below 4096 or above 1 GiB); Io
/// (a file that cannot be opened or read, or is shorter than the plan: it
/// changed since the plan was made), naming the file; Cancelled (progress
/// returned false); OutOfMemory. The first error stops every thread; the
/// buffers may be partly written then. Thread-safe: `plan` is only read.
Result<ReadRankStats> read_rank(const ReadPlan& plan, std::span<const std::span<char>> buffers,
                                const ReadRankOptions& options);

/// Memory for every tensor of a plan: one anonymous mapping (zeroed by the
/// kernel, so padding rows read as zeros), each tensor at a 4096-byte
/// aligned offset.
class RankBuffers {
 public:
  RankBuffers() = default;
  RankBuffers(const RankBuffers&) = delete;
  RankBuffers& operator=(const RankBuffers&) = delete;
  RankBuffers(RankBuffers&& other) noexcept;
  RankBuffers& operator=(RankBuffers&& other) noexcept;
  ~RankBuffers();

  /// Maps the buffers of `plan`'s tensors. Errors: OutOfMemory.
  static Result<RankBuffers> allocate(const ReadPlan& plan);

  /// One span per tensor, in the plan's order.
  const std::vector<std::span<char>>& spans() const { return spans_; }

 private:
  void* base_ = nullptr;
  std::size_t size_ = 0;
  std::vector<std::span<char>> spans_;
};

}  // namespace eredu
