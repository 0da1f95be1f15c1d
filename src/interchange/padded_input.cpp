// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "interchange/padded_input.hpp"

#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <new>

#ifdef __linux__
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace eredu {

bool PaddedInput::allocate(std::size_t size) {
  reset();
  if (size > SIZE_MAX - simdjson::SIMDJSON_PADDING) return false;
  const std::size_t capacity = size + simdjson::SIMDJSON_PADDING;
#ifdef __linux__
  void* pages = mmap(nullptr, capacity, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (pages == MAP_FAILED) return false;
  // The document is about to be written whole: huge pages where the kernel
  // has them, mapped in one call, cost a fraction of faulting 4 KiB pages in
  // one by one. Either advice may be refused; the pages then fault in.
  madvise(pages, capacity, MADV_HUGEPAGE);
#ifdef MADV_POPULATE_WRITE
  madvise(pages, capacity, MADV_POPULATE_WRITE);
#endif
  data_ = static_cast<char*>(pages);
#else
  data_ = new (std::nothrow) char[capacity];
  if (data_ == nullptr) return false;
  std::memset(data_ + size, 0, simdjson::SIMDJSON_PADDING);
#endif
  size_ = size;
  unreleased_ = data_;
  return true;
}

void PaddedInput::reset() {
  if (data_ == nullptr) return;
#ifdef __linux__
  munmap(data_, size_ + simdjson::SIMDJSON_PADDING);
#else
  delete[] data_;
#endif
  data_ = nullptr;
  size_ = 0;
  unreleased_ = nullptr;
}

void PaddedInput::release_before(const char* location) {
#ifdef __linux__
  constexpr std::uintptr_t kStep = std::uintptr_t{1} << 20;  // bytes per madvise call
  static const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  const auto at = reinterpret_cast<std::uintptr_t>(location);
  const auto unreleased = reinterpret_cast<std::uintptr_t>(unreleased_);
  if (at < unreleased || at > reinterpret_cast<std::uintptr_t>(data_ + size_)) return;
  // Whole pages only, one page behind the reader's position.
  const std::uintptr_t begin = (unreleased + page - 1) / page * page;
  const std::uintptr_t end = at / page * page;
  if (end < begin + page + kStep) return;
  if (madvise(reinterpret_cast<void*>(begin), end - page - begin, MADV_DONTNEED) == 0) {
    unreleased_ = data_ + (end - page - reinterpret_cast<std::uintptr_t>(data_));
  }
#else
  (void)location;
#endif
}

simdjson::error_code read_file(const std::string& path, PaddedInput& input) {
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) return simdjson::IO_ERROR;
  if (std::fseek(file, 0, SEEK_END) < 0) {
    std::fclose(file);
    return simdjson::IO_ERROR;
  }
  const long length = std::ftell(file);
  if (length < 0 || length == LONG_MAX) {
    std::fclose(file);
    return simdjson::IO_ERROR;
  }
  if (!input.allocate(static_cast<std::size_t>(length))) {
    std::fclose(file);
    return simdjson::MEMALLOC;
  }
  std::rewind(file);
  const std::size_t read = std::fread(input.data(), 1, input.size(), file);
  if (std::fclose(file) != 0 || read != input.size()) return simdjson::IO_ERROR;
  return simdjson::SUCCESS;
}

}  // namespace eredu
