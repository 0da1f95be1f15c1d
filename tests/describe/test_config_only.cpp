// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Describing from config.json alone (docs/describe.md, "Configuration
// only"): the bundled folders come out as their weight indexes describe
// them, and DeepSeek-R1, whose index is not bundled, is planned from its
// configuration.
#include <doctest/doctest.h>

#include "described_models.hpp"
#include "interchange/groups_write.hpp"
#include "model_folders.hpp"

namespace eredu {
namespace {

std::shared_ptr<const ModelDescription> config_only(const std::string& name) {
  auto model = describe_model_dir(test::example_model(name), DescribeOptions{std::nullopt, true});
  REQUIRE_MESSAGE(model.has_value(), model.error().message);
  return model.value();
}

TEST_CASE("every bundled family: config.json alone gives the index's description") {
  for (const char* name :
       {"qwen3-1.7b", "mistral-7b-v0.1", "reflection-llama-3.1-70b", "qwen2.5-14b-sakura",
        "qwen3-14b-mlx-4bit", "phi-3-mini-3b-slerp", "gpt-oss-20b", "mixtral-8x7b-dolphin-2.5",
        "qwen3.5-25b-reap-a3b-moe", "pythia-1.4b-oasst-rm-gptneox", "qwen1-72b",
        "olmocr-7b-qwen2-vl", "medgemma-27b-gemma3", "granite-3.1-1b-a400m-granitemoe"}) {
    CAPTURE(name);
    CHECK(groups_to_json(*config_only(name)) == groups_to_json(*test::describe(name)));
  }
}

TEST_CASE("config.json alone follows tie_word_embeddings where a checkpoint stores the head too") {
  // falcon-180b-chat's config ties the head (the default), yet its index
  // holds lm_head.weight: from the config there is no head projection.
  const auto model = config_only("falcon-180b-chat");
  CHECK(model->tensor_count() == 643);
  CHECK(test::targets(model->groups().back()) ==
        std::vector<std::string>{"transformer.ln_f.weight", "transformer.ln_f.bias"});
}

TEST_CASE("DeepSeek-R1 from its config: 61 layers, 256 experts, the MTP layer, block-FP8") {
  const auto model = config_only("deepseek-r1");
  CHECK(model->info() == ModelInfo{std::string("deepseek-r1"), 61, 256});
  CHECK(model->tensor_count() == 91992);
  CHECK(model->global_bytes() == 688472104000u);
  const ParameterGroupSpec& mtp = test::group_named(*model, "model.layers.61.mtp");
  CHECK(mtp.scope() == GroupScope::indexed(60, std::nullopt));
  CHECK(test::group_named(*model, "model.layers.61.mlp.experts.255").scope() ==
        GroupScope::indexed(60, 255));
  const ParameterGroupSpec& shared = test::group_named(*model, "model.layers.3.mlp.shared_experts");
  CHECK(shared.partition_units() == std::optional<std::uint64_t>{16});
  CHECK(test::group_named(*model, "model.layers.2.mlp").role() ==
        ParameterRole::FeedForwardIntermediate);
}

TEST_CASE("a folder without an index needs --config-only") {
  test::TempFolder folder;
  const auto config = test::read_json(test::example_model("deepseek-r1"), "config.json");
  folder.write("config.json", config.dump());
  auto refused = describe_model_dir(folder.str());
  REQUIRE_FALSE(refused.has_value());
  CHECK(refused.error().code == Status::Io);
  auto planned = describe_model_dir(folder.str(), DescribeOptions{std::nullopt, true});
  REQUIRE_MESSAGE(planned.has_value(), planned.error().message);
  CHECK(planned.value()->tensor_count() == 91992);
}

}  // namespace
}  // namespace eredu
