// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Describing from an opened checkpoint: the weight index and every header
// are read once, when the checkpoint is opened. Each case breaks the files
// after opening; the description from the checkpoint must not notice, and
// must equal the one read from the intact files.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "checkpoint/open.hpp"
#include "describe/describe.hpp"
#include "example_files.hpp"
#include "interchange/groups_write.hpp"
#include "stories_folder.hpp"

namespace eredu {
namespace {

// Overwrites the first bytes of `path` so that no reader accepts it.
void break_file(const std::string& path) {
  std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
  REQUIRE(file);
  file.write("broken!!", 8);
}

TEST_CASE("a sharded folder: the index and the shard headers are not read again") {
  test::TempFolder folder;
  test::write_stories_folder(folder, 2);
  auto intact = describe_model_dir(folder.str());
  REQUIRE(intact);
  auto checkpoint = open_checkpoint(folder.str());
  REQUIRE(checkpoint);
  REQUIRE(checkpoint.value().index != nullptr);
  CHECK(checkpoint.value().files.size() == 2);

  folder.write("model.safetensors.index.json", "not JSON");
  for (const std::string& shard : checkpoint.value().files) break_file(folder.str() + "/" + shard);
  REQUIRE_FALSE(describe_model_dir(folder.str()));  // the files are broken

  auto described = describe_checkpoint(checkpoint.value());
  REQUIRE(described);
  CHECK(groups_to_json(*described.value()) == groups_to_json(*intact.value()));
  CHECK(described.value()->info().name == folder.path().filename().string());
}

TEST_CASE("model.safetensors alone: its header is not read again") {
  test::TempFolder folder;
  test::write_stories_folder(folder, 0);
  auto intact = describe_model_dir(folder.str());
  REQUIRE(intact);
  auto checkpoint = open_checkpoint(folder.str());
  REQUIRE(checkpoint);
  CHECK(checkpoint.value().index == nullptr);

  break_file(folder.str() + "/model.safetensors");
  auto described = describe_checkpoint(checkpoint.value());
  REQUIRE(described);
  CHECK(groups_to_json(*described.value()) == groups_to_json(*intact.value()));
}

TEST_CASE("a GGUF file: its metadata and tensor infos are not read again") {
  test::TempFolder folder;
  const std::string copy = folder.str() + "/stories260K.gguf";
  std::filesystem::copy_file(test::example_file(test::kStories), copy);
  auto intact = describe_model(copy);
  REQUIRE(intact);
  auto checkpoint = open_checkpoint(copy);
  REQUIRE(checkpoint);
  REQUIRE(checkpoint.value().gguf != nullptr);

  break_file(copy);
  REQUIRE_FALSE(describe_model(copy));
  auto described = describe_checkpoint(checkpoint.value());
  REQUIRE(described);
  CHECK(groups_to_json(*described.value()) == groups_to_json(*intact.value()));
  CHECK(described.value()->info().name == "stories260K");
}

TEST_CASE("config_only describes from config.json, whatever the checkpoint holds") {
  test::TempFolder folder;
  test::write_stories_folder(folder, 2);
  auto checkpoint = open_checkpoint(folder.str());
  REQUIRE(checkpoint);
  DescribeOptions options;
  options.config_only = true;
  auto from_checkpoint = describe_checkpoint(checkpoint.value(), options);
  auto from_config = describe_model_dir(folder.str(), options);
  REQUIRE(from_checkpoint);
  REQUIRE(from_config);
  CHECK(groups_to_json(*from_checkpoint.value()) == groups_to_json(*from_config.value()));
}

TEST_CASE("a safetensors file opened directly has no configuration to describe") {
  auto checkpoint = open_checkpoint(test::example_file(test::kLora));
  REQUIRE(checkpoint);
  auto described = describe_checkpoint(checkpoint.value());
  REQUIRE_FALSE(described);
  CHECK(described.error().code == Status::Parse);
  CHECK(described.error().message ==
        test::example_file(test::kLora) +
            ": a safetensors file holds no configuration to describe its model; describe the "
            "model's folder, or load a description of it (eredu.groups.v1)");
}

TEST_CASE("a malformed metadata.total_size fails describing, not opening") {
  test::TempFolder folder;
  test::write_stories_folder(folder, 2);
  nlohmann::json index = test::read_json(folder.str(), "model.safetensors.index.json");
  index["metadata"]["total_size"] = "many";
  folder.write("model.safetensors.index.json", index.dump());
  auto checkpoint = open_checkpoint(folder.str());
  REQUIRE(checkpoint);
  CHECK(checkpoint.value().index->total_size_malformed);
  auto described = describe_checkpoint(checkpoint.value());
  REQUIRE_FALSE(described);
  CHECK(described.error().code == Status::Parse);
  CHECK(described.error().message ==
        folder.str() +
            "/model.safetensors.index.json: metadata.total_size must be an integer "
            "byte count");
}

}  // namespace
}  // namespace eredu
