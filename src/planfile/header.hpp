// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The fixed-layout part of a plan file, header and index, and their byte
// encoding (docs/plan-files.md): little-endian fixed-width fields.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "plan/layout.hpp"
#include "planfile/fingerprint.hpp"
#include "topology/topology.hpp"

namespace eredu {

/// "EREDUPLN", the first eight bytes of every plan file.
inline constexpr std::string_view kPlanFileMagic = "EREDUPLN";
/// The format version this library writes and reads.
inline constexpr std::uint32_t kPlanFileVersion = 1;
/// Bytes of the fixed header, before the pipeline stages and the version.
inline constexpr std::uint64_t kPlanFileFixedBytes = 88;
/// Bytes of one index entry.
inline constexpr std::uint64_t kPlanFileIndexEntryBytes = 32;
/// The longest library version string a file may hold.
inline constexpr std::uint64_t kPlanFileMaxVersionBytes = 64;
/// The largest layout text one frame may decompress to: 1 GiB.
inline constexpr std::uint64_t kPlanFileMaxRankBytes = std::uint64_t{1} << 30;
/// The most ranks a plan file holds: 2^20, as plan_world plans.
inline constexpr std::uint64_t kMaxPlanFileRanks = std::uint64_t{1} << 20;
/// Flag bit 0: every rank was planned and coverage was proven.
inline constexpr std::uint32_t kPlanFileCoverageOk = 1;

/// What the header says about the world.
struct PlanFileHeader {
  std::uint32_t format_version = kPlanFileVersion;
  ParallelTopology topology;  // with its pipeline stages, if chosen
  ShardingPolicy policy = ShardingPolicy::Require;
  bool coverage_ok = false;
  std::string library_version;
  Fingerprint fingerprint;
};

/// Where one rank's frame is and what it holds.
struct FrameEntry {
  std::uint64_t offset = 0;        // from the start of the file
  std::uint64_t compressed = 0;    // bytes of the zstd frame
  std::uint64_t uncompressed = 0;  // bytes of the layout text
  std::uint64_t checksum = 0;      // XXH3-64 of the compressed bytes
};

/// Bytes of header + index for `header` (the offset of the header checksum).
std::uint64_t index_end(const PlanFileHeader& header);

/// Header, index and header checksum as written at the start of the file.
std::string encode_header(const PlanFileHeader& header, const std::vector<FrameEntry>& frames);

/// The fixed header's fields, its counts checked against `file_bytes`
/// before anything is allocated; decode_rest completes `header`.
struct FixedHeader {
  PlanFileHeader header;         // topology and pipeline stages still unset
  std::uint64_t world_size = 0;  // as recorded, at most kMaxWorldRanks
  std::uint64_t tensor = 0, pipeline = 0, expert = 0, data = 0;
  std::uint32_t stage_count = 0;    // 0 or `pipeline`
  std::uint32_t version_bytes = 0;  // 1 to kPlanFileMaxVersionBytes
  std::uint64_t index_end = 0;      // where the header checksum starts
};

/// Decodes the first kPlanFileFixedBytes of a file of `file_bytes` bytes.
/// Errors: CorruptData (bad magic, format version 0, absurd or inconsistent
/// counts, a file too short for the header and index they announce, each
/// naming the field's byte offset); UnsupportedVersion (a newer format).
Result<FixedHeader> decode_fixed(std::string_view bytes, std::uint64_t file_bytes);

/// Decodes the rest of header and index: `bytes` holds the file's first
/// index_end + 8 bytes (up to the end of the header checksum). Checks the
/// checksum, the pipeline stages and every frame's bounds against
/// `file_bytes` (frames follow the checksum in rank order, each starting
/// where the previous one ends, the last ending at the end of the file).
/// Errors: CorruptData naming what and the byte offset.
Result<std::vector<FrameEntry>> decode_rest(FixedHeader& fixed, std::string_view bytes,
                                            std::uint64_t file_bytes);

}  // namespace eredu
