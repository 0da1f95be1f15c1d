// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The GGUF reader: the real stories260K file, and every malformed header
// ggml's reader refuses.
#include <doctest/doctest.h>

#include "checkpoint/gguf.hpp"
#include "checkpoint/open.hpp"
#include "checkpoint_writer.hpp"
#include "example_files.hpp"
#include "model_folders.hpp"

namespace eredu {
namespace {

using test::GgufBytes;

constexpr std::uint32_t kU32 = 4, kString = 8, kArray = 9, kBool = 7, kF32 = 6, kI32 = 5;
constexpr std::uint32_t kTypeF32 = 0, kTypeQ8_0 = 8;

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

Result<GgufHeader> read_bytes(const std::string& bytes) {
  test::TempFolder folder;
  const std::string path = folder.str() + "/bad.gguf";
  test::write_file(path, bytes);
  auto file = BinaryFile::open(path, "bad.gguf");
  REQUIRE(file);
  return read_gguf_header(file.value(), 0);
}

std::string parse_error(const std::string& bytes) {
  auto header = read_bytes(bytes);
  REQUIRE_FALSE(header);
  CHECK(header.error().code == Status::Parse);
  CHECK(contains(header.error().message, "bad.gguf"));
  return header.error().message;
}

// Two keys, then tensors "a" F32 [2, 4] (ggml [4, 2], 32 bytes) and "b"
// Q8_0 [2, 32] (68 bytes) at data offset 32, aligned to 32.
GgufBytes small_gguf_prefix(std::uint64_t b_offset = 32) {
  GgufBytes bytes = test::gguf_header(3, 2, 2);
  bytes.key("general.architecture", kString).string("llama");
  bytes.key("general.alignment", kU32).u32(32);
  bytes.tensor("a", {4, 2}, kTypeF32, 0).tensor("b", {32, 2}, kTypeQ8_0, b_offset);
  return bytes.pad(32);
}

std::string small_gguf() {
  return small_gguf_prefix().raw(std::string(32, 'a')).raw(std::string(68, 'b')).bytes();
}

TEST_CASE("stories260K: version 3, 19 keys, 48 F32 tensors from byte 14176") {
  auto file = BinaryFile::open(test::example_file(test::kStories), "stories");
  REQUIRE(file);
  auto header = read_gguf_header(file.value(), 0);
  REQUIRE(header);
  const GgufHeader& gguf = header.value();
  CHECK(gguf.version == 3);
  CHECK(gguf.metadata.size() == 19);
  CHECK(gguf.alignment == 32);
  CHECK(gguf.data_start == 14176);
  REQUIRE(gguf.tensors.size() == 48);
  CHECK(gguf.find("general.architecture")->text == "llama");
  CHECK(gguf.find("llama.block_count")->as_unsigned() == 5u);
  CHECK(gguf.find("llama.attention.head_count_kv")->as_unsigned() == 4u);
  const GgufValue* tokens = gguf.find("tokenizer.ggml.tokens");
  REQUIRE(tokens != nullptr);
  CHECK(tokens->type == GgufType::Array);
  CHECK(tokens->element_type == GgufType::String);
  CHECK(tokens->count == 512);
  const CheckpointTensor& embedding = gguf.tensors[0];
  CHECK(embedding.name == "token_embd.weight");
  CHECK(embedding.shape == std::vector<std::uint64_t>{512, 64});  // ggml [64, 512]
  CHECK(embedding.type == "F32");
  CHECK(embedding.ggml_type == 0u);
  CHECK(embedding.offset == 14176);
  CHECK(embedding.bytes == 512 * 64 * 4);
  const CheckpointTensor& last = gguf.tensors.back();
  CHECK(last.offset + last.bytes == 1185376);
}

TEST_CASE("open_checkpoint recognizes a GGUF file by its magic") {
  CHECK(is_gguf_file(test::example_file(test::kStories)));
  CHECK_FALSE(is_gguf_file(test::example_file(test::kLora)));
  auto checkpoint = open_checkpoint(test::example_file(test::kStories));
  REQUIRE(checkpoint);
  const CheckpointTensor* q = checkpoint.value().find("blk.0.attn_q.weight");
  REQUIRE(q != nullptr);
  CHECK(q->shape == std::vector<std::uint64_t>{64, 64});
  const CheckpointTensor* k = checkpoint.value().find("blk.0.attn_k.weight");
  CHECK(k->shape == std::vector<std::uint64_t>{32, 64});
  const CheckpointTensor* down = checkpoint.value().find("blk.4.ffn_down.weight");
  CHECK(down->shape == std::vector<std::uint64_t>{64, 172});
}

TEST_CASE("a small valid GGUF with a Q8_0 tensor") {
  auto header = read_bytes(small_gguf());
  REQUIRE(header);
  const CheckpointTensor& b = header.value().tensors[1];
  CHECK(b.type == "Q8_0");
  CHECK(b.ggml_type == kTypeQ8_0);
  CHECK_FALSE(b.dtype);
  CHECK(b.shape == std::vector<std::uint64_t>{2, 32});
  CHECK(b.bytes == 68);
  CHECK(stored_shape(b).shape == std::vector<std::uint64_t>{2, 34});
  CHECK(b.offset == header.value().data_start + 32);
}

TEST_CASE("the header: magic, version, counts") {
  CHECK(contains(parse_error("GGU"), "truncated"));
  CHECK(contains(parse_error("GGML" + std::string(20, '\0')), "not a GGUF file"));
  CHECK(contains(parse_error(test::gguf_header(1, 0, 0).bytes()), "GGUF version 1"));
  CHECK(contains(parse_error(test::gguf_header(0x03000000, 0, 0).bytes()), "big-endian"));
  CHECK(contains(parse_error(test::gguf_header(3, 0, 1u << 30).bytes()), "do not fit in the file"));
  CHECK(
      contains(parse_error(test::gguf_header(3, 1ull << 40, 0).bytes()), "do not fit in the file"));
}

TEST_CASE("metadata values") {
  auto one_key = [](const std::function<void(GgufBytes&)>& value) {
    GgufBytes bytes = test::gguf_header(3, 0, 1);
    value(bytes);
    return parse_error(bytes.raw(std::string(64, '\0')).bytes());
  };
  CHECK(contains(one_key([](GgufBytes& b) { b.key("k", 13).u32(0); }), "unknown value type 13"));
  CHECK(contains(one_key([](GgufBytes& b) { b.key("k", kString).u64(1ull << 50); }),
                 "more than the"));
  CHECK(contains(one_key([](GgufBytes& b) { b.key("k", kArray).u32(kArray).u64(1); }),
                 "array of arrays"));
  CHECK(contains(one_key([](GgufBytes& b) { b.key("k", kArray).u32(kI32).u64(1ull << 40); }),
                 "declares 1099511627776 elements"));
  CHECK(contains(one_key([](GgufBytes& b) { b.key("k", kBool).u8(2); }), "boolean byte 2"));
  CHECK(contains(one_key([](GgufBytes& b) { b.u64(1ull << 50); }), "more than the"));
  GgufBytes repeated = test::gguf_header(3, 0, 2);
  repeated.key("k", kF32).u32(0).key("k", kF32).u32(0);
  CHECK(contains(parse_error(repeated.bytes()), "metadata key \"k\" is repeated"));
  for (std::uint32_t alignment : {0u, 24u}) {
    GgufBytes bytes = test::gguf_header(3, 0, 1);
    bytes.key("general.alignment", kU32).u32(alignment);
    CHECK(contains(parse_error(bytes.bytes()), "general.alignment must be a power-of-two u32"));
  }
  GgufBytes wrong_type = test::gguf_header(3, 0, 1);
  wrong_type.key("general.alignment", kI32).u32(32);
  CHECK(contains(parse_error(wrong_type.bytes()), "general.alignment"));
}

TEST_CASE("integer arrays keep their values, up to a bound") {
  GgufBytes bytes = test::gguf_header(3, 0, 1);
  bytes.key("layers", kArray).u32(kI32).u64(3).u32(1).u32(0xFFFFFFFF).u32(7);
  auto header = read_bytes(bytes.bytes());
  REQUIRE(header);
  const GgufValue* layers = header.value().find("layers");
  CHECK(layers->count == 3);
  CHECK(layers->integers == std::vector<std::int64_t>{1, -1, 7});
  CHECK_FALSE(layers->as_unsigned());
}

TEST_CASE("tensor infos") {
  auto one_tensor = [](const std::vector<std::uint64_t>& dims, std::uint32_t type,
                       std::uint64_t offset, std::uint64_t data) {
    GgufBytes bytes = test::gguf_header(3, 1, 0);
    bytes.tensor("t", dims, type, offset).pad(32).raw(std::string(data, 'x'));
    return bytes.bytes();
  };
  CHECK(contains(parse_error(one_tensor({1, 1, 1, 1, 1}, kTypeF32, 0, 4)),
                 "tensor \"t\" (info 0) has 5 dimensions; GGUF allows 1 to 4"));
  CHECK(contains(parse_error(one_tensor({1ull << 63}, kTypeF32, 0, 4)), "above 2^63 - 1"));
  CHECK(contains(parse_error(one_tensor({1ull << 32, 1ull << 32}, kTypeF32, 0, 4)),
                 "element count overflows"));
  CHECK(contains(parse_error(one_tensor({4}, 9, 0, 4)),
                 "tensor \"t\" has ggml type 9: unsupported GGML tensor type 9"));
  CHECK(contains(parse_error(one_tensor({40}, kTypeQ8_0, 0, 68)),
                 "row of 40 values is not a whole number of Q8_0 blocks of 32"));
  CHECK(contains(parse_error(one_tensor({4}, kTypeF32, 32, 64)),
                 "tensor \"t\" has data offset 32, expected 0"));
  CHECK(contains(parse_error(one_tensor({4}, kTypeF32, 0, 8)),
                 "passes the end of the"));  // 16 bytes needed
  CHECK(contains(parse_error(one_tensor({4}, kTypeF32, 0, 16 + 32)),
                 "16 bytes follow the last tensor's padded end"));
  CHECK(read_bytes(one_tensor({4}, kTypeF32, 0, 16)));
  CHECK(read_bytes(one_tensor({4}, kTypeF32, 0, 32)));  // padded to the alignment
  GgufBytes twice = test::gguf_header(3, 2, 0);
  twice.tensor("t", {4}, kTypeF32, 0).tensor("t", {4}, kTypeF32, 32).pad(32);
  CHECK(contains(parse_error(twice.raw(std::string(48, 'x')).bytes()), "tensor \"t\" is repeated"));
}

TEST_CASE("the second tensor must follow the first, padded to the alignment") {
  CHECK(read_bytes(small_gguf()));
  const std::string shifted =
      small_gguf_prefix(40).raw(std::string(32, 'a')).raw(std::string(76, 'b')).bytes();
  CHECK(contains(parse_error(shifted), "tensor \"b\" has data offset 40, expected 32"));
}

TEST_CASE("every truncation of a valid file is refused without a crash") {
  const std::string valid = small_gguf();
  for (std::size_t size = 0; size < valid.size(); ++size) {
    CAPTURE(size);
    auto header = read_bytes(valid.substr(0, size));
    CHECK_FALSE(header);
  }
}

}  // namespace
}  // namespace eredu
