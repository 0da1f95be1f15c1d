// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "readplan/read_rank.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <system_error>
#include <thread>
#include <utility>

#include "core/checked.hpp"
#include "readplan/mapped_rows.hpp"

namespace eredu {
namespace {

constexpr std::uint64_t kDirectAlign = 4096;
constexpr std::uint64_t kMaxRequestBytes = std::uint64_t{1} << 30;
// Items smaller than this are not worth a readahead hint.
constexpr std::uint64_t kAdviseMinBytes = std::uint64_t{64} << 10;
// Rows of one span read with one preadv: a row and a gap each take an
// iovec, and Linux takes at most 1024 (IOV_MAX).
constexpr std::uint64_t kSpanRows = 512;

std::uint64_t align_down(std::uint64_t value) { return value / kDirectAlign * kDirectAlign; }
std::uint64_t align_up(std::uint64_t value) { return align_down(value + kDirectAlign - 1); }

// One file of the plan, opened for the whole call.
struct RankFile {
  std::string path;
  int fd = -1;
  int direct_fd = -1;  // O_DIRECT descriptor, -1 when not asked for or refused
  std::uint64_t size = 0;
  std::atomic<bool> direct_ok{false};

  RankFile() = default;
  RankFile(const RankFile&) = delete;
  RankFile& operator=(const RankFile&) = delete;
  ~RankFile() {
    if (fd >= 0) ::close(fd);
    if (direct_fd >= 0) ::close(direct_fd);
  }
};

Result<std::unique_ptr<RankFile>> open_rank_file(std::string path, bool direct) {
  auto file = std::make_unique<RankFile>();
  file->path = std::move(path);
  file->fd = ::open(file->path.c_str(), O_RDONLY | O_CLOEXEC);
  if (file->fd < 0) {
    return failf(Status::Io, "cannot read {}: {}", file->path, std::strerror(errno));
  }
  struct stat status {};
  if (::fstat(file->fd, &status) != 0) {
    return failf(Status::Io, "cannot read {}: {}", file->path, std::strerror(errno));
  }
  file->size = static_cast<std::uint64_t>(status.st_size);
  if (direct) {
    // A file system without O_DIRECT (tmpfs, some FUSE mounts) refuses the
    // open with EINVAL: the file is then read buffered.
    file->direct_fd = ::open(file->path.c_str(), O_RDONLY | O_CLOEXEC | O_DIRECT);
    file->direct_ok.store(file->direct_fd >= 0, std::memory_order_relaxed);
  }
  return file;
}

// How an item reads.
enum class ItemKind : std::uint8_t {
  Contiguous,  // `length` bytes at `offset` into `dest`
  Span,        // `rows` rows of `length` bytes `stride` apart, read as one span
  Rows,        // rows copied from a mapping of their span, or one request each
};

// One unit of work a thread takes: at most about request_bytes.
struct ReadItem {
  std::uint64_t offset = 0;
  std::uint64_t length = 0;
  std::uint64_t rows = 1;
  std::uint64_t stride = 0;
  std::uint64_t dest_stride = 0;
  char* dest = nullptr;
  std::uint32_t file = 0;
  ItemKind kind = ItemKind::Contiguous;

  std::uint64_t kept() const { return length * rows; }
  std::uint64_t span() const { return (rows - 1) * stride + length; }
};

void add_contiguous(std::vector<ReadItem>& items, std::uint32_t file, std::uint64_t offset,
                    std::uint64_t length, char* dest, std::uint64_t request) {
  for (std::uint64_t done = 0; done < length; done += request) {
    const std::uint64_t piece = std::min(request, length - done);
    items.push_back(
        {offset + done, piece, 1, piece, piece, dest + done, file, ItemKind::Contiguous});
  }
}

// The items of one extent, whose destination starts at `dest`.
void add_extent(std::vector<ReadItem>& items, const ReadExtent& extent, char* dest,
                const ReadRankOptions& options) {
  const std::uint64_t request = options.request_bytes;
  if (extent.length == 0 || extent.count == 0) return;
  if (extent.count == 1 ||
      (extent.stride == extent.length && extent.dest_stride == extent.length)) {
    add_contiguous(items, extent.file, extent.offset, extent.length * extent.count, dest, request);
    return;
  }
  if (extent.length >= request) {  // long rows: each split like a contiguous extent
    for (std::uint64_t row = 0; row < extent.count; ++row) {
      add_contiguous(items, extent.file, extent.offset + row * extent.stride, extent.length,
                     dest + row * extent.dest_stride, request);
    }
    return;
  }
  const bool coalesce =
      extent.stride >= extent.length && extent.stride - extent.length <= options.max_gap_bytes;
  // k rows span (k - 1) * stride + length <= request bytes; a span item
  // also takes at most kSpanRows rows.
  const std::uint64_t spanned = (request - extent.length) / extent.stride + 1;
  const std::uint64_t per_item = coalesce ? std::min(kSpanRows, spanned) : spanned;
  const ItemKind kind = coalesce && per_item > 1 ? ItemKind::Span : ItemKind::Rows;
  for (std::uint64_t row = 0; row < extent.count; row += per_item) {
    const std::uint64_t rows = std::min(per_item, extent.count - row);
    items.push_back({extent.offset + row * extent.stride, extent.length, rows, extent.stride,
                     extent.dest_stride, dest + row * extent.dest_stride, extent.file, kind});
  }
}

// Memory aligned for O_DIRECT, freed with std::free.
struct FreeAligned {
  void operator()(char* memory) const { std::free(memory); }
};
using AlignedBuffer = std::unique_ptr<char, FreeAligned>;

// The state the threads share.
class RankReader {
 public:
  RankReader(std::vector<std::unique_ptr<RankFile>> files, std::vector<ReadItem> items,
             const ReadRankOptions& options, unsigned threads)
      : files_(std::move(files)), items_(std::move(items)), options_(options), threads_(threads) {
    // Bounce buffers hold a span of at most request bytes, or for O_DIRECT
    // its aligned cover.
    bounce_bytes_ = align_up(options.request_bytes) + 2 * kDirectAlign;
    for (const ReadItem& item : items_) total_ += item.kept();
  }

  // The threads that read, the calling one included: fewer than planned
  // when one could not be started.
  void set_started_threads(unsigned threads) { started_threads_ = threads; }

  // Takes items until none is left or the call stops; `report` is set on
  // the calling thread, which reports progress between items.
  void work(bool report) {
    AlignedBuffer bounce;
    std::uint64_t read = 0;
    std::uint64_t requests = 0;
    try {
      while (!stop_.load(std::memory_order_relaxed)) {
        const std::size_t index = next_.fetch_add(1, std::memory_order_relaxed);
        if (index >= items_.size()) break;
        advise_ahead(index);
        const ReadItem& item = items_[index];
        if (auto done = read_item(item, bounce, read, requests); !done) {
          record(std::move(done).error());
          break;
        }
        kept_.fetch_add(item.kept(), std::memory_order_relaxed);
        if (report && !report_progress()) break;
      }
    } catch (const std::bad_alloc&) {
      record(Error{Status::OutOfMemory, "out of memory while reading the plan's files"});
    }
    bytes_read_.fetch_add(read, std::memory_order_relaxed);
    requests_.fetch_add(requests, std::memory_order_relaxed);
  }

  // Called by each helper thread when it is done.
  void finished() {
    {
      const std::lock_guard lock(mutex_);
      --running_;
    }
    done_.notify_all();
  }

  void started() {
    const std::lock_guard lock(mutex_);
    ++running_;
  }

  // On the calling thread, after its own work: waits for the helpers,
  // reporting progress meanwhile.
  void wait_for_helpers() {
    std::unique_lock lock(mutex_);
    while (running_ > 0) {
      done_.wait_for(lock, std::chrono::milliseconds(50));
      if (options_.progress && !stop_.load(std::memory_order_relaxed)) {
        lock.unlock();
        report_progress();
        lock.lock();
      }
    }
  }

  Result<ReadRankStats> finish(std::uint64_t tensors) {
    if (failure_) return outcome::failure(std::move(*failure_));
    const std::uint64_t total = total_;
    if (options_.progress && reported_ != total && !options_.progress(total, total)) {
      return fail(Status::Cancelled, "reading the plan was cancelled by its progress callback");
    }
    ReadRankStats stats;
    stats.bytes_read = bytes_read_.load();
    stats.bytes_kept = kept_.load();
    stats.tensors = tensors;
    stats.requests = requests_.load();
    stats.threads = started_threads_;
    stats.direct = options_.direct && !items_.empty() &&
                   std::all_of(files_.begin(), files_.end(), [](const auto& file) {
                     return file->direct_ok.load(std::memory_order_relaxed);
                   });
    return stats;
  }

 private:
  void record(Error error) {
    const std::lock_guard lock(mutex_);
    if (!failure_) failure_ = std::move(error);
    stop_.store(true, std::memory_order_relaxed);
  }

  // False when the callback cancels.
  bool report_progress() {
    const std::uint64_t done = kept_.load(std::memory_order_relaxed);
    if (done == reported_) return true;
    reported_ = done;
    if (options_.progress(done, total_)) return true;
    record(Error{Status::Cancelled, "reading the plan was cancelled by its progress callback"});
    return false;
  }

  // Asks the kernel to start reading an item a little ahead of the threads.
  void advise_ahead(std::size_t index) {
    const std::size_t ahead = index + 2 * static_cast<std::size_t>(threads_);
    if (ahead >= items_.size()) return;
    const ReadItem& item = items_[ahead];
    const RankFile& file = *files_[item.file];
    if (item.kept() < kAdviseMinBytes || file.direct_ok.load(std::memory_order_relaxed)) return;
    ::posix_fadvise(file.fd, static_cast<off_t>(item.offset), static_cast<off_t>(item.span()),
                    POSIX_FADV_WILLNEED);
  }

  static auto ends_early(const RankFile& file, std::uint64_t at) {
    return failf(Status::Io,
                 "{} ends at byte {}, before the plan's extent ends: it changed since "
                 "the plan was made",
                 file.path, at);
  }

  // Reads [offset, offset + length) of `file` into `dest` through the page cache.
  Result<void> read_buffered(const RankFile& file, std::uint64_t offset, std::uint64_t length,
                             char* dest, std::uint64_t& read, std::uint64_t& requests) {
    std::uint64_t done = 0;
    while (done < length) {
      const ssize_t got =
          ::pread(file.fd, dest + done, length - done, static_cast<off_t>(offset + done));
      ++requests;
      if (got < 0 && errno == EINTR) continue;
      if (got < 0) return failf(Status::Io, "cannot read {}: {}", file.path, std::strerror(errno));
      if (got == 0) return ends_early(file, offset + done);
      done += static_cast<std::uint64_t>(got);
      read += static_cast<std::uint64_t>(got);
    }
    return outcome::success();
  }

  // [offset, offset + length) of `file`, at most bounce_bytes_ - 2 pages,
  // in the bounce buffer: read with O_DIRECT over its aligned cover when
  // the file allows it, else buffered. Returns where the bytes start.
  Result<const char*> fetch(RankFile& file, std::uint64_t offset, std::uint64_t length,
                            AlignedBuffer& bounce, std::uint64_t& read, std::uint64_t& requests) {
    ensure_bounce(bounce);
    if (file.direct_ok.load(std::memory_order_relaxed)) {
      const std::uint64_t start = align_down(offset);
      const std::uint64_t end = align_up(offset + length);
      std::uint64_t done = 0;
      while (start + done < offset + length) {
        const ssize_t got = ::pread(file.direct_fd, bounce.get() + done, end - start - done,
                                    static_cast<off_t>(start + done));
        ++requests;
        if (got < 0 && errno == EINTR) continue;
        if (got < 0 && errno == EINVAL && done == 0) {
          // The file system opened the file with O_DIRECT but refuses its
          // reads: read it buffered from now on.
          file.direct_ok.store(false, std::memory_order_relaxed);
          break;
        }
        if (got < 0) {
          return failf(Status::Io, "cannot read {}: {}", file.path, std::strerror(errno));
        }
        if (got == 0) return ends_early(file, start + done);
        done += static_cast<std::uint64_t>(got);
        read += static_cast<std::uint64_t>(got);
      }
      if (file.direct_ok.load(std::memory_order_relaxed)) return bounce.get() + (offset - start);
    }
    EREDU_TRY(read_buffered(file, offset, length, bounce.get(), read, requests));
    return bounce.get();
  }

  // A span of rows through the page cache with one preadv: each row
  // straight into its place in the buffer, each gap into the bounce
  // buffer (read and dropped), so no row is copied twice.
  Result<void> read_scattered(const RankFile& file, const ReadItem& item, AlignedBuffer& bounce,
                              std::uint64_t& read, std::uint64_t& requests) {
    ensure_bounce(bounce);
    std::array<iovec, 2 * kSpanRows> vectors{};
    std::size_t used = 0;
    const std::uint64_t gap = item.stride - item.length;
    for (std::uint64_t row = 0; row < item.rows; ++row) {
      vectors[used++] = {item.dest + row * item.dest_stride, item.length};
      if (row + 1 < item.rows && gap > 0) vectors[used++] = {bounce.get(), gap};
    }
    std::uint64_t offset = item.offset;
    std::size_t first = 0;
    while (first < used) {
      const ssize_t got = ::preadv(file.fd, vectors.data() + first, static_cast<int>(used - first),
                                   static_cast<off_t>(offset));
      ++requests;
      if (got < 0 && errno == EINTR) continue;
      if (got < 0) return failf(Status::Io, "cannot read {}: {}", file.path, std::strerror(errno));
      if (got == 0) return ends_early(file, offset);
      read += static_cast<std::uint64_t>(got);
      offset += static_cast<std::uint64_t>(got);
      // Past the iovecs the read filled, into the one it stopped in.
      auto left = static_cast<std::uint64_t>(got);
      while (first < used && left >= vectors[first].iov_len) left -= vectors[first++].iov_len;
      if (first < used) {
        vectors[first].iov_base = static_cast<char*>(vectors[first].iov_base) + left;
        vectors[first].iov_len -= left;
      }
    }
    return outcome::success();
  }

  void ensure_bounce(AlignedBuffer& bounce) const {
    if (bounce) return;
    void* memory = nullptr;
    if (::posix_memalign(&memory, kDirectAlign, bounce_bytes_) != 0) throw std::bad_alloc();
    bounce.reset(static_cast<char*>(memory));
  }

  Result<void> read_item(const ReadItem& item, AlignedBuffer& bounce, std::uint64_t& read,
                         std::uint64_t& requests) {
    RankFile& file = *files_[item.file];
    const bool direct = file.direct_ok.load(std::memory_order_relaxed);
    switch (item.kind) {
      case ItemKind::Contiguous:
        if (!direct)
          return read_buffered(file, item.offset, item.length, item.dest, read, requests);
        {
          EREDU_TRY(bytes, fetch(file, item.offset, item.length, bounce, read, requests));
          std::memcpy(item.dest, bytes, item.length);
        }
        return outcome::success();
      case ItemKind::Span: {
        if (!direct) return read_scattered(file, item, bounce, read, requests);
        EREDU_TRY(bytes, fetch(file, item.offset, item.span(), bounce, read, requests));
        for (std::uint64_t row = 0; row < item.rows; ++row) {
          std::memcpy(item.dest + row * item.dest_stride, bytes + row * item.stride, item.length);
        }
        return outcome::success();
      }
      case ItemKind::Rows:
        if (!direct && item.rows > 1) {
          // Only the rows' bytes are copied: nothing the rank does not keep.
          EREDU_TRY(copy_mapped_rows(
              file.fd, file.path,
              {item.offset, item.length, item.rows, item.stride, item.dest, item.dest_stride}));
          read += item.kept();
          ++requests;
          return outcome::success();
        }
        for (std::uint64_t row = 0; row < item.rows; ++row) {
          char* dest = item.dest + row * item.dest_stride;
          const std::uint64_t offset = item.offset + row * item.stride;
          if (!file.direct_ok.load(std::memory_order_relaxed)) {
            EREDU_TRY(read_buffered(file, offset, item.length, dest, read, requests));
            continue;
          }
          EREDU_TRY(bytes, fetch(file, offset, item.length, bounce, read, requests));
          std::memcpy(dest, bytes, item.length);
        }
        return outcome::success();
    }
    return fail(Status::Internal, "unknown read item kind");
  }

  std::vector<std::unique_ptr<RankFile>> files_;
  std::vector<ReadItem> items_;
  const ReadRankOptions& options_;
  unsigned threads_ = 1;          // planned: sets the readahead distance
  unsigned started_threads_ = 1;  // written and read by the calling thread only
  std::uint64_t bounce_bytes_ = 0;
  std::uint64_t total_ = 0;

  std::atomic<std::size_t> next_{0};
  std::atomic<bool> stop_{false};
  std::atomic<std::uint64_t> kept_{0};
  std::atomic<std::uint64_t> bytes_read_{0};
  std::atomic<std::uint64_t> requests_{0};
  std::uint64_t reported_ = 0;  // the calling thread's last report

  std::mutex mutex_;
  std::condition_variable done_;
  unsigned running_ = 0;
  std::optional<Error> failure_;
};

Result<void> check_rank_buffers(const ReadPlan& plan, std::span<const std::span<char>> buffers,
                                const ReadRankOptions& options) {
  if (buffers.size() != plan.tensors.size()) {
    return failf(Status::InvalidArgument, "got {} buffers for the plan's {} tensors",
                 buffers.size(), plan.tensors.size());
  }
  for (std::size_t i = 0; i < buffers.size(); ++i) {
    const TensorReadPlan& tensor = plan.tensors[i];
    if (buffers[i].size() < tensor.local_bytes) {
      return failf(Status::InvalidArgument, "tensor {} needs a buffer of {} bytes, got {}",
                   tensor.target, tensor.local_bytes, buffers[i].size());
    }
  }
  if (options.request_bytes < kDirectAlign || options.request_bytes > kMaxRequestBytes) {
    return failf(Status::InvalidArgument,
                 "request size {} is out of range: it must be from {} to {} bytes",
                 options.request_bytes, kDirectAlign, kMaxRequestBytes);
  }
  return outcome::success();
}

}  // namespace

Result<ReadRankStats> read_rank(const ReadPlan& plan, std::span<const std::span<char>> buffers,
                                const ReadRankOptions& options) {
  EREDU_TRY(check_rank_buffers(plan, buffers, options));
  std::vector<std::unique_ptr<RankFile>> files;
  for (const std::string& name : plan.files) {
    EREDU_TRY(file,
              open_rank_file(plan.root.empty() ? name : plan.root + "/" + name, options.direct));
    files.push_back(std::move(file));
  }
  std::vector<ReadItem> items;
  for (std::size_t t = 0; t < plan.tensors.size(); ++t) {
    for (const ReadExtent& extent : plan.tensors[t].extents) {
      if (extent.file >= files.size()) {
        return failf(Status::Internal, "extent file {} is not in the plan", extent.file);
      }
      if (extent.count == 0) continue;
      const RankFile& file = *files[extent.file];
      const auto end =
          checked_add(extent.offset, (extent.count - 1) * extent.stride + extent.length);
      if (!end || *end > file.size) {
        return failf(Status::Io,
                     "{} holds {} bytes, the plan reads up to byte {}: it changed since the plan "
                     "was made",
                     file.path, file.size, end.value_or(UINT64_MAX));
      }
      add_extent(items, extent, buffers[t].data() + extent.dest, options);
    }
  }
  // In file order, so that neighbouring requests read neighbouring bytes.
  std::sort(items.begin(), items.end(), [](const ReadItem& a, const ReadItem& b) {
    return a.file != b.file ? a.file < b.file : a.offset < b.offset;
  });

  const unsigned hardware = std::max(1u, std::thread::hardware_concurrency());
  const unsigned wanted = options.threads != 0 ? options.threads : hardware;
  const auto threads =
      static_cast<unsigned>(std::max<std::size_t>(1, std::min<std::size_t>(wanted, items.size())));
  RankReader reader(std::move(files), std::move(items), options, threads);
  {
    std::vector<std::jthread> pool;
    for (unsigned w = 1; w < threads; ++w) {
      // Without another thread the ones already running take every item.
      try {
        reader.started();
        pool.emplace_back([&reader] {
          reader.work(false);
          reader.finished();
        });
      } catch (const std::system_error&) {
        reader.finished();
        break;
      }
    }
    reader.set_started_threads(static_cast<unsigned>(pool.size() + 1));
    reader.work(static_cast<bool>(options.progress));
    reader.wait_for_helpers();
  }  // joins the pool
  return reader.finish(plan.tensors.size());
}

RankBuffers::RankBuffers(RankBuffers&& other) noexcept
    : base_(std::exchange(other.base_, nullptr)),
      size_(std::exchange(other.size_, 0)),
      spans_(std::move(other.spans_)) {}

RankBuffers& RankBuffers::operator=(RankBuffers&& other) noexcept {
  if (this != &other) {
    if (base_ != nullptr) ::munmap(base_, size_);
    base_ = std::exchange(other.base_, nullptr);
    size_ = std::exchange(other.size_, 0);
    spans_ = std::move(other.spans_);
  }
  return *this;
}

RankBuffers::~RankBuffers() {
  if (base_ != nullptr) ::munmap(base_, size_);
}

Result<RankBuffers> RankBuffers::allocate(const ReadPlan& plan) {
  std::uint64_t total = 0;
  std::vector<std::uint64_t> offsets;
  for (const TensorReadPlan& tensor : plan.tensors) {
    offsets.push_back(total);
    const auto end = checked_add(total, align_up(tensor.local_bytes));
    if (!end || tensor.local_bytes > UINT64_MAX - kDirectAlign) {
      return fail(Status::OutOfMemory, "the plan's tensors do not fit in memory");
    }
    total = *end;
  }
  RankBuffers buffers;
  if (total > 0) {
    void* mapped =
        ::mmap(nullptr, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mapped == MAP_FAILED) {
      return failf(Status::OutOfMemory, "cannot allocate {} bytes for the plan's tensors: {}",
                   total, std::strerror(errno));
    }
    buffers.base_ = mapped;
    buffers.size_ = total;
  }
  alignas(kDirectAlign) static char empty_tensor[1];
  for (std::size_t i = 0; i < plan.tensors.size(); ++i) {
    char* start =
        buffers.base_ != nullptr ? static_cast<char*>(buffers.base_) + offsets[i] : empty_tensor;
    buffers.spans_.emplace_back(start, plan.tensors[i].local_bytes);
  }
  return buffers;
}

}  // namespace eredu
