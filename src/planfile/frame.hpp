// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// One rank's zstd frame: compressing a layout's text and checking a frame
// read back from a file.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/result.hpp"

namespace eredu {

/// The zstd compression level of plan files.
inline constexpr int kPlanFileLevel = 3;

/// `text` as one zstd frame (with its content size). Errors: OutOfMemory;
/// Internal when zstd reports an error.
Result<std::string> compress_frame(std::string_view text);

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
