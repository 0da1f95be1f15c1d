// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Rows of a strided extent copied from a read-only mapping of the span they
// cover (docs/checkpoints.md, "Reading through a plan").
#pragma once

#include <cstdint>
#include <string_view>

#include "core/result.hpp"

namespace eredu {

/// Rows of a strided extent: `rows` rows of `length` bytes, the first at
/// byte `offset` of the file, each `stride` bytes after the one before,
/// copied to `dest` with `dest_stride` bytes between rows.
struct StridedRows {
  std::uint64_t offset = 0;
  std::uint64_t length = 0;
  std::uint64_t rows = 0;
  std::uint64_t stride = 0;
  char* dest = nullptr;
  std::uint64_t dest_stride = 0;
};

/// Copies `rows` from open file `fd` (named `path` in errors) through a
/// read-only mapping of their span, populated when mapped so that the rows
/// cost no page fault each; only the rows' bytes are copied. The caller
/// checked that the span lies within the file: a file truncated while
/// mapped faults, as with any mmap-based loader. Errors: Io (the span
/// cannot be mapped).
Result<void> copy_mapped_rows(int fd, std::string_view path, const StridedRows& rows);

}  // namespace eredu
