// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The other families' refusals and config variants (docs/describe.md), on
// edited copies of the real folders and on tiny synthetic ones.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "describe/describe.hpp"
#include "described_models.hpp"
#include "model_folders.hpp"
#include "world/world.hpp"

namespace eredu {
namespace {

using nlohmann::json;
using Shape = std::vector<std::uint64_t>;
using test::EditedFolder;

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// A weight index holding `tensors` (name, bytes).
json index_of(const std::vector<std::pair<std::string, std::uint64_t>>& tensors) {
  json map = json::object();
  std::uint64_t bytes = 0;
  for (const auto& [name, size] : tensors) {
    map[name] = "model.safetensors";
    bytes += size;
  }
  return {{"metadata", {{"total_size", bytes}}}, {"weight_map", map}};
}

TEST_CASE("falcon: only the new_decoder_architecture layout") {
  EditedFolder falcon("falcon-180b-chat");
  SUBCASE("without new_decoder_architecture") {
    falcon.config["new_decoder_architecture"] = false;
    Error error = falcon.error();
    CHECK(error.code == Status::UnsupportedModel);
    CHECK(error.message == falcon.file() +
                               ": falcon without new_decoder_architecture (the falcon-7b "
                               "multi-query layout) is not supported; supported: "
                               "new_decoder_architecture true");
  }
  SUBCASE("query heads not divisible by the KV heads") {
    falcon.config["num_kv_heads"] = 7;
    Error error = falcon.error();
    CHECK(error.code == Status::Parse);
    CHECK(contains(error.message, "num_attention_heads 232 is not divisible by num_kv_heads 7"));
  }
  SUBCASE("multi_query is ignored") {
    falcon.config["multi_query"] = false;
    CHECK(falcon.describe().has_value());
  }
  SUBCASE("a quantization_config other than GPTQ or AWQ is refused") {
    falcon.config["quantization_config"] = {{"quant_method", "fp8"}};
    Error error = falcon.error();
    CHECK(error.code == Status::UnsupportedModel);
    CHECK(contains(error.message, "\"fp8\" quantization"));
  }
}

TEST_CASE("gpt_oss: quantization, dtype and checkpoint checks") {
  EditedFolder oss("gpt-oss-20b");
  SUBCASE("another quantization_config") {
    oss.config["quantization_config"] = {{"quant_method", "fp8"}};
    Error error = oss.error();
    CHECK(error.code == Status::UnsupportedModel);
    CHECK(error.message == oss.file() +
                               ": \"fp8\" quantization (quantization_config.quant_method) is not "
                               "supported for gpt_oss; supported: mxfp4");
  }
  SUBCASE("an MLX quantization") {
    oss.config["quantization"] = {{"group_size", 64}, {"bits", 4}};
    Error error = oss.error();
    CHECK(error.code == Status::UnsupportedModel);
    CHECK(error.message == oss.file() +
                               ": MLX quantized checkpoint (quantization "
                               "{\"bits\":4,\"group_size\":64}) is not supported for model_type "
                               "\"gpt_oss\"");
  }
  SUBCASE("no dtype in config.json and no original dtypes") {
    Error error = oss.error();
    CHECK(error.code == Status::UnsupportedModel);
    CHECK(error.message == oss.file() +
                               ": neither torch_dtype nor dtype is given and the folder has no "
                               "original/dtypes.json, so tensor bytes are unknown");
  }
  SUBCASE("torch_dtype in config.json") {
    oss.config["torch_dtype"] = "bfloat16";
    auto model = oss.describe();
    REQUIRE_MESSAGE(model.has_value(), model.error().message);
    CHECK(model.value()->global_bytes() == 13761264768u);
  }
  SUBCASE("original/dtypes.json as the Hugging Face folder holds it") {
    std::filesystem::create_directory(oss.folder.path() / "original");
    oss.folder.write("original/dtypes.json",
                     R"({"embedding.weight": "BF16", "block.0.mlp.mlp1_weight.blocks": "FP4",
                         "block.0.mlp.mlp1_weight.scales": "UE8"})");
    auto model = oss.describe();
    REQUIRE_MESSAGE(model.has_value(), model.error().message);
    CHECK(model.value()->global_bytes() == 13761264768u);
  }
  SUBCASE("original dtypes that disagree") {
    oss.folder.write("original_dtypes.json", R"({"a": "BF16", "b": "F16", "c": "FP4"})");
    Error error = oss.error();
    CHECK(error.code == Status::UnsupportedModel);
    CHECK(error.message == oss.folder.str() +
                               "/original_dtypes.json: the unquantized tensors must share one "
                               "of F32, BF16, F16, got [BF16, F16]");
  }
  SUBCASE("an index without one layer's sinks") {
    oss.config["torch_dtype"] = "bfloat16";
    oss.index["weight_map"].erase("model.layers.3.self_attn.sinks");
    Error error = oss.error();
    CHECK(error.code == Status::CheckpointMismatch);
    CHECK(contains(error.message,
                   "1 described tensors missing from the index: "
                   "\"model.layers.3.self_attn.sinks\""));
  }
}

TEST_CASE("MLX quantization: refusals, malformed entries, per-module entries") {
  EditedFolder mlx("qwen3-14b-mlx-4bit");
  SUBCASE("bits 7 is not an affine width") {
    mlx.config["quantization"]["bits"] = 7;
    mlx.config.erase("quantization_config");
    Error error = mlx.error();
    CHECK(error.code == Status::InvalidFormat);
    CHECK(error.message ==
          mlx.file() + ": quantization: bits must be one of 2, 3, 4, 5, 6, or 8, got 7");
  }
  SUBCASE("another mode") {
    mlx.config["quantization"]["mode"] = "mxfp4";
    mlx.config["quantization_config"]["mode"] = "mxfp4";
    Error error = mlx.error();
    CHECK(error.code == Status::UnsupportedModel);
    CHECK(error.message == mlx.file() +
                               ": quantization: MLX quantization mode \"mxfp4\" is not "
                               "supported; supported: \"affine\"");
  }
  SUBCASE("a quantization_config that is not a copy") {
    mlx.config["quantization_config"] = {{"quant_method", "bitsandbytes"}, {"load_in_8bit", true}};
    Error error = mlx.error();
    CHECK(error.code == Status::UnsupportedModel);
    CHECK(contains(error.message,
                   "bitsandbytes int8 (LLM.int8) quantization next to the MLX "
                   "quantization {\"bits\":4,\"group_size\":64}"));
  }
  SUBCASE("a missing group_size") {
    mlx.config["quantization"].erase("group_size");
    mlx.config.erase("quantization_config");
    Error error = mlx.error();
    CHECK(error.code == Status::Parse);
    CHECK(error.message == mlx.file() + ": quantization: required field group_size is missing");
  }
  SUBCASE("a module entry of 8 bits widens its packed weight") {
    mlx.config["quantization"]["model.layers.0.mlp.down_proj"] = {{"bits", 8}};
    mlx.config.erase("quantization_config");
    Error error = mlx.error();
    CHECK(error.code == Status::CheckpointMismatch);
    // down_proj [5120, 17408]: 17408 / 4 instead of / 8 U32 words per row.
    CHECK(contains(error.message, "(more by 44564480)"));
  }
  SUBCASE("a module entry false leaves its companions undescribed") {
    mlx.config["quantization"]["model.layers.0.mlp.down_proj"] = false;
    mlx.config.erase("quantization_config");
    Error error = mlx.error();
    CHECK(error.code == Status::CheckpointMismatch);
    CHECK(contains(error.message,
                   "2 index tensors not described: "
                   "\"model.layers.0.mlp.down_proj.biases\", "
                   "\"model.layers.0.mlp.down_proj.scales\""));
  }
  SUBCASE("a module entry that is neither an object nor a boolean") {
    mlx.config["quantization"]["lm_head"] = 8;
    mlx.config.erase("quantization_config");
    Error error = mlx.error();
    CHECK(error.code == Status::Parse);
    CHECK(error.message ==
          mlx.file() + ": quantization of \"lm_head\" must be an object or a boolean, got 8");
  }
  SUBCASE("a module entry with the defaults changes nothing") {
    mlx.config["quantization"]["lm_head"] = {{"group_size", 64}};
    mlx.config.erase("quantization_config");
    CHECK(mlx.describe().has_value());
  }
  SUBCASE("an index without one biases companion") {
    mlx.index["weight_map"].erase("model.layers.7.self_attn.k_proj.biases");
    Error error = mlx.error();
    CHECK(error.code == Status::CheckpointMismatch);
    CHECK(contains(error.message,
                   "1 described tensors missing from the index: "
                   "\"model.layers.7.self_attn.k_proj.biases\""));
  }
}

TEST_CASE("phi3: a bitsandbytes checkpoint is refused") {
  EditedFolder phi3("phi-3-mini-3b-slerp");
  phi3.config["quantization_config"] = {{"quant_method", "bitsandbytes"}, {"load_in_4bit", true}};
  Error error = phi3.error();
  CHECK(error.code == Status::UnsupportedModel);
  CHECK(error.message == phi3.file() + ": bitsandbytes 4-bit quantization is not supported");
}

// Phi-3 shaped: hidden 64, 4 heads of 16, 2 KV heads, intermediate 96, one
// layer, vocab 100; MLX affine group 32, 4 bits, BF16 companions.
json tiny_phi3_config() {
  return {{"model_type", "phi3"},
          {"hidden_size", 64},
          {"num_attention_heads", 4},
          {"num_key_value_heads", 2},
          {"intermediate_size", 96},
          {"num_hidden_layers", 1},
          {"vocab_size", 100},
          {"torch_dtype", "bfloat16"},
          {"quantization", {{"group_size", 32}, {"bits", 4}}}};
}

// Packed U32 weight [rows, cols / 8] and BF16 scales and biases [rows, cols / 32].
void add_quantized(std::vector<std::pair<std::string, std::uint64_t>>& tensors,
                   const std::string& module, std::uint64_t rows, std::uint64_t cols) {
  tensors.emplace_back(module + ".weight", rows * cols / 8 * 4);
  tensors.emplace_back(module + ".scales", rows * cols / 32 * 2);
  tensors.emplace_back(module + ".biases", rows * cols / 32 * 2);
}

TEST_CASE("phi3 with MLX quantization: segments survive the expansion") {
  std::vector<std::pair<std::string, std::uint64_t>> tensors;
  add_quantized(tensors, "model.embed_tokens", 100, 64);
  add_quantized(tensors, "model.layers.0.self_attn.qkv_proj", 128, 64);
  add_quantized(tensors, "model.layers.0.self_attn.o_proj", 64, 64);
  add_quantized(tensors, "model.layers.0.mlp.gate_up_proj", 192, 64);
  add_quantized(tensors, "model.layers.0.mlp.down_proj", 64, 96);
  add_quantized(tensors, "lm_head", 100, 64);
  tensors.emplace_back("model.layers.0.input_layernorm.weight", 128);
  tensors.emplace_back("model.layers.0.post_attention_layernorm.weight", 128);
  tensors.emplace_back("model.norm.weight", 128);
  test::TempFolder folder;
  folder.write("config.json", tiny_phi3_config().dump());
  folder.write("model.safetensors.index.json", index_of(tensors).dump());
  auto described = describe_model_dir(folder.str());
  REQUIRE_MESSAGE(described.has_value(), described.error().message);
  const auto& model = described.value();
  CHECK(model->tensor_count() == tensors.size());

  const ParameterGroupSpec& attn = model->groups()[1];
  CHECK(attn.partition_units() == 2u);
  const MemberSharding qkv =
      MemberSharding::partitioned_segments(0, {{0, 64}, {64, 96}, {96, 128}});
  REQUIRE(attn.members().size() == 6);
  CHECK(attn.members()[0].global_shape() == Shape{128, 8});
  CHECK(attn.members()[0].sharding() == qkv);
  CHECK(attn.members()[0].dtype() == Dtype::U32);
  CHECK(attn.members()[1].target() == "model.layers.0.self_attn.qkv_proj.scales");
  CHECK(attn.members()[1].global_shape() == Shape{128, 2});
  CHECK(attn.members()[1].sharding() == qkv);
  CHECK(attn.members()[1].dtype() == Dtype::BF16);
  CHECK(attn.members()[3].sharding() == MemberSharding::partitioned(1));

  // gcd(96, segments 96, down words 12, down groups 3) = 3 units.
  const ParameterGroupSpec& mlp = model->groups()[3];
  CHECK(mlp.partition_units() == 3u);
  CHECK(mlp.members()[0].sharding() ==
        MemberSharding::partitioned_segments(0, {{0, 96}, {96, 192}}));
  CHECK(mlp.members()[3].global_shape() == Shape{64, 12});
  CHECK(mlp.members()[4].global_shape() == Shape{64, 3});

  auto world =
      plan_world(model, ParallelTopology::create(2, 1, 1, 1).value(), ShardingPolicy::Require);
  REQUIRE_MESSAGE(world.has_value(), world.error().message);
  CHECK(world.value().coverage_ok());
}

TEST_CASE("gpt_oss without quantization: dense stacked experts") {
  // hidden 64, 4 heads of 16, 2 KV heads, intermediate 64, 4 experts, BF16.
  const json config = {{"model_type", "gpt_oss"},  {"hidden_size", 64},
                       {"num_attention_heads", 4}, {"num_key_value_heads", 2},
                       {"head_dim", 16},           {"intermediate_size", 64},
                       {"num_hidden_layers", 1},   {"num_local_experts", 4},
                       {"vocab_size", 100},        {"torch_dtype", "bfloat16"}};
  const std::string a = "model.layers.0.self_attn.";
  const std::string e = "model.layers.0.mlp.experts.";
  const std::vector<std::pair<std::string, std::uint64_t>> tensors = {
      {"model.embed_tokens.weight", 100 * 64 * 2},
      {a + "q_proj.weight", 64 * 64 * 2},
      {a + "k_proj.weight", 32 * 64 * 2},
      {a + "v_proj.weight", 32 * 64 * 2},
      {a + "o_proj.weight", 64 * 64 * 2},
      {a + "q_proj.bias", 64 * 2},
      {a + "k_proj.bias", 32 * 2},
      {a + "v_proj.bias", 32 * 2},
      {a + "o_proj.bias", 64 * 2},
      {a + "sinks", 4 * 2},
      {"model.layers.0.input_layernorm.weight", 64 * 2},
      {"model.layers.0.post_attention_layernorm.weight", 64 * 2},
      {"model.layers.0.mlp.router.weight", 4 * 64 * 2},
      {"model.layers.0.mlp.router.bias", 4 * 2},
      {e + "gate_up_proj", 4 * 64 * 128 * 2},
      {e + "gate_up_proj_bias", 4 * 128 * 2},
      {e + "down_proj", 4 * 64 * 64 * 2},
      {e + "down_proj_bias", 4 * 64 * 2},
      {"model.norm.weight", 64 * 2},
      {"lm_head.weight", 100 * 64 * 2},
  };
  test::TempFolder folder;
  folder.write("config.json", config.dump());
  folder.write("model.safetensors.index.json", index_of(tensors).dump());
  auto described = describe_model_dir(folder.str());
  REQUIRE_MESSAGE(described.has_value(), described.error().message);
  const ParameterGroupSpec& experts = described.value()->groups()[4];
  CHECK(experts.logical_name() == "model.layers.0.mlp.experts");
  CHECK(experts.partition_units() == 64u);
  REQUIRE(experts.members().size() == 4);
  CHECK(experts.members()[0].global_shape() == Shape{4, 64, 128});
  CHECK(experts.members()[0].sharding() == MemberSharding::partitioned(2).stacked_experts(0));
  CHECK(experts.members()[1].sharding() == MemberSharding::partitioned(1).stacked_experts(0));
  CHECK(experts.members()[2].global_shape() == Shape{4, 64, 64});
  CHECK(experts.members()[2].sharding() == MemberSharding::partitioned(1).stacked_experts(0));
  CHECK(experts.members()[3].sharding() == MemberSharding::replicated().stacked_experts(0));
  CHECK(described.value()->info().experts == std::optional<std::uint64_t>{4});
}

TEST_CASE("an index without total_size: tensors checked, bytes not, with a warning") {
  EditedFolder qwen("qwen3-1.7b");
  const std::uint64_t bytes = qwen.index["metadata"]["total_size"].get<std::uint64_t>();
  std::vector<std::string> warnings;
  DescribeOptions options;
  options.warnings = &warnings;
  const std::string expected =
      qwen.folder.str() +
      "/model.safetensors.index.json gives no metadata.total_size: the tensors are checked, "
      "their bytes (" +
      std::to_string(bytes) + ") are not";
  SUBCASE("absent") {
    qwen.index["metadata"].erase("total_size");
    auto model = qwen.describe(options);
    REQUIRE_MESSAGE(model.has_value(), model.error().message);
    CHECK(model.value()->global_bytes() == bytes);
    CHECK(warnings == std::vector<std::string>{expected});
  }
  SUBCASE("0, or null, reads as absent") {
    qwen.index["metadata"]["total_size"] = 0;
    CHECK(qwen.describe(options).has_value());
    qwen.index["metadata"]["total_size"] = nullptr;
    CHECK(qwen.describe(options).has_value());
    CHECK(warnings == std::vector<std::string>{expected, expected});
  }
  SUBCASE("the tensors are still checked") {
    qwen.index["metadata"].erase("total_size");
    qwen.index["weight_map"].erase("model.norm.weight");
    const Error error = qwen.error();
    CHECK(error.code == Status::CheckpointMismatch);
    CHECK(error.message.find("model.norm.weight") != std::string::npos);
  }
  SUBCASE("a total that is not a byte count is refused") {
    qwen.index["metadata"]["total_size"] = "3441149952";
    const Error error = qwen.error();
    CHECK(error.code == Status::Parse);
    CHECK(error.message == qwen.folder.str() +
                               "/model.safetensors.index.json: metadata.total_size must be an "
                               "integer byte count");
  }
  SUBCASE("an index with its total leaves no warning") {
    CHECK(qwen.describe(options).has_value());
    CHECK(warnings.empty());
  }
}

}  // namespace
}  // namespace eredu
