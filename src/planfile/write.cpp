// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "planfile/write.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "eredu/version.h"
#include "interchange/layout_json.hpp"
#include "planfile/frame.hpp"
#include "planfile/header.hpp"

namespace eredu {
namespace {

static_assert(kMaxPlanFileRanks == kMaxWorldRanks);
static_assert(sizeof(EREDU_VERSION_STRING) - 1 <= kPlanFileMaxVersionBytes);

// Io naming `path` and errno's reason, for any Result.
auto io_failure(const std::string& path) {
  return failf(Status::Io, "cannot write {}: {}", path, std::strerror(errno));
}

// A temporary file next to the final one, removed unless committed.
class TemporaryFile {
 public:
  TemporaryFile(const TemporaryFile&) = delete;
  TemporaryFile& operator=(const TemporaryFile&) = delete;
  ~TemporaryFile() {
    if (fd_ >= 0) ::close(fd_);
    if (!committed_) ::unlink(name_.c_str());
  }

  /// Creates `path`.XXXXXX (mode 0644). Errors: Io.
  static Result<std::unique_ptr<TemporaryFile>> create(const std::string& path) {
    std::string name = path + ".XXXXXX";
    const int fd = ::mkostemp(name.data(), O_CLOEXEC);
    if (fd < 0) return io_failure(path);
    std::unique_ptr<TemporaryFile> file(new TemporaryFile(fd, std::move(name), path));
    if (::fchmod(fd, 0644) != 0) return io_failure(path);
    return file;
  }

  /// Appends `bytes`. Errors: Io.
  Result<void> write(std::string_view bytes) {
    while (!bytes.empty()) {
      const ssize_t done = ::write(fd_, bytes.data(), bytes.size());
      if (done < 0 && errno == EINTR) continue;
      if (done < 0) return io_failure(path_);
      bytes.remove_prefix(static_cast<std::size_t>(done));
    }
    return outcome::success();
  }

  /// Flushes the file to disk, closes it and renames it over the final
  /// path. Errors: Io.
  Result<void> commit() {
    if (::fsync(fd_) != 0) return io_failure(path_);
    const int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) return io_failure(path_);
    if (::rename(name_.c_str(), path_.c_str()) != 0) return io_failure(path_);
    committed_ = true;
    return outcome::success();
  }

 private:
  TemporaryFile(int fd, std::string name, std::string path)
      : fd_(fd), name_(std::move(name)), path_(std::move(path)) {}

  int fd_ = -1;
  std::string name_;
  std::string path_;
  bool committed_ = false;
};

// What a worker reuses from one rank to the next: the layout's text and a
// compressor. Taken by a visit and given back when it ends; there are at
// most as many as workers.
struct RankScratch {
  std::string text;
  FrameCompressor compressor;
};

class ScratchPool {
 public:
  std::unique_ptr<RankScratch> take() {
    const std::lock_guard lock(mutex_);
    if (free_.empty()) return std::make_unique<RankScratch>();
    std::unique_ptr<RankScratch> scratch = std::move(free_.back());
    free_.pop_back();
    return scratch;
  }

  void give_back(std::unique_ptr<RankScratch> scratch) {
    const std::lock_guard lock(mutex_);
    free_.push_back(std::move(scratch));
  }

 private:
  std::mutex mutex_;
  std::vector<std::unique_ptr<RankScratch>> free_;
};

// Rank `layout`'s frame, compressed with `scratch`: its entry's sizes and
// checksum and the frame's bytes.
Result<void> compress_rank(const LocalModelLayout& layout, const LayoutJsonFragments& fragments,
                           RankScratch& scratch, FrameEntry& entry, std::string& frame) {
  layout_to_json(layout, &fragments, scratch.text);
  const std::string& text = scratch.text;
  if (text.size() > kPlanFileMaxRankBytes) {
    return failf(Status::InvalidArgument,
                 "rank {}'s layout of {} bytes is larger than the {} bytes a plan file holds "
                 "per rank",
                 layout.rank, text.size(), kPlanFileMaxRankBytes);
  }
  EREDU_TRY(compressed, scratch.compressor.compress(text));
  entry.compressed = compressed.size();
  entry.uncompressed = text.size();
  entry.checksum = frame_checksum(compressed);
  frame.assign(compressed);
  return outcome::success();
}

}  // namespace

Result<void> write_plan_file(const std::shared_ptr<const ModelDescription>& model,
                             const ParallelTopology& topology, ShardingPolicy policy,
                             WorldOptions options, const std::string& path) {
  // Each rank's slot is written by the one worker that planned it.
  std::vector<std::string> compressed(std::min(topology.world_size(), kMaxPlanFileRanks));
  std::vector<FrameEntry> frames(compressed.size());
  const LayoutJsonFragments fragments(*model);
  ScratchPool pool;
  options.visit = [&](const LocalModelLayout& layout) -> Result<void> {
    std::unique_ptr<RankScratch> scratch = pool.take();
    Result<void> done =
        compress_rank(layout, fragments, *scratch, frames[layout.rank], compressed[layout.rank]);
    pool.give_back(std::move(scratch));
    return done;
  };
  EREDU_TRY(world, plan_world(model, topology, policy, options));
  PlanFileHeader header;
  header.topology = topology;
  header.policy = policy;
  header.coverage_ok = world.coverage_ok();
  header.library_version = EREDU_VERSION_STRING;
  header.fingerprint = plan_fingerprint(*model, topology, policy, header.library_version);
  std::uint64_t offset = index_end(header) + 8;
  for (FrameEntry& frame : frames) {
    frame.offset = offset;
    offset += frame.compressed;
  }
  EREDU_TRY(file, TemporaryFile::create(path));
  EREDU_TRY(file->write(encode_header(header, frames)));
  for (const std::string& frame : compressed) {
    EREDU_TRY(file->write(frame));
  }
  return file->commit();
}

}  // namespace eredu
