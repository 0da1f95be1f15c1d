// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "model_folders.hpp"

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace eredu::test {

std::string source_path(const std::string& relative) {
  const char* root = std::getenv("EREDU_SOURCE_ROOT");
  if (root == nullptr) throw std::runtime_error("EREDU_SOURCE_ROOT is not set");
  return std::string(root) + "/" + relative;
}

std::string example_model(const std::string& name) {
  return source_path("examples/models/" + name);
}

std::string test_model(const std::string& name) { return source_path("tests/data/models/" + name); }

TempFolder::TempFolder() {
  std::string pattern = (std::filesystem::temp_directory_path() / "eredu-test-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
  path_ = pattern;
}

TempFolder::~TempFolder() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

void TempFolder::write(const std::string& name, const std::string& text) const {
  std::ofstream out(path_ / name, std::ios::binary);
  out << text;
}

nlohmann::json read_json(const std::string& dir, const std::string& name) {
  std::ifstream in(dir + "/" + name);
  std::stringstream text;
  text << in.rdbuf();
  return nlohmann::json::parse(text.str());
}

nlohmann::json tiny_llama_config() {
  return {{"model_type", "llama"},   {"hidden_size", 64},        {"num_attention_heads", 4},
          {"head_dim", 32},          {"num_key_value_heads", 2}, {"intermediate_size", 96},
          {"num_hidden_layers", 2},  {"vocab_size", 100},        {"tie_word_embeddings", false},
          {"torch_dtype", "float16"}};
}

nlohmann::json tiny_llama_index() {
  // Element counts from the config above: q 128×64, k/v 64×64, o 64×128.
  std::vector<std::pair<std::string, std::uint64_t>> tensors = {
      {"model.embed_tokens.weight", 100 * 64},
      {"model.norm.weight", 64},
      {"lm_head.weight", 100 * 64},
  };
  for (int layer = 0; layer < 2; ++layer) {
    const std::string p = "model.layers." + std::to_string(layer) + ".";
    tensors.insert(tensors.end(), {{p + "self_attn.q_proj.weight", 128 * 64},
                                   {p + "self_attn.k_proj.weight", 64 * 64},
                                   {p + "self_attn.v_proj.weight", 64 * 64},
                                   {p + "self_attn.o_proj.weight", 64 * 128},
                                   {p + "input_layernorm.weight", 64},
                                   {p + "post_attention_layernorm.weight", 64},
                                   {p + "mlp.gate_proj.weight", 96 * 64},
                                   {p + "mlp.up_proj.weight", 96 * 64},
                                   {p + "mlp.down_proj.weight", 64 * 96}});
  }
  nlohmann::json map = nlohmann::json::object();
  std::uint64_t bytes = 0;
  for (const auto& [name, elements] : tensors) {
    map[name] = "model.safetensors";
    bytes += elements * 2;
  }
  return {{"metadata", {{"total_size", bytes}}}, {"weight_map", map}};
}

}  // namespace eredu::test
