// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Describing from checkpoint files: a folder with model.safetensors and no
// index, shapes checked against the headers, dtypes taken from them, and
// GGUF files, quantized ones planned in whole blocks.
#include <doctest/doctest.h>

#include <stdexcept>

#include "checkpoint/open.hpp"
#include "checkpoint_writer.hpp"
#include "describe/describe.hpp"
#include "example_files.hpp"
#include "plan/planner.hpp"
#include "readplan/read_plan.hpp"
#include "reassembly.hpp"
#include "stories_folder.hpp"

namespace eredu {
namespace {

// The member named `target`; fails the test when there is none.
const ParameterMemberSpec& member_named(const ModelDescription& model, const std::string& target) {
  for (const ParameterGroupSpec& group : model.groups()) {
    for (const ParameterMemberSpec& member : group.members()) {
      if (member.target() == target) return member;
    }
  }
  FAIL("no member " << target);
  throw std::logic_error("unreachable");
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

ParallelTopology tensor_parallel(std::uint64_t size) {
  return ParallelTopology::create(size, 1, 1, 1).value();
}

TEST_CASE("a folder with config.json and model.safetensors alone") {
  test::TempFolder folder;
  test::write_stories_folder(folder, 0);
  auto model = describe_model_dir(folder.str());
  REQUIRE(model);
  CHECK(model.value()->tensor_count() == 48);
  CHECK(model.value()->global_bytes() == 1185376 - 14176);
  CHECK(model.value()->info().name == folder.path().filename().string());
}

TEST_CASE("a stored shape that differs from config.json's: CheckpointMismatch") {
  test::TempFolder folder;
  std::vector<test::WrittenTensor> tensors = test::stories_tensors(folder);
  for (test::WrittenTensor& tensor : tensors) {
    if (tensor.name == "model.layers.2.self_attn.k_proj.weight") tensor.shape = {64, 32};
  }
  test::write_safetensors(folder.str() + "/model.safetensors", tensors);
  auto model = describe_model_dir(folder.str());
  REQUIRE_FALSE(model);
  CHECK(model.error().code == Status::CheckpointMismatch);
  CHECK(model.error().message ==
        "tensor \"model.layers.2.self_attn.k_proj.weight\": described as F32 [32, 64], but "
        "model.safetensors stores F32 [64, 32]");
}

TEST_CASE("a tensor config.json does not describe: CheckpointMismatch") {
  test::TempFolder folder;
  std::vector<test::WrittenTensor> tensors = test::stories_tensors(folder);
  tensors.push_back({"model.extra.weight", "F32", {2}, 8});
  test::write_safetensors(folder.str() + "/model.safetensors", tensors);
  auto model = describe_model_dir(folder.str());
  REQUIRE_FALSE(model);
  CHECK(model.error().code == Status::CheckpointMismatch);
  CHECK(contains(model.error().message, "model.extra.weight"));
}

TEST_CASE("stored dtypes win over config.json's torch_dtype") {
  test::TempFolder folder;
  std::vector<test::WrittenTensor> tensors = test::stories_tensors(folder);
  nlohmann::json config = test::stories_config();
  config["torch_dtype"] = "bfloat16";
  folder.write("config.json", config.dump());
  for (test::WrittenTensor& tensor : tensors) {
    if (tensor.name.find("norm") == std::string::npos) {
      tensor.dtype = "BF16";
      tensor.bytes /= 2;
    }
  }
  test::write_safetensors(folder.str() + "/model.safetensors", tensors);
  auto model = describe_model_dir(folder.str());
  REQUIRE(model);
  CHECK(member_named(*model.value(), "model.norm.weight").dtype() == Dtype::F32);  // as stored
  CHECK(member_named(*model.value(), "model.layers.0.self_attn.q_proj.weight").dtype() ==
        Dtype::BF16);
}

TEST_CASE("an index whose shards are partly present: Io naming the missing one") {
  test::TempFolder folder;
  test::write_stories_folder(folder, 2);
  std::filesystem::remove(folder.path() / "model-00002-of-00002.safetensors");
  auto model = describe_model_dir(folder.str());
  REQUIRE_FALSE(model);
  CHECK(model.error().code == Status::Io);
  CHECK(contains(model.error().message, "model-00002-of-00002.safetensors: a shard"));
}

TEST_CASE("stories260K.gguf: a llama decoder of 5 layers with GQA") {
  auto model = describe_model(test::example_file(test::kStories));
  REQUIRE(model);
  CHECK(model.value()->info().name == "stories260K");
  CHECK(model.value()->info().layers == 5u);
  CHECK(model.value()->tensor_count() == 48);
  const ParameterGroupSpec* attention = nullptr;
  for (const ParameterGroupSpec& group : model.value()->groups()) {
    if (group.logical_name() == "blk.3.attn") attention = &group;
  }
  REQUIRE(attention != nullptr);
  CHECK(attention->partition_units() == 4u);
  CHECK(attention->query_units() == 8u);
  CHECK(attention->members()[0].target() == "blk.3.attn_q.weight");
  CHECK(attention->members()[0].global_shape() == std::vector<std::uint64_t>{64, 64});
  CHECK(attention->members()[1].global_shape() == std::vector<std::uint64_t>{32, 64});
}

// stories260K's geometry as a GGUF whose matrices with 64 columns are Q8_0
// (two 34-byte blocks per row); ffn_down (172 columns) stays F32.
std::string quantized_stories(const test::TempFolder& folder, const std::string& arch) {
  struct Tensor {
    std::string name;
    std::vector<std::uint64_t> ggml_dims;
    std::uint32_t type;
    std::uint64_t bytes;
  };
  std::vector<Tensor> tensors;
  auto q8 = [&](const std::string& name, std::uint64_t rows) {
    tensors.push_back({name, {64, rows}, 8, rows * 2 * 34});
  };
  auto f32 = [&](const std::string& name, std::vector<std::uint64_t> dims) {
    std::uint64_t bytes = 4;
    for (std::uint64_t dimension : dims) bytes *= dimension;
    tensors.push_back({name, std::move(dims), 0, bytes});
  };
  q8("token_embd.weight", 512);
  for (int layer = 0; layer < 5; ++layer) {
    const std::string prefix = "blk." + std::to_string(layer) + ".";
    q8(prefix + "attn_q.weight", 64);
    q8(prefix + "attn_k.weight", 32);
    q8(prefix + "attn_v.weight", 32);
    q8(prefix + "attn_output.weight", 64);
    q8(prefix + "ffn_gate.weight", 172);
    q8(prefix + "ffn_up.weight", 172);
    f32(prefix + "ffn_down.weight", {172, 64});
    f32(prefix + "attn_norm.weight", {64});
    f32(prefix + "ffn_norm.weight", {64});
  }
  f32("output_norm.weight", {64});
  q8("output.weight", 512);
  test::GgufBytes bytes = test::gguf_header(3, tensors.size(), 7);
  bytes.key("general.architecture", 8).string(arch);
  for (const auto& [key, value] :
       std::vector<std::pair<std::string, std::uint32_t>>{{"block_count", 5},
                                                          {"embedding_length", 64},
                                                          {"feed_forward_length", 172},
                                                          {"attention.head_count", 8},
                                                          {"attention.head_count_kv", 4}}) {
    bytes.key(arch + "." + key, 4).u32(value);
  }
  bytes.key("general.alignment", 4).u32(32);
  std::uint64_t offset = 0;
  for (const Tensor& tensor : tensors) {
    bytes.tensor(tensor.name, tensor.ggml_dims, tensor.type, offset);
    offset += (tensor.bytes + 31) / 32 * 32;
  }
  bytes.pad(32);
  for (const Tensor& tensor : tensors) {
    bytes.raw(test::tensor_bytes(tensor.name, tensor.bytes)).pad(32);
  }
  const std::string path = folder.str() + "/stories-q8_0.gguf";
  test::write_file(path, bytes.bytes());
  return path;
}

TEST_CASE("a Q8_0 GGUF: packed members, whole blocks per rank, refused below a block") {
  test::TempFolder folder;
  const std::string path = quantized_stories(folder, "llama");
  auto model = describe_model(path);
  REQUIRE(model);
  const ParameterMemberSpec& output = member_named(*model.value(), "blk.0.attn_output.weight");
  CHECK(output.dtype() == Dtype::U8);
  CHECK(output.global_shape() == std::vector<std::uint64_t>{64, 68});
  auto checkpoint = open_checkpoint(path);
  REQUIRE(checkpoint);
  for (std::uint64_t tp : {1, 2}) {
    CAPTURE(tp);
    test::check_reassembly(model.value(), checkpoint.value(), tensor_parallel(tp));
  }
  auto layout = plan_rank(model.value(), tensor_parallel(2), 1, ShardingPolicy::Require);
  REQUIRE(layout);
  auto plan = build_read_plan(layout.value(), checkpoint.value());
  REQUIRE(plan);
  for (const TensorReadPlan& tensor : plan.value().tensors) {
    if (tensor.target != "blk.0.attn_output.weight") continue;
    CHECK(tensor.dtype == "Q8_0");
    CHECK(tensor.local_shape == std::vector<std::uint64_t>{64, 34});  // one block per row
    REQUIRE(tensor.extents.size() == 1);
    CHECK(tensor.extents[0].length == 34);
    CHECK(tensor.extents[0].count == 64);
    CHECK(tensor.extents[0].stride == 68);
    CHECK(tensor.extents[0].offset ==
          checkpoint.value().find("blk.0.attn_output.weight")->offset + 34);
  }
  // At TP 4 a rank would hold 16 of attn_output's 64 columns: half a block.
  auto refused = plan_rank(model.value(), tensor_parallel(4), 0, ShardingPolicy::Require);
  REQUIRE_FALSE(refused);
  CHECK(refused.error().code == Status::InvalidTensor);
}

TEST_CASE("GGUF refusals: another architecture, a missing size") {
  test::TempFolder folder;
  auto other = describe_model(quantized_stories(folder, "gpt2"));
  REQUIRE_FALSE(other);
  CHECK(other.error().code == Status::UnsupportedModel);
  CHECK(contains(other.error().message, "GGUF architecture \"gpt2\" is not supported"));
  test::GgufBytes bytes = test::gguf_header(3, 0, 1);
  bytes.key("general.architecture", 8).string("llama");
  test::write_file(folder.str() + "/empty.gguf", bytes.bytes());
  auto missing = describe_model(folder.str() + "/empty.gguf");
  REQUIRE_FALSE(missing);
  CHECK(missing.error().code == Status::Parse);
  CHECK(contains(missing.error().message, "llama.block_count must be a positive integer"));
}

}  // namespace
}  // namespace eredu
