// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "readplan/read_tensor.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <map>
#include <utility>

#include "readplan/mapped_rows.hpp"

namespace eredu {
namespace {

// The files one call opens, closed when it returns.
class OpenFiles {
 public:
  explicit OpenFiles(const ReadPlan& plan) : plan_(plan) {}
  OpenFiles(const OpenFiles&) = delete;
  OpenFiles& operator=(const OpenFiles&) = delete;
  ~OpenFiles() {
    for (const auto& entry : open_) ::close(entry.second.fd);
  }

  struct File {
    int fd = -1;
    std::uint64_t size = 0;
    std::string path;
  };

  Result<const File*> get(std::uint32_t index) {
    if (auto found = open_.find(index); found != open_.end()) return &found->second;
    if (index >= plan_.files.size()) {
      return failf(Status::Internal, "extent file {} is not in the plan", index);
    }
    File file;
    file.path = plan_.root.empty() ? plan_.files[index] : plan_.root + "/" + plan_.files[index];
    file.fd = ::open(file.path.c_str(), O_RDONLY | O_CLOEXEC);
    if (file.fd < 0)
      return failf(Status::Io, "cannot read {}: {}", file.path, std::strerror(errno));
    struct stat status {};
    if (::fstat(file.fd, &status) != 0) {
      const int code = errno;
      ::close(file.fd);
      return failf(Status::Io, "cannot read {}: {}", file.path, std::strerror(code));
    }
    file.size = static_cast<std::uint64_t>(status.st_size);
    return &open_.emplace(index, std::move(file)).first->second;
  }

 private:
  const ReadPlan& plan_;
  std::map<std::uint32_t, File> open_;
};

Result<void> read_single(const OpenFiles::File& file, const ReadExtent& extent, char* dest) {
  std::uint64_t done = 0;
  while (done < extent.length) {
    const ssize_t got = ::pread(file.fd, dest + done, extent.length - done,
                                static_cast<off_t>(extent.offset + done));
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return failf(Status::Io, "cannot read {}: {}", file.path, std::strerror(errno));
    if (got == 0) {
      return failf(Status::Io, "{} ends at byte {}, before the plan's extent ends", file.path,
                   extent.offset + done);
    }
    done += static_cast<std::uint64_t>(got);
  }
  return outcome::success();
}

Result<void> read_strided(const OpenFiles::File& file, const ReadExtent& extent, char* dest) {
  const std::uint64_t end = extent.offset + (extent.count - 1) * extent.stride + extent.length;
  if (end > file.size) {
    return failf(Status::Io, "{} holds {} bytes, the plan reads up to byte {}", file.path,
                 file.size, end);
  }
  return copy_mapped_rows(
      file.fd, file.path,
      {extent.offset, extent.length, extent.count, extent.stride, dest, extent.dest_stride});
}

}  // namespace

Result<void> read_tensor(const ReadPlan& plan, std::size_t index, std::span<char> buffer) {
  if (index >= plan.tensors.size()) {
    return failf(Status::InvalidArgument, "tensor index {} is out of range (count {})", index,
                 plan.tensors.size());
  }
  const TensorReadPlan& tensor = plan.tensors[index];
  if (buffer.size() < tensor.local_bytes) {
    return failf(Status::InvalidArgument, "tensor {} needs a buffer of {} bytes, got {}",
                 tensor.target, tensor.local_bytes, buffer.size());
  }
  OpenFiles files(plan);
  for (const ReadExtent& extent : tensor.extents) {
    EREDU_TRY(file, files.get(extent.file));
    char* dest = buffer.data() + extent.dest;
    if (extent.count == 1) {
      EREDU_TRY(read_single(*file, extent, dest));
    } else {
      EREDU_TRY(read_strided(*file, extent, dest));
    }
  }
  return outcome::success();
}

}  // namespace eredu
