// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "readplan/mapped_rows.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace eredu {

Result<void> copy_mapped_rows(int fd, std::string_view path, const StridedRows& rows) {
  if (rows.rows == 0) return outcome::success();
  const std::uint64_t end = rows.offset + (rows.rows - 1) * rows.stride + rows.length;
  const auto page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
  const std::uint64_t start = rows.offset / page * page;
  void* mapped = ::mmap(nullptr, end - start, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd,
                        static_cast<off_t>(start));
  if (mapped == MAP_FAILED) {
    return failf(Status::Io, "cannot map {}: {}", path, std::strerror(errno));
  }
  const char* source = static_cast<const char*>(mapped) + (rows.offset - start);
  for (std::uint64_t i = 0; i < rows.rows; ++i) {
    std::memcpy(rows.dest + i * rows.dest_stride, source + i * rows.stride, rows.length);
  }
  ::munmap(mapped, end - start);
  return outcome::success();
}

}  // namespace eredu
