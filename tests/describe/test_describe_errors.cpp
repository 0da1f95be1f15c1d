// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// describe_model_dir's failures: unsupported models, malformed files and
// checkpoints that disagree with their description.
#include <doctest/doctest.h>

#include <filesystem>

#include "describe/describe.hpp"
#include "describe/registry.hpp"
#include "model_folders.hpp"

namespace eredu {
namespace {

using nlohmann::json;

Error describe_error(const std::string& dir) {
  auto model = describe_model_dir(dir);
  REQUIRE_FALSE(model.has_value());
  return model.error();
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// A tiny llama folder with `config` and `index` written as given.
struct TinyFolder {
  test::TempFolder folder;
  TinyFolder(const json& config, const json& index) {
    folder.write("config.json", config.dump());
    folder.write("model.safetensors.index.json", index.dump());
  }
};

TEST_CASE("bitsandbytes int8 checkpoint: UnsupportedModel naming it") {
  Error error = describe_error(test::example_model("llama-3.1-8b-bnb-int8"));
  CHECK(error.code == Status::UnsupportedModel);
  CHECK(contains(error.message, "bitsandbytes int8"));
}

TEST_CASE("another family, another quantization, no dtype: UnsupportedModel") {
  json config = test::tiny_llama_config();
  SUBCASE("t5") {
    config["model_type"] = "t5";
    TinyFolder tiny(config, test::tiny_llama_index());
    Error error = describe_error(tiny.folder.str());
    CHECK(error.code == Status::UnsupportedModel);
    CHECK(error.message == tiny.folder.str() +
                               "/config.json: model_type \"t5\" is not supported; supported: " +
                               supported_model_types());
    // The recipe families first, then the families of their own code.
    CHECK(supported_model_types().starts_with("llama, mistral, qwen2, qwen3, phi3, "));
    CHECK(supported_model_types().ends_with(
        ", falcon, gpt_oss, qwen2_moe, qwen3_moe, qwen3_5_moe, qwen3_5_moe_text, "
        "gpt_neox, gpt_neox_reward_model, qwen, qwen2_vl, gemma3, deepseek_v2, "
        "deepseek_v3, mistral3"));
  }
  SUBCASE("fp8 quantization_config") {
    config["quantization_config"] = {{"quant_method", "fp8"}};
    TinyFolder tiny(config, test::tiny_llama_index());
    Error error = describe_error(tiny.folder.str());
    CHECK(error.code == Status::UnsupportedModel);
    CHECK(contains(error.message, "\"fp8\""));
  }
  SUBCASE("neither torch_dtype nor dtype") {
    config.erase("torch_dtype");
    TinyFolder tiny(config, test::tiny_llama_index());
    Error error = describe_error(tiny.folder.str());
    CHECK(error.code == Status::UnsupportedModel);
    CHECK(contains(error.message, "torch_dtype"));
  }
  SUBCASE("float8 dtype") {
    config["torch_dtype"] = "float8_e4m3fn";
    TinyFolder tiny(config, test::tiny_llama_index());
    CHECK(describe_error(tiny.folder.str()).code == Status::UnsupportedModel);
  }
}

TEST_CASE("the tiny llama: head_dim wins, dtype key, kv heads default") {
  json config = test::tiny_llama_config();
  SUBCASE("head_dim 32 is used, not hidden / heads = 16") {
    TinyFolder tiny(config, test::tiny_llama_index());
    auto model = describe_model_dir(tiny.folder.str());
    REQUIRE_MESSAGE(model.has_value(), model.error().message);
    const ParameterGroupSpec& attn = model.value()->groups()[1];
    CHECK(attn.members()[0].global_shape() == std::vector<std::uint64_t>{128, 64});
    CHECK(attn.members()[1].global_shape() == std::vector<std::uint64_t>{64, 64});
    CHECK(attn.members()[3].global_shape() == std::vector<std::uint64_t>{64, 128});
    CHECK(attn.partition_units() == 2u);
  }
  SUBCASE("`dtype` (newer transformers) is read like torch_dtype") {
    config.erase("torch_dtype");
    config["dtype"] = "float16";
    TinyFolder tiny(config, test::tiny_llama_index());
    CHECK(describe_model_dir(tiny.folder.str()).has_value());
  }
  SUBCASE("without num_key_value_heads the kv heads are the heads") {
    config.erase("num_key_value_heads");
    json index = test::tiny_llama_index();
    // k and v grow from 2 to 4 kv heads: 2 layers × 2 tensors × 64×64 × 2 bytes.
    index["metadata"]["total_size"] =
        index["metadata"]["total_size"].get<std::uint64_t>() + 2 * 2 * 64 * 64 * 2;
    TinyFolder tiny(config, index);
    auto model = describe_model_dir(tiny.folder.str());
    REQUIRE_MESSAGE(model.has_value(), model.error().message);
    CHECK(model.value()->groups()[1].partition_units() == 4u);
  }
  SUBCASE("tie_word_embeddings with an lm_head.weight keeps the head") {
    config["tie_word_embeddings"] = true;
    TinyFolder tiny(config, test::tiny_llama_index());
    auto model = describe_model_dir(tiny.folder.str());
    REQUIRE(model.has_value());
    CHECK(model.value()->groups().front().scope() == GroupScope::embedding());
    CHECK(model.value()->groups().back().members().size() == 2);
  }
}

TEST_CASE("checkpoint mismatch: missing and extra names, byte totals") {
  const json config = test::tiny_llama_config();
  json index = test::tiny_llama_index();
  SUBCASE("an index without one described tensor") {
    index["weight_map"].erase("model.layers.1.mlp.up_proj.weight");
    TinyFolder tiny(config, index);
    Error error = describe_error(tiny.folder.str());
    CHECK(error.code == Status::CheckpointMismatch);
    CHECK(contains(error.message,
                   "1 described tensors missing from the index: "
                   "\"model.layers.1.mlp.up_proj.weight\""));
  }
  SUBCASE("an index with tensors the table does not describe") {
    for (int i = 0; i < 7; ++i) {
      index["weight_map"]["model.layers.0.mlp.down_proj.SCB" + std::to_string(i)] = "x";
    }
    TinyFolder tiny(config, index);
    Error error = describe_error(tiny.folder.str());
    CHECK(error.code == Status::CheckpointMismatch);
    CHECK(contains(error.message,
                   "7 index tensors not described: "
                   "\"model.layers.0.mlp.down_proj.SCB0\""));
    CHECK(contains(error.message, "(2 more)"));
  }
  SUBCASE("total_size two bytes above the described bytes") {
    const std::uint64_t described = index["metadata"]["total_size"].get<std::uint64_t>();
    index["metadata"]["total_size"] = described + 2;
    TinyFolder tiny(config, index);
    Error error = describe_error(tiny.folder.str());
    CHECK(error.code == Status::CheckpointMismatch);
    CHECK(contains(error.message, std::to_string(described)));
    CHECK(contains(error.message, std::to_string(described + 2)));
    CHECK(contains(error.message, "fewer by 2"));
  }
  SUBCASE("an untied config whose index has no lm_head.weight") {
    index["weight_map"].erase("lm_head.weight");
    TinyFolder tiny(config, index);
    Error error = describe_error(tiny.folder.str());
    CHECK(error.code == Status::CheckpointMismatch);
    CHECK(contains(error.message, "\"lm_head.weight\""));
  }
}

TEST_CASE("unreadable and malformed folders: Io and Parse") {
  SUBCASE("no such folder") {
    CHECK(describe_error("/nonexistent/eredu-model").code == Status::Io);
  }
  SUBCASE("no weight index") {
    test::TempFolder folder;
    folder.write("config.json", test::tiny_llama_config().dump());
    Error error = describe_error(folder.str());
    CHECK(error.code == Status::Io);
    CHECK(contains(error.message, "model.safetensors.index.json"));
  }
  SUBCASE("config.json is not JSON") {
    test::TempFolder folder;
    folder.write("config.json", "{\"model_type\": ");
    CHECK(describe_error(folder.str()).code == Status::Parse);
  }
  SUBCASE("config.json repeats a key") {
    test::TempFolder folder;
    folder.write("config.json", "{\"model_type\": \"llama\", \"extra\": {\"a\": 1, \"a\": 2}}");
    Error error = describe_error(folder.str());
    CHECK(error.code == Status::Parse);
    CHECK(contains(error.message, "repeats the key \"a\""));
  }
  SUBCASE("a count that is not a positive integer") {
    json config = test::tiny_llama_config();
    config["num_hidden_layers"] = 0;
    TinyFolder tiny(config, test::tiny_llama_index());
    Error error = describe_error(tiny.folder.str());
    CHECK(error.code == Status::Parse);
    CHECK(contains(error.message, "num_hidden_layers"));
  }
  SUBCASE("an index without metadata describes, its byte total unchecked") {
    json index = test::tiny_llama_index();
    index.erase("metadata");
    TinyFolder tiny(test::tiny_llama_config(), index);
    CHECK(describe_model_dir(tiny.folder.str()).has_value());
  }
}

}  // namespace
}  // namespace eredu
