// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Plan-file frames whose checksums are right but whose contents are not
// what the index says: caught when the rank is read, never a crash.
#include <doctest/doctest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "planfile/frame.hpp"
#include "planfile/header.hpp"
#include "planfile/plan_file.hpp"

namespace eredu {
namespace {

const std::string kText(5000, 'x');

// A one-rank file holding `frame`, its index entry recording `size` bytes,
// with correct checksums throughout.
std::string one_rank_file(const std::string& frame, std::uint64_t size) {
  PlanFileHeader header;
  header.library_version = "0.1.0";
  FrameEntry entry{0, frame.size(), size, frame_checksum(frame)};
  entry.offset = index_end(header) + 8;
  return encode_header(header, {entry}) + frame;
}

// Writes `bytes` to a temporary file, opens it and reads rank 0.
Result<std::string> read_rank(const std::string& bytes) {
  const std::string path = "/tmp/eredu-test-frames-" + std::to_string(::getpid()) + ".eredu";
  std::ofstream(path, std::ios::binary) << bytes;
  auto file = PlanFile::open(path);
  std::remove(path.c_str());
  if (!file) return fail(file.error().code, file.error().message);
  return file.value().rank_json(0);
}

TEST_CASE("a frame decompresses to exactly the recorded text") {
  FrameCompressor compressor;
  const std::string frame(compressor.compress(kText).value());
  const auto text = read_rank(one_rank_file(frame, kText.size()));
  REQUIRE(text.has_value());
  CHECK(text.value() == kText);
}

TEST_CASE("a compressor reused for other texts writes the frames a new one writes") {
  const std::string longer = std::string(kText) + std::string(kText) + "tail";
  FrameCompressor reused;
  for (const std::string_view text : {std::string_view(kText), std::string_view(longer),
                                      std::string_view("short"), std::string_view(kText)}) {
    const std::string frame(reused.compress(text).value());
    FrameCompressor fresh;
    CHECK(frame == fresh.compress(text).value());
    CHECK(decompress_frame(frame, text.size(), "here").value() == text);
  }
}

TEST_CASE("a recorded size other than the frame's is corrupt data") {
  FrameCompressor compressor;
  const std::string frame(compressor.compress(kText).value());
  const std::uint64_t offset = kPlanFileFixedBytes + 5 + kPlanFileIndexEntryBytes + 8;
  const auto text = read_rank(one_rank_file(frame, kText.size() + 1));
  REQUIRE_FALSE(text.has_value());
  CHECK(text.error().code == Status::CorruptData);
  CHECK(text.error().message.ends_with(
      fmt::format("rank 0's frame at bytes [{}, {}): the zstd frame holds 5000 bytes, the "
                  "index says 5001",
                  offset, offset + frame.size())));
}

TEST_CASE("bytes that are not a zstd frame are corrupt data") {
  const auto text = read_rank(one_rank_file("not zstd", 8));
  REQUIRE_FALSE(text.has_value());
  CHECK(text.error().code == Status::CorruptData);
  CHECK(text.error().message.ends_with("not a zstd frame with its content size"));
}

TEST_CASE("decompress_frame refuses a frame cut short or followed by more bytes") {
  FrameCompressor compressor;
  const std::string frame(compressor.compress(kText).value());
  const auto cut = decompress_frame(frame.substr(0, frame.size() - 1), kText.size(), "here");
  REQUIRE_FALSE(cut.has_value());
  CHECK(cut.error().code == Status::CorruptData);
  CHECK(cut.error().message.starts_with("here: "));
  const auto longer = decompress_frame(frame + frame, kText.size(), "here");
  REQUIRE_FALSE(longer.has_value());
  CHECK(longer.error().code == Status::CorruptData);
  CHECK(longer.error().message == "here: decompresses to 5000 bytes and leaves " +
                                      std::to_string(frame.size()) + " of " +
                                      std::to_string(2 * frame.size()) + " unread");
}

}  // namespace
}  // namespace eredu
