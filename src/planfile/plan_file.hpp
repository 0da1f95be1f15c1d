// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// An open plan file (docs/plan-files.md): its header and index, checked when
// opened, and any rank's layout text read on demand.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/result.hpp"
#include "model/model.hpp"
#include "planfile/header.hpp"

namespace eredu {

/// A plan file opened for positioned reads. Opening reads the header and
/// the index only; rank_json reads one frame. Move-only; closes on
/// destruction. Thread-safe: any number of threads may read ranks at once.
class PlanFile {
 public:
  /// Opens and checks `path`: header, index and header checksum, every
  /// frame's bounds against the file's size. Errors: Io (missing, a
  /// directory, unreadable); CorruptData (decode_fixed, decode_rest);
  /// UnsupportedVersion (a newer format).
  static Result<PlanFile> open(const std::string& path);

  const PlanFileHeader& header() const { return header_; }
  const std::vector<FrameEntry>& frames() const { return frames_; }
  std::uint64_t file_bytes() const { return file_bytes_; }

  /// Rank `rank`'s eredu.layout.v1 text, exactly as layout_to_json wrote
  /// it. Reads that frame only. Errors: RankOutOfRange; Io (the read
  /// fails); CorruptData (the frame's checksum, a frame that does not
  /// decompress to its recorded size), naming the rank and byte offset.
  Result<std::string> rank_json(std::uint64_t rank) const;

  /// OK when the file was planned from `model`, `topology` (with its
  /// pipeline stages) and `policy` by this library version; else
  /// PlanFileMismatch naming the first that differs: the library version,
  /// the topology, the policy, then the description (by fingerprint).
  Result<void> verify(const ModelDescription& model, const ParallelTopology& topology,
                      ShardingPolicy policy) const;

 private:
  struct Descriptor;  // closes the file
  std::shared_ptr<const Descriptor> file_;
  std::string path_;  // as messages name the file
  std::uint64_t file_bytes_ = 0;
  PlanFileHeader header_;
  std::vector<FrameEntry> frames_;
};

}  // namespace eredu
