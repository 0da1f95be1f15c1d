// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// ModelOpt NVFP4 checkpoints (docs/describe.md, "ModelOpt NVFP4"): the real
// qwen3-1.7b folder with its quantization_config and weight index rewritten
// as TensorRT Model Optimizer exports them.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "described_models.hpp"

namespace eredu {
namespace {

using Shape = std::vector<std::uint64_t>;
using test::check_member;

// qwen3-1.7b: 28 layers of 7 linears, Σ out·in = 50331648 elements a layer
// (100663296 BF16 bytes) of the 3441149952. NVFP4 stores weight out·in/2
// bytes, weight_scale out·in/16 F8_E4M3 bytes, and two F32 scalars
// (weight_scale_2, input_scale) per linear.
constexpr std::uint64_t kDenseBytes = 3441149952u;
constexpr std::uint64_t kLayerElements = 50331648u;
constexpr std::uint64_t kNvFp4Layer = kLayerElements / 2 + kLayerElements / 16 + 7 * 2 * 4;
static_assert(kNvFp4Layer == 28311608u);
constexpr std::uint64_t kNvFp4Bytes = kDenseBytes - 28 * 2 * kLayerElements + 28 * kNvFp4Layer;
static_assert(kNvFp4Bytes == 1415302688u);

nlohmann::json nvfp4_config() {
  return {{"quant_method", "modelopt"},
          {"quant_algo", "NVFP4"},
          {"group_size", 16},
          {"kv_cache_quant_algo", nullptr},
          {"exclude_modules", {"lm_head"}}};
}

// `folder` (qwen3-1.7b) with every layer linear's scales added next to its
// `.weight` and total_size `bytes`.
void quantize(test::EditedFolder& folder, const nlohmann::json& quantization, std::uint64_t bytes) {
  folder.config["quantization_config"] = quantization;
  nlohmann::json map = nlohmann::json::object();
  for (const auto& [name, file] : folder.index["weight_map"].items()) {
    map[name] = file;
    const std::string suffix = "_proj.weight";
    const bool linear = name.rfind("model.layers.", 0) == 0 && name.size() > suffix.size() &&
                        name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
    if (!linear) continue;
    const std::string module = name.substr(0, name.size() - std::string(".weight").size());
    for (const char* part : {"weight_scale", "weight_scale_2", "input_scale"}) {
      map[module + "." + part] = file;
    }
  }
  folder.index["weight_map"] = map;
  folder.index["metadata"]["total_size"] = bytes;
}

TEST_CASE("nvfp4: qwen3-1.7b packs two E2M1 values a byte with a scale per 16") {
  test::EditedFolder folder("qwen3-1.7b");
  quantize(folder, nvfp4_config(), kNvFp4Bytes);
  auto described = folder.describe();
  REQUIRE_MESSAGE(described.has_value(), described.error().message);
  auto model = described.value();
  CHECK(model->tensor_count() == folder.index["weight_map"].size());
  CHECK(model->global_bytes() == kNvFp4Bytes);
  CHECK(model->unknown_bytes_tensors() == 0);

  const ParameterGroupSpec& attn = test::group_named(*model, "model.layers.0.self_attn");
  CHECK(attn.partition_units() == 8u);
  const std::string q = "model.layers.0.self_attn.q_proj.";
  check_member(attn, q + "weight", {2048, 1024}, MemberSharding::partitioned(0), Dtype::U8);
  check_member(attn, q + "weight_scale", {2048, 128}, MemberSharding::partitioned(0),
               Dtype::F8E4M3);
  check_member(attn, q + "weight_scale_2", {}, MemberSharding::replicated(), Dtype::F32);
  check_member(attn, q + "input_scale", {}, MemberSharding::replicated(), Dtype::F32);

  const ParameterGroupSpec& mlp = test::group_named(*model, "model.layers.0.mlp");
  CHECK(mlp.partition_units() == 384u);  // down: in/16 = 384 scale columns
  const std::string down = "model.layers.0.mlp.down_proj.";
  check_member(mlp, down + "weight", {2048, 3072}, MemberSharding::partitioned(1), Dtype::U8);
  check_member(mlp, down + "weight_scale", {2048, 384}, MemberSharding::partitioned(1),
               Dtype::F8E4M3);
  check_member(mlp, down + "weight_scale_2", {}, MemberSharding::replicated(), Dtype::F32);

  DescribeOptions config_only;
  config_only.config_only = true;
  auto from_config = folder.describe(config_only);
  REQUIRE_MESSAGE(from_config.has_value(), from_config.error().message);
  CHECK(from_config.value()->global_bytes() == kNvFp4Bytes);
  test::check_coverage(model, {{1, 1, 1}, {2, 1, 1}, {4, 1, 1}});
}

TEST_CASE("nvfp4: refused configurations") {
  SUBCASE("ModelOpt FP8") {
    nlohmann::json quantization = nvfp4_config();
    quantization["quant_algo"] = "FP8";
    test::EditedFolder folder("qwen3-1.7b");
    quantize(folder, quantization, kNvFp4Bytes);
    const Error error = folder.error();
    CHECK(error.code == Status::UnsupportedModel);
    CHECK(error.message == folder.file() +
                               " quantization_config: ModelOpt quant_algo \"FP8\" is not "
                               "supported; supported: \"NVFP4\"");
  }
  SUBCASE("a group size other than 16") {
    nlohmann::json quantization = nvfp4_config();
    quantization["group_size"] = 32;
    test::EditedFolder folder("qwen3-1.7b");
    quantize(folder, quantization, kNvFp4Bytes);
    const Error error = folder.error();
    CHECK(error.code == Status::InvalidFormat);
    CHECK(error.message ==
          folder.file() + " quantization_config: NVFP4 group_size must be 16, got 32");
  }
  SUBCASE("a wildcard exclude entry") {
    nlohmann::json quantization = nvfp4_config();
    quantization["exclude_modules"] = {"lm_head", "model.layers.*.mlp.gate"};
    test::EditedFolder folder("qwen3-1.7b");
    quantize(folder, quantization, kNvFp4Bytes);
    const Error error = folder.error();
    CHECK(error.code == Status::UnsupportedModel);
    CHECK(error.message == folder.file() +
                               " quantization_config: exclude_modules entry "
                               "\"model.layers.*.mlp.gate\" has a wildcard; supported: module "
                               "names");
  }
  SUBCASE("an excluded layer stays dense and no longer matches the index") {
    nlohmann::json quantization = nvfp4_config();
    quantization["exclude_modules"] = {"lm_head", "model.layers.0"};
    test::EditedFolder folder("qwen3-1.7b");
    quantize(folder, quantization, kNvFp4Bytes);
    const Error error = folder.error();
    CHECK(error.code == Status::CheckpointMismatch);
    CHECK(error.message.find("model.layers.0.mlp.down_proj.weight_scale") != std::string::npos);
  }
}

}  // namespace
}  // namespace eredu
