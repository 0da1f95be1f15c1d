// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// compressed-tensors checkpoints (docs/describe.md, "compressed-tensors"):
// the real qwen3-1.7b folder with its quantization_config and weight index
// rewritten as llm-compressor stores them.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "described_models.hpp"

namespace eredu {
namespace {

using Shape = std::vector<std::uint64_t>;
using test::check_member;
using test::described;

// qwen3-1.7b: 28 layers, each with q [2048, 2048], k and v [1024, 2048],
// o [2048, 2048], gate and up [6144, 2048], down [2048, 6144] in BF16: 7
// linears, Σ out·in = 50331648 elements (100663296 bytes) and Σ out = 20480
// a layer, of the 3441149952 bytes.
constexpr std::uint64_t kDenseBytes = 3441149952u;
constexpr std::uint64_t kLayers = 28;
constexpr std::uint64_t kLayerElements = 50331648u;
constexpr std::uint64_t kLayerRows = 20480u;
static_assert(2 * kLayerElements == 100663296u);
constexpr std::uint64_t kLinears = 7;
constexpr std::uint64_t quantized(std::uint64_t layer_bytes) {
  return kDenseBytes - kLayers * 2 * kLayerElements + kLayers * layer_bytes;
}
// W4A16, group 128, BF16 scales: weight_packed out·in/8 words of 4 bytes,
// weight_scale out·in/128 of 2 bytes, weight_shape 2 I64 (16 bytes) each.
constexpr std::uint64_t kW4Layer = kLayerElements / 2 + kLayerElements / 64 + kLinears * 16;
static_assert(kW4Layer == 25952368u);
constexpr std::uint64_t kW4Bytes = quantized(kW4Layer);
static_assert(kW4Bytes == 1349243968u);
// Asymmetric: weight_zero_point [out/8, in/128] I32 adds out·in/256 bytes.
constexpr std::uint64_t kW4AsymBytes = quantized(kW4Layer + kLayerElements / 256);
static_assert(kW4AsymBytes == 1354748992u);
// W8A16 per channel: weight_packed out·in/4 words (out·in bytes), scales
// [out, 1] BF16.
constexpr std::uint64_t kW8Bytes = quantized(kLayerElements + 2 * kLayerRows + kLinears * 16);
static_assert(kW8Bytes == 2033013824u);
// FP8 per channel (dynamic activations): weight out·in bytes, weight_scale
// [out, 1] F32.
constexpr std::uint64_t kFp8ChannelBytes = quantized(kLayerElements + 4 * kLayerRows);
static_assert(kFp8ChannelBytes == 2034157568u);
// FP8 per tensor with static activations: weight_scale and input_scale [1]
// F32 each.
constexpr std::uint64_t kFp8TensorBytes = quantized(kLayerElements + kLinears * 8);
static_assert(kFp8TensorBytes == 2031865376u);

// `folder` (qwen3-1.7b) with every layer linear's `.weight` replaced by
// `parts` and total_size `bytes`; lm_head stays dense (ignored).
void quantize(test::EditedFolder& folder, const nlohmann::json& quantization,
              const std::vector<std::string>& parts, std::uint64_t bytes) {
  folder.config["quantization_config"] = quantization;
  nlohmann::json map = nlohmann::json::object();
  for (const auto& [name, file] : folder.index["weight_map"].items()) {
    const std::string suffix = "_proj.weight";
    const bool linear = name.rfind("model.layers.", 0) == 0 && name.size() > suffix.size() &&
                        name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
    if (!linear) {
      map[name] = file;
      continue;
    }
    const std::string module = name.substr(0, name.size() - std::string(".weight").size());
    for (const std::string& part : parts) map[module + "." + part] = file;
  }
  folder.index["weight_map"] = map;
  folder.index["metadata"]["total_size"] = bytes;
}

const std::vector<std::string> kPacked{"weight_packed", "weight_scale", "weight_shape"};

nlohmann::json weights(int bits, const char* strategy, std::optional<int> group,
                       const char* type = "int") {
  nlohmann::json out = {{"num_bits", bits},     {"type", type},
                        {"strategy", strategy}, {"symmetric", true},
                        {"dynamic", false},     {"actorder", nullptr},
                        {"observer", "minmax"}, {"block_structure", nullptr}};
  out["group_size"] = group ? nlohmann::json(*group) : nlohmann::json(nullptr);
  return out;
}

nlohmann::json config(const char* format, const nlohmann::json& weight_args,
                      const nlohmann::json& activations = nullptr) {
  return {{"quant_method", "compressed-tensors"},
          {"format", format},
          {"quantization_status", "compressed"},
          {"ignore", {"lm_head"}},
          {"kv_cache_scheme", nullptr},
          {"sparsity_config", nlohmann::json::object()},
          {"config_groups",
           {{"group_0",
             {{"targets", {"Linear"}},
              {"weights", weight_args},
              {"input_activations", activations},
              {"output_activations", nullptr}}}}}};
}

nlohmann::json w4a16(int group = 128) {
  return config("pack-quantized", weights(4, "group", group));
}

TEST_CASE("compressed-tensors: qwen3-1.7b W4A16 group 128 packs along the input axis") {
  test::EditedFolder folder("qwen3-1.7b");
  quantize(folder, w4a16(), kPacked, kW4Bytes);
  auto model = described(folder);
  CHECK(model->tensor_count() == folder.index["weight_map"].size());
  CHECK(model->global_bytes() == kW4Bytes);
  CHECK(model->unknown_bytes_tensors() == 0);

  const ParameterGroupSpec& attn = test::group_named(*model, "model.layers.0.self_attn");
  CHECK(attn.partition_units() == 8u);
  const std::string q = "model.layers.0.self_attn.q_proj.";
  check_member(attn, q + "weight_packed", {2048, 256}, MemberSharding::partitioned(0), Dtype::I32);
  check_member(attn, q + "weight_scale", {2048, 16}, MemberSharding::partitioned(0), Dtype::BF16);
  check_member(attn, q + "weight_shape", {2}, MemberSharding::replicated(), Dtype::I64);
  const std::string k = "model.layers.0.self_attn.k_proj.";
  check_member(attn, k + "weight_packed", {1024, 256}, MemberSharding::partitioned(0).kv_head(),
               Dtype::I32);
  const std::string o = "model.layers.0.self_attn.o_proj.";
  check_member(attn, o + "weight_packed", {2048, 256}, MemberSharding::partitioned(1), Dtype::I32);
  check_member(attn, o + "weight_scale", {2048, 16}, MemberSharding::partitioned(1), Dtype::BF16);

  const ParameterGroupSpec& mlp = test::group_named(*model, "model.layers.0.mlp");
  CHECK(mlp.partition_units() == 48u);  // down: in/128 = 48 groups, 768 words
  const std::string down = "model.layers.0.mlp.down_proj.";
  check_member(mlp, down + "weight_packed", {2048, 768}, MemberSharding::partitioned(1),
               Dtype::I32);
  check_member(mlp, down + "weight_scale", {2048, 48}, MemberSharding::partitioned(1), Dtype::BF16);
  check_member(mlp, down + "weight_shape", {2}, MemberSharding::replicated(), Dtype::I64);
  check_member(mlp, "model.layers.0.mlp.gate_proj.weight_scale", {6144, 16},
               MemberSharding::partitioned(0), Dtype::BF16);

  // Without the index, every partitioned linear is taken to be quantized.
  DescribeOptions config_only;
  config_only.config_only = true;
  auto from_config = folder.describe(config_only);
  REQUIRE_MESSAGE(from_config.has_value(), from_config.error().message);
  CHECK(from_config.value()->global_bytes() == kW4Bytes);

  CHECK(test::targets(test::group_named(*model, "embed")) ==
        std::vector<std::string>{"model.embed_tokens.weight"});
  test::check_coverage(model, {{1, 1, 1}, {2, 1, 1}, {4, 1, 1}});
}

TEST_CASE("compressed-tensors: asymmetric W4A16 packs zero points along the output axis") {
  nlohmann::json quantization = w4a16();
  quantization["config_groups"]["group_0"]["weights"]["symmetric"] = false;
  std::vector<std::string> parts = kPacked;
  parts.push_back("weight_zero_point");
  test::EditedFolder folder("qwen3-1.7b");
  quantize(folder, quantization, parts, kW4AsymBytes);
  auto model = described(folder);
  CHECK(model->global_bytes() == kW4AsymBytes);
  const ParameterGroupSpec& mlp = test::group_named(*model, "model.layers.0.mlp");
  CHECK(mlp.partition_units() == 48u);
  check_member(mlp, "model.layers.0.mlp.gate_proj.weight_zero_point", {768, 16},
               MemberSharding::partitioned(0), Dtype::I32);
  check_member(mlp, "model.layers.0.mlp.down_proj.weight_zero_point", {256, 48},
               MemberSharding::partitioned(1), Dtype::I32);
  test::check_coverage(model, {{1, 1, 1}, {2, 1, 1}, {4, 1, 1}});
}

TEST_CASE("compressed-tensors: W8A16 per channel replicates scales on a row split") {
  test::EditedFolder folder("qwen3-1.7b");
  quantize(folder, config("pack-quantized", weights(8, "channel", std::nullopt)), kPacked,
           kW8Bytes);
  auto model = described(folder);
  CHECK(model->global_bytes() == kW8Bytes);
  const ParameterGroupSpec& mlp = test::group_named(*model, "model.layers.0.mlp");
  const std::string down = "model.layers.0.mlp.down_proj.";
  check_member(mlp, down + "weight_packed", {2048, 1536}, MemberSharding::partitioned(1),
               Dtype::I32);
  check_member(mlp, down + "weight_scale", {2048, 1}, MemberSharding::replicated(), Dtype::BF16);
  check_member(mlp, "model.layers.0.mlp.up_proj.weight_scale", {6144, 1},
               MemberSharding::partitioned(0), Dtype::BF16);
  test::check_coverage(model, {{1, 1, 1}, {2, 1, 1}, {4, 1, 1}});
}

TEST_CASE("compressed-tensors: FP8 float-quantized per channel and per tensor") {
  SUBCASE("per channel, dynamic activations") {
    const nlohmann::json activations = {
        {"num_bits", 8}, {"type", "float"}, {"strategy", "token"}, {"dynamic", true}};
    test::EditedFolder folder("qwen3-1.7b");
    quantize(folder,
             config("float-quantized", weights(8, "channel", std::nullopt, "float"), activations),
             {"weight", "weight_scale"}, kFp8ChannelBytes);
    auto model = described(folder);
    CHECK(model->global_bytes() == kFp8ChannelBytes);
    const ParameterGroupSpec& attn = test::group_named(*model, "model.layers.0.self_attn");
    const std::string q = "model.layers.0.self_attn.q_proj.";
    check_member(attn, q + "weight", {2048, 2048}, MemberSharding::partitioned(0), Dtype::F8E4M3);
    check_member(attn, q + "weight_scale", {2048, 1}, MemberSharding::partitioned(0), Dtype::F32);
    const std::string o = "model.layers.0.self_attn.o_proj.";
    check_member(attn, o + "weight_scale", {2048, 1}, MemberSharding::replicated(), Dtype::F32);
    test::check_coverage(model, {{1, 1, 1}, {2, 1, 1}, {4, 1, 1}});
  }
  SUBCASE("per tensor, static activations") {
    const nlohmann::json activations = {
        {"num_bits", 8}, {"type", "float"}, {"strategy", "tensor"}, {"dynamic", false}};
    test::EditedFolder folder("qwen3-1.7b");
    quantize(folder,
             config("float-quantized", weights(8, "tensor", std::nullopt, "float"), activations),
             {"weight", "weight_scale", "input_scale"}, kFp8TensorBytes);
    auto model = described(folder);
    CHECK(model->global_bytes() == kFp8TensorBytes);
    const ParameterGroupSpec& mlp = test::group_named(*model, "model.layers.0.mlp");
    const std::string down = "model.layers.0.mlp.down_proj.";
    check_member(mlp, down + "weight", {2048, 6144}, MemberSharding::partitioned(1), Dtype::F8E4M3);
    check_member(mlp, down + "weight_scale", {1}, MemberSharding::replicated(), Dtype::F32);
    check_member(mlp, down + "input_scale", {1}, MemberSharding::replicated(), Dtype::F32);
    DescribeOptions config_only;
    config_only.config_only = true;
    auto from_config = folder.describe(config_only);
    REQUIRE_MESSAGE(from_config.has_value(), from_config.error().message);
    CHECK(from_config.value()->global_bytes() == kFp8TensorBytes);
    test::check_coverage(model, {{1, 1, 1}, {2, 1, 1}, {4, 1, 1}});
  }
}

TEST_CASE("compressed-tensors: a split that would cut a quantization group is refused") {
  // Group 1024: o_proj's input 2048 holds 2 groups, so self_attn keeps
  // gcd(8, 2) = 2 units and TP 4 would cut a group.
  const std::uint64_t bytes = quantized(kLayerElements / 2 + kLayerElements / 512 + kLinears * 16);
  test::EditedFolder folder("qwen3-1.7b");
  quantize(folder, w4a16(1024), kPacked, bytes);
  auto model = described(folder);
  CHECK(model->global_bytes() == bytes);
  CHECK(test::group_named(*model, "model.layers.0.self_attn").partition_units() == 2u);
  test::check_coverage(model, {{1, 1, 1}, {2, 1, 1}});
  auto world = plan_world(model, test::topology(4), ShardingPolicy::Require);
  REQUIRE_FALSE(world.has_value());
  CHECK(world.error().code == Status::InvalidTensor);
  // Refused on o_proj's scales: 2 group columns cannot be cut by query
  // head (16 heads, 4 to a rank).
  CHECK(world.error().message ==
        "logical parameter \"model.layers.0.self_attn\": tensor "
        "\"model.layers.0.self_attn.o_proj.weight_scale\" dimension 2 on axis 1 does not "
        "contain 16 integral query heads");
}

TEST_CASE("compressed-tensors: refused configurations") {
  SUBCASE("an unknown format") {
    test::EditedFolder folder("qwen3-1.7b");
    quantize(folder, config("marlin-24", weights(4, "group", 128)), kPacked, kW4Bytes);
    const Error error = folder.error();
    CHECK(error.code == Status::UnsupportedModel);
    CHECK(error.message == folder.file() +
                               " quantization_config: compressed-tensors format \"marlin-24\" is "
                               "not supported; supported: \"pack-quantized\", \"float-quantized\"");
  }
  SUBCASE("unsupported num_bits") {
    test::EditedFolder folder("qwen3-1.7b");
    quantize(folder, config("pack-quantized", weights(3, "group", 128)), kPacked, kW4Bytes);
    const Error error = folder.error();
    CHECK(error.code == Status::InvalidFormat);
    CHECK(error.message == folder.file() +
                               " quantization_config config_groups group_0 weights: "
                               "pack-quantized num_bits must be 4 or 8, got 3");
  }
  SUBCASE("FP8 num_bits") {
    test::EditedFolder folder("qwen3-1.7b");
    quantize(folder, config("float-quantized", weights(4, "channel", std::nullopt, "float")),
             {"weight", "weight_scale"}, kFp8ChannelBytes);
    const Error error = folder.error();
    CHECK(error.code == Status::InvalidFormat);
    CHECK(error.message.find("float-quantized num_bits must be 8, got 4") != std::string::npos);
  }
  SUBCASE("a regex ignore entry") {
    nlohmann::json quantization = w4a16();
    quantization["ignore"] = {"lm_head", "re:.*mlp.gate$"};
    test::EditedFolder folder("qwen3-1.7b");
    quantize(folder, quantization, kPacked, kW4Bytes);
    const Error error = folder.error();
    CHECK(error.code == Status::UnsupportedModel);
    CHECK(error.message == folder.file() +
                               " quantization_config: ignore entry \"re:.*mlp.gate$\" is a "
                               "regular expression; supported: module names");
  }
  SUBCASE("block FP8") {
    test::EditedFolder folder("qwen3-1.7b");
    quantize(folder, config("float-quantized", weights(8, "block", std::nullopt, "float")),
             {"weight", "weight_scale"}, kFp8ChannelBytes);
    const Error error = folder.error();
    CHECK(error.code == Status::UnsupportedModel);
    CHECK(error.message.find("strategy \"block\" is not supported for float-quantized") !=
          std::string::npos);
  }
  SUBCASE("a group size that does not divide the input") {
    test::EditedFolder folder("qwen3-1.7b");
    quantize(folder, w4a16(96), kPacked, kW4Bytes);
    const Error error = folder.error();
    CHECK(error.code == Status::InvalidTensor);
    CHECK(error.message ==
          "model.layers.0.self_attn.q_proj: compressed-tensors group_size 96 does not divide "
          "input width 2048");
  }
  SUBCASE("two config groups") {
    nlohmann::json quantization = w4a16();
    quantization["config_groups"]["group_1"] = quantization["config_groups"]["group_0"];
    test::EditedFolder folder("qwen3-1.7b");
    quantize(folder, quantization, kPacked, kW4Bytes);
    const Error error = folder.error();
    CHECK(error.code == Status::UnsupportedModel);
    CHECK(error.message.find("2 config groups are not supported") != std::string::npos);
  }
  SUBCASE("bitsandbytes stays refused") {
    test::EditedFolder folder("qwen3-1.7b");
    folder.config["quantization_config"] = {
        {"quant_method", "bitsandbytes"}, {"load_in_4bit", true}, {"load_in_8bit", false}};
    const Error error = folder.error();
    CHECK(error.code == Status::UnsupportedModel);
    CHECK(error.message == folder.file() + ": bitsandbytes 4-bit quantization is not supported");
  }
}

}  // namespace
}  // namespace eredu
