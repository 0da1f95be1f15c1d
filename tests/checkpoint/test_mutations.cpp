// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Corrupted headers of the real files: every mutation is read to an answer
// (a header or an error) without a crash, a hang or an unbounded
// allocation; the sanitizer build runs this too.
#include <doctest/doctest.h>

#include <cstdint>
#include <fstream>
#include <sstream>

#include "checkpoint/gguf.hpp"
#include "checkpoint/safetensors.hpp"
#include "checkpoint_writer.hpp"
#include "example_files.hpp"
#include "model_folders.hpp"

namespace eredu {
namespace {

std::string file_prefix(const std::string& path, std::size_t length) {
  std::ifstream in(path, std::ios::binary);
  std::string bytes(length, '\0');
  in.read(bytes.data(), static_cast<std::streamsize>(length));
  return bytes;
}

// Deterministic mutations: byte `i` of a few positions set to values that
// matter to a binary header (0, 0xff, a small count, a large one).
template <class Read>
void mutate(const std::string& original, std::size_t mutations, Read read) {
  test::TempFolder folder;
  const std::string path = folder.str() + "/mutated";
  std::uint64_t state = 0x2545F4914F6CDD1Dull;
  constexpr unsigned char kValues[] = {0x00, 0xff, 0x01, 0x7f, 0x80, 0x20, '"', '{', ']'};
  for (std::size_t i = 0; i < mutations; ++i) {
    std::string bytes = original;
    for (int change = 0; change < 3; ++change) {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      const std::size_t position = (state >> 16) % bytes.size();
      bytes[position] = static_cast<char>(kValues[(state >> 40) % sizeof kValues]);
    }
    test::write_file(path, bytes);
    auto file = BinaryFile::open(path, "mutated");
    REQUIRE(file);
    read(file.value());  // any answer; the sanitizers watch how it is reached
  }
}

TEST_CASE("mutated GGUF headers of stories260K are answered") {
  const std::string header = file_prefix(test::example_file(test::kStories), 14176 + 64);
  std::size_t refused = 0;
  mutate(header, 1500, [&](const BinaryFile& file) {
    if (!read_gguf_header(file, 0)) ++refused;
  });
  CHECK(refused == 1500);  // the data section is cut off: every one is refused
}

TEST_CASE("mutated safetensors headers of the LoRA adapter are answered") {
  const std::string whole = file_prefix(test::example_file(test::kLora), 3253104);
  std::size_t read = 0;
  mutate(whole.substr(0, 9072 + 4096), 1500, [&](const BinaryFile& file) {
    if (read_safetensors_header(file, 0)) ++read;
  });
  CHECK(read == 0);  // the data section is cut off
}

}  // namespace
}  // namespace eredu
