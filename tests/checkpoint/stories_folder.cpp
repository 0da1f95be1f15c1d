// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "stories_folder.hpp"

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>

#include "describe/describe.hpp"

namespace eredu::test {

nlohmann::json stories_config() {
  return {{"architectures", {"LlamaForCausalLM"}},
          {"model_type", "llama"},
          {"hidden_size", 64},
          {"intermediate_size", 172},
          {"num_attention_heads", 8},
          {"num_key_value_heads", 4},
          {"num_hidden_layers", 5},
          {"vocab_size", 512},
          {"max_position_embeddings", 2048},
          {"rms_norm_eps", 1e-5},
          {"tie_word_embeddings", false},
          {"torch_dtype", "float32"}};
}

std::vector<WrittenTensor> stories_tensors(const TempFolder& folder) {
  folder.write("config.json", stories_config().dump());
  auto model = describe_model_dir(folder.str(), DescribeOptions{std::nullopt, true});
  REQUIRE(model);
  std::vector<WrittenTensor> tensors;
  for (const ParameterGroupSpec& group : model.value()->groups()) {
    for (const ParameterMemberSpec& member : group.members()) {
      std::uint64_t bytes = 4;
      for (std::uint64_t dimension : member.global_shape()) bytes *= dimension;
      tensors.push_back({member.target(), "F32", member.global_shape(), bytes});
    }
  }
  std::sort(tensors.begin(), tensors.end(),
            [](const WrittenTensor& a, const WrittenTensor& b) { return a.name < b.name; });
  return tensors;
}

void write_stories_folder(const TempFolder& folder, int shards) {
  const std::vector<WrittenTensor> tensors = stories_tensors(folder);
  if (shards == 0) {
    write_safetensors(folder.str() + "/model.safetensors", tensors);
    return;
  }
  nlohmann::json index = {{"metadata", {{"total_size", 0}}},
                          {"weight_map", nlohmann::json::object()}};
  std::uint64_t total = 0;
  const std::size_t per_shard = (tensors.size() + shards - 1) / shards;
  for (int shard = 0; shard < shards; ++shard) {
    const std::string name = fmt::format("model-{:05}-of-{:05}.safetensors", shard + 1, shards);
    const auto first = tensors.begin() + std::min(tensors.size(), shard * per_shard);
    const auto last = tensors.begin() + std::min(tensors.size(), (shard + 1) * per_shard);
    write_safetensors(folder.str() + "/" + name, {first, last});
    for (auto tensor = first; tensor != last; ++tensor) {
      index["weight_map"][tensor->name] = name;
      total += tensor->bytes;
    }
  }
  index["metadata"]["total_size"] = total;
  folder.write("model.safetensors.index.json", index.dump());
}

}  // namespace eredu::test
