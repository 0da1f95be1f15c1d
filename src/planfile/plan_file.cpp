// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "planfile/plan_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/ranges.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "eredu/version.h"
#include "planfile/frame.hpp"

namespace eredu {

struct PlanFile::Descriptor {
  explicit Descriptor(int descriptor) : fd(descriptor) {}
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  ~Descriptor() { ::close(fd); }
  int fd;
};

namespace {

// Reads exactly `count` bytes at `offset` (inside the file, checked by the
// caller). Errors: Io.
Result<std::string> read_at(int fd, std::uint64_t offset, std::uint64_t count,
                            const std::string& path) {
  std::string out(count, '\0');
  std::uint64_t done = 0;
  while (done < count) {
    const ssize_t got =
        ::pread(fd, out.data() + done, count - done, static_cast<off_t>(offset + done));
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return failf(Status::Io, "cannot read {}: {}", path, std::strerror(errno));
    if (got == 0) {
      return failf(Status::CorruptData, "{}: truncated while reading: byte {} is past the end",
                   path, offset + done);
    }
    done += static_cast<std::uint64_t>(got);
  }
  return out;
}

std::string topology_text(const ParallelTopology& topology) {
  std::string text = fmt::format("tp {} x pp {} x ep {} x dp {}", topology.tensor(),
                                 topology.pipeline(), topology.expert(), topology.data());
  if (!topology.pipeline_layers().empty()) {
    text += fmt::format(" (stages of {} layers)", fmt::join(topology.pipeline_layers(), ","));
  }
  return text;
}

}  // namespace

Result<PlanFile> PlanFile::open(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return failf(Status::Io, "cannot open {}: {}", path, std::strerror(errno));
  PlanFile file;
  file.file_ = std::make_shared<const Descriptor>(fd);
  struct stat info {};
  if (::fstat(fd, &info) != 0) {
    return failf(Status::Io, "cannot read {}: {}", path, std::strerror(errno));
  }
  if (!S_ISREG(info.st_mode)) return failf(Status::Io, "cannot read {}: not a regular file", path);
  file.file_bytes_ = static_cast<std::uint64_t>(info.st_size);
  const std::uint64_t first = std::min(file.file_bytes_, kPlanFileFixedBytes);
  EREDU_TRY(fixed_bytes, read_at(fd, 0, first, path));
  auto decoded = decode_fixed(fixed_bytes, file.file_bytes_);
  if (!decoded) return fail(decoded.error().code, path + ": " + decoded.error().message);
  FixedHeader& fixed = decoded.value();
  EREDU_TRY(bytes, read_at(fd, 0, fixed.index_end + 8, path));
  auto frames = decode_rest(fixed, bytes, file.file_bytes_);
  if (!frames) return fail(frames.error().code, path + ": " + frames.error().message);
  file.header_ = std::move(fixed.header);
  file.frames_ = std::move(frames).value();
  file.path_ = path;
  return file;
}

Result<std::string> PlanFile::rank_json(std::uint64_t rank) const {
  if (rank >= frames_.size()) {
    return failf(Status::RankOutOfRange, "rank {} is outside a plan file of {} ranks", rank,
                 frames_.size());
  }
  const FrameEntry& frame = frames_[rank];
  EREDU_TRY(bytes, read_at(file_->fd, frame.offset, frame.compressed, path_));
  const std::string where = fmt::format("{}: rank {}'s frame at bytes [{}, {})", path_, rank,
                                        frame.offset, frame.offset + frame.compressed);
  if (const std::uint64_t checksum = frame_checksum(bytes); checksum != frame.checksum) {
    return failf(Status::CorruptData, "{}: checksum {:016x}, the index records {:016x}", where,
                 checksum, frame.checksum);
  }
  return decompress_frame(bytes, frame.uncompressed, where);
}

Result<void> PlanFile::verify(const ModelDescription& model, const ParallelTopology& topology,
                              ShardingPolicy policy) const {
  if (header_.library_version != EREDU_VERSION_STRING) {
    return failf(Status::PlanFileMismatch,
                 "the plan file was written by eredu {}, this library is eredu {}",
                 header_.library_version, EREDU_VERSION_STRING);
  }
  if (topology_text(header_.topology) != topology_text(topology)) {
    return failf(Status::PlanFileMismatch, "the plan file is for {}, not {}",
                 topology_text(header_.topology), topology_text(topology));
  }
  if (header_.policy != policy) {
    return failf(Status::PlanFileMismatch, "the plan file was planned with policy {}, not {}",
                 sharding_policy_name(header_.policy), sharding_policy_name(policy));
  }
  const Fingerprint expected = plan_fingerprint(model, topology, policy, EREDU_VERSION_STRING);
  if (expected != header_.fingerprint) {
    return failf(Status::PlanFileMismatch,
                 "the plan file was planned from another description: fingerprint {}, the "
                 "description's is {}",
                 header_.fingerprint.hex(), expected.hex());
  }
  return outcome::success();
}

}  // namespace eredu
