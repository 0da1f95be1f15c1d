// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The safetensors reader: the real GPT-2 LoRA adapter, and every malformed
// header the reference implementation refuses.
#include <doctest/doctest.h>

#include "checkpoint/open.hpp"
#include "checkpoint/safetensors.hpp"
#include "checkpoint/weight_index.hpp"
#include "checkpoint_writer.hpp"
#include "example_files.hpp"
#include "model_folders.hpp"

namespace eredu {
namespace {

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

Result<SafetensorsHeader> read_bytes(const test::TempFolder& folder, const std::string& bytes) {
  const std::string path = folder.str() + "/bad.safetensors";
  test::write_file(path, bytes);
  auto file = BinaryFile::open(path, "bad.safetensors");
  REQUIRE(file);
  return read_safetensors_header(file.value(), 0);
}

// The error of reading a file of `bytes`: Parse, naming the file.
std::string parse_error(const std::string& bytes) {
  test::TempFolder folder;
  auto header = read_bytes(folder, bytes);
  REQUIRE_FALSE(header);
  CHECK(header.error().code == Status::Parse);
  CHECK(contains(header.error().message, "bad.safetensors"));
  return header.error().message;
}

const std::string kEntry = R"("w":{"dtype":"F32","shape":[2,2],"data_offsets":[0,16]})";

TEST_CASE("the GPT-2 LoRA adapter: 72 F32 tensors after a 9064-byte header") {
  auto file = BinaryFile::open(test::example_file(test::kLora), "adapter");
  REQUIRE(file);
  auto header = read_safetensors_header(file.value(), 3);
  REQUIRE(header);
  CHECK(header.value().data_start == 8 + 9064);
  CHECK(header.value().metadata == std::map<std::string, std::string>{{"format", "pt"}});
  REQUIRE(header.value().tensors.size() == 72);
  const CheckpointTensor& first = header.value().tensors[0];
  CHECK(first.name == "base_model.model.transformer.h.0.attn.c_attn.lora_A.weight");
  CHECK(first.type == "F32");
  CHECK(first.dtype == Dtype::F32);
  CHECK(first.shape == std::vector<std::uint64_t>{8, 768});
  CHECK(first.offset == 9072);
  CHECK(first.bytes == 24576);
  CHECK(first.file == 3);
  const CheckpointTensor& second = header.value().tensors[1];
  CHECK(second.name == "base_model.model.transformer.h.0.attn.c_attn.lora_B.weight");
  CHECK(second.shape == std::vector<std::uint64_t>{2304, 8});
  CHECK(second.offset == 9072 + 24576);
  const CheckpointTensor& last = header.value().tensors.back();
  CHECK(last.offset + last.bytes == 3253104);
}

TEST_CASE("open_checkpoint on the adapter file sorts its tensors by name") {
  auto checkpoint = open_checkpoint(test::example_file(test::kLora));
  REQUIRE(checkpoint);
  CHECK(checkpoint.value().files == std::vector<std::string>{test::example_file(test::kLora)});
  CHECK(checkpoint.value().root.empty());
  CHECK(checkpoint.value().tensors.size() == 72);
  CHECK(checkpoint.value().tensor_bytes() == 3244032);
  const CheckpointTensor* tensor =
      checkpoint.value().find("base_model.model.transformer.h.11.mlp.c_proj.lora_A.weight");
  REQUIRE(tensor != nullptr);
  CHECK(tensor->shape == std::vector<std::uint64_t>{8, 3072});
  CHECK(checkpoint.value().find("missing") == nullptr);
}

TEST_CASE("a file too small or with a header length out of bounds") {
  CHECK(contains(parse_error("1234567"), "7 bytes is too small"));
  CHECK(contains(parse_error(test::safetensors_bytes("", "")), "does not start with '{'"));
  std::string huge(8, '\0');
  huge[4] = 1;  // 2^32
  CHECK(contains(parse_error(huge + "{}"), "above the limit of 100000000 bytes"));
  std::string past(8, '\0');
  past[0] = 100;
  CHECK(contains(parse_error(past + "{}"), "header length 100 passes the end of the 10-byte file"));
}

TEST_CASE("a header that is not a JSON object of tensors") {
  CHECK(contains(parse_error(test::safetensors_bytes("[1]", "")), "does not start with '{'"));
  CHECK(contains(parse_error(test::safetensors_bytes("{\"w\":", "")), "not JSON"));
  CHECK(contains(
      parse_error(test::safetensors_bytes("{" + kEntry + "," + kEntry + "}", std::string(16, 'x'))),
      "repeats key \"w\""));
  CHECK(contains(parse_error(test::safetensors_bytes(R"({"__metadata__":[]})", "")),
                 "__metadata__ is not an object"));
  CHECK(contains(parse_error(test::safetensors_bytes(R"({"__metadata__":{"a":1}})", "")),
                 "__metadata__ value \"a\" is not a string"));
  CHECK(contains(parse_error(test::safetensors_bytes(R"({"w":1})", "")),
                 "tensor \"w\" is not an object"));
}

TEST_CASE("tensor entries: dtype, shape and data_offsets") {
  auto entry = [](const std::string& body, std::uint64_t data) {
    return parse_error(test::safetensors_bytes("{\"w\":{" + body + "}}", std::string(data, 'x')));
  };
  CHECK(contains(entry(R"("shape":[1],"data_offsets":[0,4])", 4), "has no dtype string"));
  CHECK(contains(entry(R"("dtype":"F4","shape":[1],"data_offsets":[0,4])", 4),
                 "dtype \"F4\", which eredu does not support"));
  CHECK(contains(entry(R"("dtype":"F32","data_offsets":[0,4])", 4), "has no shape array"));
  CHECK(contains(entry(R"("dtype":"F32","shape":[-1],"data_offsets":[0,4])", 4),
                 "must hold non-negative integers"));
  CHECK(contains(entry(R"("dtype":"F32","shape":[1],"data_offsets":[0])", 4),
                 "data_offsets must be two non-negative integers"));
  CHECK(contains(entry(R"("dtype":"F32","shape":[1],"data_offsets":[4,0])", 4),
                 "end before they begin"));
  CHECK(contains(entry(R"("dtype":"F32","shape":[4294967296,4294967296],"data_offsets":[0,4])", 4),
                 "byte length overflows 64 bits"));
  CHECK(contains(entry(R"("dtype":"F32","shape":[2],"data_offsets":[0,4])", 4),
                 "shape [2] of F32 is 8 bytes, data_offsets [0, 4] hold 4"));
}

TEST_CASE("data offsets must tile the data section exactly") {
  const std::string a = R"("a":{"dtype":"U8","shape":[4],"data_offsets":[0,4]})";
  SUBCASE("a gap") {
    const std::string b = R"("b":{"dtype":"U8","shape":[4],"data_offsets":[6,10]})";
    CHECK(contains(
        parse_error(test::safetensors_bytes("{" + a + "," + b + "}", std::string(10, 'x'))),
        "tensor \"b\" starts at data offset 6, but the data before it ends at 4"));
  }
  SUBCASE("an overlap") {
    const std::string b = R"("b":{"dtype":"U8","shape":[4],"data_offsets":[2,6]})";
    CHECK(
        contains(parse_error(test::safetensors_bytes("{" + a + "," + b + "}", std::string(6, 'x'))),
                 "tensor \"b\" starts at data offset 2"));
  }
  SUBCASE("trailing bytes") {
    CHECK(contains(parse_error(test::safetensors_bytes("{" + a + "}", std::string(5, 'x'))),
                   "the tensors end at data offset 4, the data section holds 5 bytes"));
  }
  SUBCASE("missing bytes") {
    CHECK(contains(parse_error(test::safetensors_bytes("{" + a + "}", std::string(3, 'x'))),
                   "tensor \"a\" passes the end of the"));
  }
}

TEST_CASE("a valid written file reads back; padding spaces after the JSON are allowed") {
  test::TempFolder folder;
  auto header =
      read_bytes(folder, test::safetensors_bytes("{" + kEntry + "}   ", std::string(16, 'x')));
  REQUIRE(header);
  CHECK(header.value().tensors.size() == 1);
  CHECK(header.value().tensors[0].offset == 8 + kEntry.size() + 5);
}

TEST_CASE("open_checkpoint: a folder, its index and its shards") {
  test::TempFolder folder;
  const test::WrittenTensor a{"a", "F16", {2, 3}, 12};
  const test::WrittenTensor b{"b", "BF16", {4}, 8};
  SUBCASE("model.safetensors alone") {
    test::write_safetensors(folder.str() + "/model.safetensors", {a, b});
    CHECK(open_folder_checkpoint(folder.str(), nullptr).value().has_value());
    auto checkpoint = open_checkpoint(folder.str());
    REQUIRE(checkpoint);
    CHECK(checkpoint.value().files == std::vector<std::string>{"model.safetensors"});
    CHECK(checkpoint.value().path(0) == folder.str() + "/model.safetensors");
    CHECK(checkpoint.value().find("b")->dtype == Dtype::BF16);
  }
  SUBCASE("two shards named by an index") {
    test::write_safetensors(folder.str() + "/s2.safetensors", {b});
    test::write_safetensors(folder.str() + "/s1.safetensors", {a});
    folder.write(
        "model.safetensors.index.json",
        R"({"metadata":{"total_size":20},"weight_map":{"a":"s1.safetensors","b":"s2.safetensors"}})");
    auto checkpoint = open_checkpoint(folder.str());
    REQUIRE(checkpoint);
    CHECK(checkpoint.value().files == std::vector<std::string>{"s1.safetensors", "s2.safetensors"});
    CHECK(checkpoint.value().find("b")->file == 1);
    // The index stays with the checkpoint, read once.
    const WeightIndex& index = *checkpoint.value().index;
    CHECK(index.file == "model.safetensors.index.json");
    CHECK(index.names == std::vector<std::string>{"a", "b"});
    CHECK(index.shards == std::vector<std::string>{"s1.safetensors", "s2.safetensors"});
    CHECK(index.shard_of == std::vector<std::uint32_t>{0, 1});
    CHECK(index.total_size == 20u);
  }
  SUBCASE("an index that maps a tensor to the wrong shard") {
    test::write_safetensors(folder.str() + "/s1.safetensors", {a, b});
    test::write_safetensors(folder.str() + "/s2.safetensors", {});
    folder.write("model.safetensors.index.json",
                 R"({"weight_map":{"a":"s1.safetensors","b":"s2.safetensors"}})");
    auto checkpoint = open_checkpoint(folder.str());
    REQUIRE_FALSE(checkpoint);
    CHECK(checkpoint.error().code == Status::CheckpointMismatch);
    CHECK(contains(checkpoint.error().message,
                   "maps tensor \"b\" to s2.safetensors, which does not hold it"));
  }
  SUBCASE("a shard tensor the index does not list") {
    test::write_safetensors(folder.str() + "/s1.safetensors", {a, b});
    folder.write("model.safetensors.index.json", R"({"weight_map":{"a":"s1.safetensors"}})");
    auto checkpoint = open_checkpoint(folder.str());
    REQUIRE_FALSE(checkpoint);
    CHECK(checkpoint.error().code == Status::CheckpointMismatch);
    CHECK(contains(checkpoint.error().message, "holds tensor \"b\", which"));
  }
  SUBCASE("a tensor stored in two shards") {
    test::write_safetensors(folder.str() + "/s1.safetensors", {a});
    test::write_safetensors(folder.str() + "/s2.safetensors", {a});
    folder.write("model.safetensors.index.json",
                 R"({"weight_map":{"a":"s1.safetensors","x":"s2.safetensors"}})");
    auto checkpoint = open_checkpoint(folder.str());
    REQUIRE_FALSE(checkpoint);
    CHECK(checkpoint.error().code == Status::CheckpointMismatch);
    CHECK(contains(checkpoint.error().message,
                   "tensor \"a\" is stored twice: in s1.safetensors and in s2.safetensors"));
  }
  SUBCASE("a missing shard, a shard outside the folder, nothing at all") {
    folder.write("model.safetensors.index.json", R"({"weight_map":{"a":"s1.safetensors"}})");
    auto index = read_weight_index(folder.str());
    REQUIRE(index);
    CHECK_FALSE(open_folder_checkpoint(
                    folder.str(), std::make_shared<const WeightIndex>(std::move(index).value()))
                    .value()
                    .has_value());
    auto missing = open_checkpoint(folder.str());
    REQUIRE_FALSE(missing);
    CHECK(missing.error().code == Status::Io);
    CHECK(contains(missing.error().message, "s1.safetensors: a shard"));
    folder.write("model.safetensors.index.json", R"({"weight_map":{"a":"../s1.safetensors"}})");
    CHECK(open_checkpoint(folder.str()).error().code == Status::Parse);
    test::TempFolder empty;
    CHECK(open_checkpoint(empty.str()).error().code == Status::Io);
    CHECK(open_checkpoint(empty.str() + "/none").error().code == Status::Io);
  }
}

}  // namespace
}  // namespace eredu
