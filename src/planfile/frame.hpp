// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// One rank's zstd frame: compressing a layout's text and checking a frame
// read back from a file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "core/result.hpp"

struct ZSTD_CCtx_s;

namespace eredu {

/// The zstd compression level of plan files.
inline constexpr int kPlanFileLevel = 3;

/// Compresses texts into zstd frames, keeping its zstd context and output
/// memory from one call to the next (a rank's layout is tens of megabytes:
/// fresh memory per rank costs more in page faults than compressing it).
/// Not thread-safe: one per thread.
class FrameCompressor {
 public:
  /// `text` as one zstd frame (with its content size) at kPlanFileLevel,
  /// valid until the next call or the compressor's end. Errors: OutOfMemory;
  /// Internal when zstd reports an error.
  Result<std::string_view> compress(std::string_view text);

 private:
  struct FreeContext {
    void operator()(ZSTD_CCtx_s* context) const;
  };
  std::unique_ptr<ZSTD_CCtx_s, FreeContext> context_;
  std::unique_ptr<char[]> out_;  // uninitialized: zstd writes what it returns
  std::size_t capacity_ = 0;
};

/// XXH3-64 of `bytes`, the checksum of a frame.
std::uint64_t frame_checksum(std::string_view bytes);

/// The text of `frame`, which must be exactly one zstd frame that
/// decompresses to `size` bytes. Memory grows with the bytes actually
/// produced, never beyond `size`. Errors: CorruptData "<where>: ..." when
/// the frame is malformed, records another content size or decompresses to
/// more or fewer bytes.
Result<std::string> decompress_frame(std::string_view frame, std::uint64_t size,
                                     std::string_view where);

}  // namespace eredu
