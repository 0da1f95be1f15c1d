// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "planfile/header.hpp"

#include <xxhash.h>

#include <algorithm>

#include "core/checked.hpp"
#include "planfile/little_endian.hpp"

namespace eredu {
namespace {

// Byte offsets of the fixed header's fields (docs/plan-files.md).
constexpr std::size_t kVersionAt = 8;
constexpr std::size_t kPolicyAt = 12;
constexpr std::size_t kAxesAt = 16;  // tensor, pipeline, expert, data: u64 each
constexpr std::size_t kWorldAt = 48;
constexpr std::size_t kFlagsAt = 56;
constexpr std::size_t kStagesAt = 60;
constexpr std::size_t kVersionBytesAt = 64;
constexpr std::size_t kReservedAt = 68;
constexpr std::size_t kFingerprintAt = 72;  // high u64, then low u64
constexpr std::uint32_t kPolicyCount = 3;

auto corrupt(std::string message) { return fail(Status::CorruptData, std::move(message)); }

// Where the index starts: after the fixed header, the stages and the version.
std::uint64_t index_start(std::uint64_t stages, std::uint64_t version_bytes) {
  return kPlanFileFixedBytes + 8 * stages + version_bytes;
}

}  // namespace

std::uint64_t index_end(const PlanFileHeader& header) {
  return index_start(header.topology.pipeline_layers().size(), header.library_version.size()) +
         kPlanFileIndexEntryBytes * header.topology.world_size();
}

std::string encode_header(const PlanFileHeader& header, const std::vector<FrameEntry>& frames) {
  const ParallelTopology& topology = header.topology;
  std::string out(kPlanFileMagic);
  append_u32(out, header.format_version);
  append_u32(out, static_cast<std::uint32_t>(header.policy));
  for (std::uint64_t size :
       {topology.tensor(), topology.pipeline(), topology.expert(), topology.data()}) {
    append_u64(out, size);
  }
  append_u64(out, topology.world_size());
  append_u32(out, header.coverage_ok ? kPlanFileCoverageOk : 0);
  append_u32(out, static_cast<std::uint32_t>(topology.pipeline_layers().size()));
  append_u32(out, static_cast<std::uint32_t>(header.library_version.size()));
  append_u32(out, 0);
  append_u64(out, header.fingerprint.high);
  append_u64(out, header.fingerprint.low);
  for (std::uint64_t layers : topology.pipeline_layers()) append_u64(out, layers);
  out += header.library_version;
  for (const FrameEntry& frame : frames) {
    append_u64(out, frame.offset);
    append_u64(out, frame.compressed);
    append_u64(out, frame.uncompressed);
    append_u64(out, frame.checksum);
  }
  append_u64(out, XXH3_64bits(out.data(), out.size()));
  return out;
}

Result<FixedHeader> decode_fixed(std::string_view bytes, std::uint64_t file_bytes) {
  if (file_bytes < kPlanFileFixedBytes || bytes.size() < kPlanFileFixedBytes) {
    return failf(Status::CorruptData, "truncated: the header needs {} bytes, the file has {}",
                 kPlanFileFixedBytes, file_bytes);
  }
  if (bytes.substr(0, kPlanFileMagic.size()) != kPlanFileMagic) {
    return corrupt("bad magic at byte 0: not an eredu plan file");
  }
  FixedHeader fixed;
  fixed.header.format_version = read_u32(bytes, kVersionAt);
  if (fixed.header.format_version == 0) return corrupt("format version 0 at byte 8");
  if (fixed.header.format_version > kPlanFileVersion) {
    return failf(Status::UnsupportedVersion,
                 "plan file format version {} at byte 8; this library reads version {}",
                 fixed.header.format_version, kPlanFileVersion);
  }
  const std::uint32_t policy = read_u32(bytes, kPolicyAt);
  if (policy >= kPolicyCount) {
    return failf(Status::CorruptData, "unknown policy {} at byte {}", policy, kPolicyAt);
  }
  fixed.header.policy = static_cast<ShardingPolicy>(policy);
  std::uint64_t* axes[] = {&fixed.tensor, &fixed.pipeline, &fixed.expert, &fixed.data};
  std::uint64_t product = 1;
  bool overflow = false;
  for (std::size_t axis = 0; axis < 4; ++axis) {
    *axes[axis] = read_u64(bytes, kAxesAt + 8 * axis);
    if (*axes[axis] == 0) {
      return failf(Status::CorruptData, "axis size 0 at byte {}", kAxesAt + 8 * axis);
    }
    auto next = checked_mul(product, *axes[axis]);
    overflow = overflow || !next;
    product = next.value_or(0);
  }
  fixed.world_size = read_u64(bytes, kWorldAt);
  if (fixed.world_size > kMaxPlanFileRanks) {
    return failf(Status::CorruptData, "absurd world size {} at byte {} (at most {} ranks)",
                 fixed.world_size, kWorldAt, kMaxPlanFileRanks);
  }
  if (overflow || product != fixed.world_size) {
    return failf(Status::CorruptData,
                 "world size {} at byte {} is not the product of the axis sizes {} x {} x {} x {}",
                 fixed.world_size, kWorldAt, fixed.tensor, fixed.pipeline, fixed.expert,
                 fixed.data);
  }
  const std::uint32_t flags = read_u32(bytes, kFlagsAt);
  if ((flags & ~kPlanFileCoverageOk) != 0) {
    return failf(Status::CorruptData, "unknown flags {:#x} at byte {}", flags, kFlagsAt);
  }
  fixed.header.coverage_ok = (flags & kPlanFileCoverageOk) != 0;
  fixed.stage_count = read_u32(bytes, kStagesAt);
  if (fixed.stage_count != 0 && fixed.stage_count != fixed.pipeline) {
    return failf(Status::CorruptData,
                 "{} pipeline stage sizes at byte {} for a pipeline of {} stages",
                 fixed.stage_count, kStagesAt, fixed.pipeline);
  }
  fixed.version_bytes = read_u32(bytes, kVersionBytesAt);
  if (fixed.version_bytes == 0 || fixed.version_bytes > kPlanFileMaxVersionBytes) {
    return failf(Status::CorruptData, "library version length {} at byte {} (1 to {})",
                 fixed.version_bytes, kVersionBytesAt, kPlanFileMaxVersionBytes);
  }
  if (const std::uint32_t reserved = read_u32(bytes, kReservedAt); reserved != 0) {
    return failf(Status::CorruptData, "reserved field {} at byte {} is not 0", reserved,
                 kReservedAt);
  }
  fixed.header.fingerprint = {read_u64(bytes, kFingerprintAt), read_u64(bytes, kFingerprintAt + 8)};
  // At most 2^20 ranks and 2^32 stages: no overflow below 2^64.
  fixed.index_end = index_start(fixed.stage_count, fixed.version_bytes) +
                    kPlanFileIndexEntryBytes * fixed.world_size;
  if (file_bytes < fixed.index_end + 8) {
    return failf(Status::CorruptData,
                 "truncated: header and index of {} ranks need {} bytes, the file has {}",
                 fixed.world_size, fixed.index_end + 8, file_bytes);
  }
  return fixed;
}

Result<std::vector<FrameEntry>> decode_rest(FixedHeader& fixed, std::string_view bytes,
                                            std::uint64_t file_bytes) {
  const std::uint64_t stored = read_u64(bytes, fixed.index_end);
  const std::uint64_t computed = XXH3_64bits(bytes.data(), fixed.index_end);
  if (stored != computed) {
    return failf(Status::CorruptData,
                 "header checksum mismatch: byte {} records {:016x}, bytes [0, {}) hash to {:016x}",
                 fixed.index_end, stored, fixed.index_end, computed);
  }
  std::vector<std::uint64_t> stages(fixed.stage_count);
  for (std::size_t stage = 0; stage < stages.size(); ++stage) {
    stages[stage] = read_u64(bytes, kPlanFileFixedBytes + 8 * stage);
  }
  auto topology = ParallelTopology::create(fixed.tensor, fixed.pipeline, fixed.expert, fixed.data);
  if (topology && !stages.empty()) {
    topology = topology.value().with_pipeline_layers(std::move(stages));
  }
  if (!topology) {
    return failf(Status::CorruptData, "pipeline stage sizes at byte {}: {}", kPlanFileFixedBytes,
                 topology.error().message);
  }
  fixed.header.topology = std::move(topology).value();
  const std::size_t version_at = kPlanFileFixedBytes + 8 * fixed.stage_count;
  fixed.header.library_version = std::string(bytes.substr(version_at, fixed.version_bytes));
  if (!std::ranges::all_of(fixed.header.library_version,
                           [](char c) { return c > ' ' && c < 0x7f; })) {
    return failf(Status::CorruptData, "the library version at byte {} is not printable ASCII",
                 version_at);
  }
  std::vector<FrameEntry> frames(fixed.world_size);
  const std::uint64_t first = index_start(fixed.stage_count, fixed.version_bytes);
  std::uint64_t expected = fixed.index_end + 8;
  for (std::uint64_t rank = 0; rank < fixed.world_size; ++rank) {
    const std::uint64_t entry = first + kPlanFileIndexEntryBytes * rank;
    FrameEntry& frame = frames[rank];
    frame = {read_u64(bytes, entry), read_u64(bytes, entry + 8), read_u64(bytes, entry + 16),
             read_u64(bytes, entry + 24)};
    if (frame.offset != expected) {
      return failf(Status::CorruptData,
                   "rank {}'s frame (index entry at byte {}) starts at byte {}, not at byte {} "
                   "where {} ends: frames {}",
                   rank, entry, frame.offset, expected,
                   rank == 0 ? "the header" : "the previous frame",
                   frame.offset < expected ? "overlap" : "leave a gap");
    }
    const auto end = checked_add(frame.offset, frame.compressed);
    if (frame.compressed == 0 || !end || *end > file_bytes) {
      return failf(Status::CorruptData,
                   "rank {}'s frame (index entry at byte {}) of {} bytes at byte {} does not fit "
                   "a file of {} bytes",
                   rank, entry, frame.compressed, frame.offset, file_bytes);
    }
    if (frame.uncompressed == 0 || frame.uncompressed > kPlanFileMaxRankBytes) {
      return failf(Status::CorruptData,
                   "rank {}'s layout size {} at byte {} is absurd (1 to {} bytes)", rank,
                   frame.uncompressed, entry + 16, kPlanFileMaxRankBytes);
    }
    expected = *end;
  }
  if (expected != file_bytes) {
    return failf(Status::CorruptData, "{} bytes after the last frame, from byte {}",
                 file_bytes - expected, expected);
  }
  return frames;
}

}  // namespace eredu
