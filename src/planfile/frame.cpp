// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "planfile/frame.hpp"

#include <xxhash.h>
#include <zstd.h>

#include <algorithm>
#include <memory>
#include <new>

namespace eredu {
namespace {

struct FreeDecompress {
  void operator()(ZSTD_DStream* stream) const { ZSTD_freeDStream(stream); }
};

// The first output buffer: the recorded size, up to 1 MiB; it doubles as the
// frame produces more.
constexpr std::uint64_t kFirstOutput = std::uint64_t{1} << 20;

}  // namespace

void FrameCompressor::FreeContext::operator()(ZSTD_CCtx_s* context) const {
  ZSTD_freeCCtx(context);
}

Result<std::string_view> FrameCompressor::compress(std::string_view text) {
  if (!context_) {
    context_.reset(ZSTD_createCCtx());
    if (!context_) return fail(Status::OutOfMemory, "out of memory");
  }
  const std::size_t bound = ZSTD_compressBound(text.size());
  if (ZSTD_isError(bound)) {
    return failf(Status::Internal, "zstd compression failed: {}", ZSTD_getErrorName(bound));
  }
  if (bound > capacity_) {
    out_.reset(new (std::nothrow) char[bound]);
    capacity_ = out_ ? bound : 0;
    if (!out_) return fail(Status::OutOfMemory, "out of memory");
  }
  const std::size_t written = ZSTD_compressCCtx(context_.get(), out_.get(), capacity_, text.data(),
                                                text.size(), kPlanFileLevel);
  if (ZSTD_isError(written)) {
    return failf(Status::Internal, "zstd compression failed: {}", ZSTD_getErrorName(written));
  }
  return std::string_view(out_.get(), written);
}

std::uint64_t frame_checksum(std::string_view bytes) {
  return XXH3_64bits(bytes.data(), bytes.size());
}

Result<std::string> decompress_frame(std::string_view frame, std::uint64_t size,
                                     std::string_view where) {
  const unsigned long long recorded = ZSTD_getFrameContentSize(frame.data(), frame.size());
  if (recorded == ZSTD_CONTENTSIZE_ERROR || recorded == ZSTD_CONTENTSIZE_UNKNOWN) {
    return failf(Status::CorruptData, "{}: not a zstd frame with its content size", where);
  }
  if (recorded != size) {
    return failf(Status::CorruptData, "{}: the zstd frame holds {} bytes, the index says {}", where,
                 recorded, size);
  }
  const std::unique_ptr<ZSTD_DStream, FreeDecompress> stream(ZSTD_createDStream());
  if (!stream) return fail(Status::OutOfMemory, "out of memory");
  std::string out(std::min(size, kFirstOutput), '\0');
  ZSTD_inBuffer input{frame.data(), frame.size(), 0};
  std::size_t produced = 0;
  // Once `out` holds `size` bytes, a one-byte probe catches any more.
  char probe = 0;
  for (;;) {
    const bool full = produced == out.size();
    if (full && out.size() < size) out.resize(std::min<std::uint64_t>(size, 2 * out.size()));
    ZSTD_outBuffer output = produced < out.size() ? ZSTD_outBuffer{out.data(), out.size(), produced}
                                                  : ZSTD_outBuffer{&probe, 1, 0};
    const std::size_t before = input.pos;
    const std::size_t status = ZSTD_decompressStream(stream.get(), &output, &input);
    if (ZSTD_isError(status)) {
      return failf(Status::CorruptData, "{}: zstd cannot decompress it: {}", where,
                   ZSTD_getErrorName(status));
    }
    if (output.dst == &probe && output.pos != 0) {
      return failf(Status::CorruptData, "{}: decompresses to more than {} bytes", where, size);
    }
    const bool progressed = input.pos != before || (output.dst != &probe && output.pos != produced);
    if (output.dst != &probe) produced = output.pos;
    if (status == 0) break;
    if (!progressed) return failf(Status::CorruptData, "{}: the zstd frame ends early", where);
  }
  if (input.pos != input.size || produced != size) {
    return failf(Status::CorruptData, "{}: decompresses to {} bytes and leaves {} of {} unread",
                 where, produced, input.size - input.pos, input.size);
  }
  return out;
}

}  // namespace eredu
