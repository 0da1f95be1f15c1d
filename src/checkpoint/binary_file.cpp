// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "checkpoint/binary_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>

#include "core/checked.hpp"

namespace eredu {

Result<BinaryFile> BinaryFile::open(const std::string& path, std::string shown) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return failf(Status::Io, "cannot read {}: {}", shown, std::strerror(errno));
  struct stat status {};
  if (::fstat(fd, &status) != 0) {
    const int code = errno;
    ::close(fd);
    return failf(Status::Io, "cannot read {}: {}", shown, std::strerror(code));
  }
  if (!S_ISREG(status.st_mode)) {
    ::close(fd);
    return failf(Status::Io, "cannot read {}: {}", shown,
                 S_ISDIR(status.st_mode) ? "it is a directory" : "not a regular file");
  }
  return BinaryFile(fd, static_cast<std::uint64_t>(status.st_size), std::move(shown));
}

BinaryFile::BinaryFile(BinaryFile&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)), size_(other.size_), shown_(std::move(other.shown_)) {}

BinaryFile& BinaryFile::operator=(BinaryFile&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(other.fd_, -1);
    size_ = other.size_;
    shown_ = std::move(other.shown_);
  }
  return *this;
}

BinaryFile::~BinaryFile() {
  if (fd_ >= 0) ::close(fd_);
}

Result<void> BinaryFile::read(std::uint64_t offset, std::span<char> out,
                              std::string_view what) const {
  const auto end = checked_add(offset, out.size());
  if (!end || *end > size_) {
    return failf(Status::Parse, "{}: truncated: {} needs bytes [{}, {}) of a file of {} bytes",
                 shown_, what, offset, end ? fmt::to_string(*end) : std::string("2^64"), size_);
  }
  std::size_t done = 0;
  while (done < out.size()) {
    const ssize_t got =
        ::pread(fd_, out.data() + done, out.size() - done, static_cast<off_t>(offset + done));
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return failf(Status::Io, "cannot read {}: {}", shown_, std::strerror(errno));
    if (got == 0) {
      return failf(Status::Io, "cannot read {}: the file shrank while it was read", shown_);
    }
    done += static_cast<std::size_t>(got);
  }
  return outcome::success();
}

Result<void> BinaryCursor::bytes(std::span<char> out, std::string_view what) {
  constexpr std::uint64_t kWindow = 64 * 1024;
  if (out.size() > remaining()) {
    EREDU_TRY(file_.read(position_, out, what));  // reports the truncation
  }
  std::size_t done = 0;
  while (done < out.size()) {
    const std::uint64_t window_end = window_start_ + window_.size();
    if (position_ < window_start_ || position_ >= window_end) {
      const std::uint64_t length = std::min(kWindow, remaining());
      window_.resize(length);
      EREDU_TRY(file_.read(position_, window_, what));
      window_start_ = position_;
      continue;
    }
    const std::size_t from = position_ - window_start_;
    const std::size_t count = std::min<std::size_t>(window_.size() - from, out.size() - done);
    std::memcpy(out.data() + done, window_.data() + from, count);
    done += count;
    position_ += count;
  }
  return outcome::success();
}

namespace {

template <class T>
Result<T> little_endian(BinaryCursor& cursor, std::string_view what) {
  char raw[sizeof(T)];
  EREDU_TRY(cursor.bytes(raw, what));
  T value = 0;
  for (std::size_t i = sizeof(T); i-- > 0;) {
    value = static_cast<T>((value << 8) | static_cast<unsigned char>(raw[i]));
  }
  return value;
}

}  // namespace

Result<std::uint8_t> BinaryCursor::u8(std::string_view what) {
  return little_endian<std::uint8_t>(*this, what);
}
Result<std::uint16_t> BinaryCursor::u16(std::string_view what) {
  return little_endian<std::uint16_t>(*this, what);
}
Result<std::uint32_t> BinaryCursor::u32(std::string_view what) {
  return little_endian<std::uint32_t>(*this, what);
}
Result<std::uint64_t> BinaryCursor::u64(std::string_view what) {
  return little_endian<std::uint64_t>(*this, what);
}

Result<std::string> BinaryCursor::string(std::string_view what) {
  EREDU_TRY(length, u64(what));
  if (length > remaining()) {
    return failf(Status::Parse,
                 "{}: {} at byte {} declares {} bytes, more than the {} left in the file",
                 file_.shown(), what, position_ - 8, length, remaining());
  }
  std::string text(length, '\0');
  EREDU_TRY(bytes(text, what));
  return text;
}

Result<void> BinaryCursor::skip(std::uint64_t count, std::string_view what) {
  if (count > remaining()) {
    return failf(Status::Parse, "{}: truncated: {} needs {} bytes at byte {}, {} left",
                 file_.shown(), what, count, position_, remaining());
  }
  position_ += count;
  return outcome::success();
}

}  // namespace eredu
