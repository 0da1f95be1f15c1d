// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// GPTQ and AWQ checkpoints (docs/describe.md, "GPTQ and AWQ"): the real
// qwen3-1.7b folder with its quantization_config and weight index rewritten
// as AutoGPTQ / AutoAWQ store them.
#include <doctest/doctest.h>

#include <string>

#include "described_models.hpp"

namespace eredu {
namespace {

using Shape = std::vector<std::uint64_t>;
using test::check_member;
using test::described;

// qwen3-1.7b: 28 layers, each with q [2048, 2048], k and v [1024, 2048],
// o [2048, 2048], gate and up [6144, 2048], down [2048, 6144] in BF16: the
// dense layer linears are 100663296 bytes of the 3441149952. At 4 bits and
// group 128 a linear [out, in] stores qweight in·out/2 bytes, qzeros
// in·out/256, scales (F16) in·out/64, and GPTQ's g_idx 4·in: 26222592 bytes
// a layer for GPTQ, 26148864 for AWQ.
constexpr std::uint64_t kDenseBytes = 3441149952u;
constexpr std::uint64_t kGptqBytes = kDenseBytes - 28 * 100663296u + 28 * 26222592u;
constexpr std::uint64_t kAwqBytes = kDenseBytes - 28 * 100663296u + 28 * 26148864u;
static_assert(kGptqBytes == 1356810240u);
static_assert(kAwqBytes == 1354745856u);

// `folder` (qwen3-1.7b) with every layer linear's `.weight` replaced by its
// quantized tensors and total_size `bytes`.
void quantize(test::EditedFolder& folder, const nlohmann::json& quantization, bool gptq,
              std::uint64_t bytes) {
  folder.config["quantization_config"] = quantization;
  folder.config["torch_dtype"] = "float16";
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
    for (const char* part : {"qweight", "qzeros", "scales"}) map[module + "." + part] = file;
    if (gptq) map[module + ".g_idx"] = file;
  }
  folder.index["weight_map"] = map;
  folder.index["metadata"]["total_size"] = bytes;
}

nlohmann::json gptq_config(int bits = 4, int group = 128, bool desc_act = false) {
  return {{"quant_method", "gptq"},
          {"bits", bits},
          {"group_size", group},
          {"desc_act", desc_act},
          {"sym", true},
          {"damp_percent", 0.01},
          {"true_sequential", true},
          {"checkpoint_format", "gptq"}};
}

nlohmann::json awq_config(int bits = 4, int group = 128) {
  return {{"quant_method", "awq"},
          {"bits", bits},
          {"group_size", group},
          {"version", "gemm"},
          {"zero_point", true}};
}

TEST_CASE("gptq: qwen3-1.7b 4-bit group 128 packs along the input axis") {
  test::EditedFolder folder("qwen3-1.7b");
  quantize(folder, gptq_config(), true, kGptqBytes);
  auto model = described(folder);
  CHECK(model->tensor_count() == folder.index["weight_map"].size());
  CHECK(model->global_bytes() == kGptqBytes);
  CHECK(model->unknown_bytes_tensors() == 0);

  const ParameterGroupSpec& attn = test::group_named(*model, "model.layers.0.self_attn");
  CHECK(attn.partition_units() == 8u);
  const std::string q = "model.layers.0.self_attn.q_proj.";
  check_member(attn, q + "qweight", {256, 2048}, MemberSharding::partitioned(1), Dtype::I32);
  check_member(attn, q + "qzeros", {16, 256}, MemberSharding::partitioned(1), Dtype::I32);
  check_member(attn, q + "scales", {16, 2048}, MemberSharding::partitioned(1), Dtype::F16);
  check_member(attn, q + "g_idx", {2048}, MemberSharding::replicated(), Dtype::I32);
  const std::string k = "model.layers.0.self_attn.k_proj.";
  check_member(attn, k + "qweight", {256, 1024}, MemberSharding::partitioned(1).kv_head(),
               Dtype::I32);
  check_member(attn, k + "qzeros", {16, 128}, MemberSharding::partitioned(1).kv_head(), Dtype::I32);

  const ParameterGroupSpec& mlp = test::group_named(*model, "model.layers.0.mlp");
  CHECK(mlp.partition_units() == 48u);  // gcd(6144, 768, 48, ...): whole words and groups
  const std::string down = "model.layers.0.mlp.down_proj.";
  check_member(mlp, down + "qweight", {768, 2048}, MemberSharding::partitioned(0), Dtype::I32);
  check_member(mlp, down + "qzeros", {48, 256}, MemberSharding::partitioned(0), Dtype::I32);
  check_member(mlp, down + "scales", {48, 2048}, MemberSharding::partitioned(0), Dtype::F16);
  check_member(mlp, down + "g_idx", {6144}, MemberSharding::partitioned(0), Dtype::I32);

  // Without the index, every partitioned linear is taken to be quantized.
  DescribeOptions config_only;
  config_only.config_only = true;
  auto from_config = folder.describe(config_only);
  REQUIRE_MESSAGE(from_config.has_value(), from_config.error().message);
  CHECK(from_config.value()->global_bytes() == kGptqBytes);

  // Embeddings and norms stay dense.
  CHECK(test::targets(test::group_named(*model, "embed")) ==
        std::vector<std::string>{"model.embed_tokens.weight"});
  test::check_coverage(model, {{1, 1, 1}, {2, 1, 1}, {4, 1, 1}});
}

TEST_CASE("awq: qwen3-1.7b 4-bit group 128 packs along the output axis") {
  test::EditedFolder folder("qwen3-1.7b");
  quantize(folder, awq_config(), false, kAwqBytes);
  auto model = described(folder);
  CHECK(model->tensor_count() == folder.index["weight_map"].size());
  CHECK(model->global_bytes() == kAwqBytes);

  const ParameterGroupSpec& attn = test::group_named(*model, "model.layers.0.self_attn");
  CHECK(attn.partition_units() == 8u);
  const std::string q = "model.layers.0.self_attn.q_proj.";
  check_member(attn, q + "qweight", {2048, 256}, MemberSharding::partitioned(1), Dtype::I32);
  check_member(attn, q + "qzeros", {16, 256}, MemberSharding::partitioned(1), Dtype::I32);
  check_member(attn, q + "scales", {16, 2048}, MemberSharding::partitioned(1), Dtype::F16);

  const ParameterGroupSpec& mlp = test::group_named(*model, "model.layers.0.mlp");
  CHECK(mlp.partition_units() == 48u);
  const std::string down = "model.layers.0.mlp.down_proj.";
  check_member(mlp, down + "qweight", {6144, 256}, MemberSharding::partitioned(0), Dtype::I32);
  check_member(mlp, down + "qzeros", {48, 256}, MemberSharding::partitioned(0), Dtype::I32);
  check_member(mlp, down + "scales", {48, 2048}, MemberSharding::partitioned(0), Dtype::F16);
  test::check_coverage(model, {{1, 1, 1}, {2, 1, 1}, {4, 1, 1}});
}

TEST_CASE("gptq: group_size -1 replicates scales and zeros on a row split") {
  // One group: qzeros [1, out/8] and scales [1, out] instead of in/128 rows
  // (25290752 bytes a layer).
  const std::uint64_t bytes = kGptqBytes - 28 * (26222592u - 25290752u);
  test::EditedFolder folder("qwen3-1.7b");
  quantize(folder, gptq_config(4, -1), true, bytes);
  auto model = described(folder);
  CHECK(model->global_bytes() == bytes);
  const ParameterGroupSpec& mlp = test::group_named(*model, "model.layers.0.mlp");
  const std::string down = "model.layers.0.mlp.down_proj.";
  check_member(mlp, down + "qweight", {768, 2048}, MemberSharding::partitioned(0), Dtype::I32);
  check_member(mlp, down + "qzeros", {1, 256}, MemberSharding::replicated(), Dtype::I32);
  check_member(mlp, down + "scales", {1, 2048}, MemberSharding::replicated(), Dtype::F16);
  check_member(mlp, "model.layers.0.mlp.gate_proj.scales", {1, 6144},
               MemberSharding::partitioned(1), Dtype::F16);
  test::check_coverage(model, {{1, 1, 1}, {2, 1, 1}, {4, 1, 1}});
}

TEST_CASE("gptq: act-order refuses a row split that cuts its groups") {
  test::EditedFolder folder("qwen3-1.7b");
  quantize(folder, gptq_config(4, 128, true), true, kGptqBytes);
  auto model = described(folder);
  CHECK(test::group_named(*model, "model.layers.0.mlp").partition_units() == 1u);
  const ParameterGroupSpec& attn = test::group_named(*model, "model.layers.0.self_attn");
  CHECK(attn.partition_units() == 1u);
  CHECK(attn.query_units() == std::nullopt);  // no KV-head replication either
  test::check_coverage(model, {{1, 1, 1}});
  auto world = plan_world(model, test::topology(2), ShardingPolicy::Require);
  REQUIRE_FALSE(world.has_value());
  CHECK(world.error().code == Status::InvalidTensor);
  CHECK(
      world.error().message ==
      "logical parameter \"model.layers.0.self_attn\": 1 partition unit — declared by the group — "
      "cannot be split 2 ways; tensor sizes up to 64 that work for this group: 1");
}

TEST_CASE("gptq and awq: refused configurations") {
  SUBCASE("a group size that does not divide the input") {
    test::EditedFolder folder("qwen3-1.7b");
    quantize(folder, gptq_config(4, 96), true, kGptqBytes);
    const Error error = folder.error();
    CHECK(error.code == Status::InvalidTensor);
    CHECK(error.message ==
          "model.layers.0.self_attn.q_proj: GPTQ group_size 96 does not divide input width 2048");
  }
  SUBCASE("GPTQ bits") {
    test::EditedFolder folder("qwen3-1.7b");
    quantize(folder, gptq_config(5), true, kGptqBytes);
    const Error error = folder.error();
    CHECK(error.code == Status::InvalidFormat);
    CHECK(error.message == folder.file() +
                               " quantization_config: GPTQ bits must be one of 2, 3, 4, or 8, "
                               "got 5");
  }
  SUBCASE("AWQ bits") {
    test::EditedFolder folder("qwen3-1.7b");
    quantize(folder, awq_config(8), false, kAwqBytes);
    const Error error = folder.error();
    CHECK(error.code == Status::InvalidFormat);
    CHECK(error.message == folder.file() + " quantization_config: AWQ bits must be 4, got 8");
  }
  SUBCASE("GPTQ group size 0") {
    test::EditedFolder folder("qwen3-1.7b");
    quantize(folder, gptq_config(4, 0), true, kGptqBytes);
    const Error error = folder.error();
    CHECK(error.code == Status::InvalidFormat);
    CHECK(error.message ==
          folder.file() + " quantization_config: GPTQ group_size must be positive or -1, got 0");
  }
  SUBCASE("AWQ gemv") {
    nlohmann::json config = awq_config();
    config["version"] = "GEMV";
    test::EditedFolder folder("qwen3-1.7b");
    quantize(folder, config, false, kAwqBytes);
    const Error error = folder.error();
    CHECK(error.code == Status::UnsupportedModel);
    CHECK(error.message == folder.file() +
                               " quantization_config: AWQ version \"gemv\" is not supported; "
                               "supported: \"gemm\"");
  }
  SUBCASE("a family without linear quantization") {
    test::EditedFolder folder("pythia-1.4b-oasst-rm-gptneox");
    folder.config["quantization_config"] = gptq_config();
    const Error error = folder.error();
    CHECK(error.code == Status::UnsupportedModel);
    CHECK(error.message == folder.file() +
                               ": \"gptq\" quantization (quantization_config.quant_method) is "
                               "not supported");
  }
}

}  // namespace
}  // namespace eredu
