// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The real example models described by describe_model_dir, and lookups into
// their groups, for the describe tests.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "describe/describe.hpp"
#include "model_folders.hpp"

namespace eredu::test {

/// The description of the example model `name`; the test stops with the
/// error message when describing fails.
inline std::shared_ptr<const ModelDescription> describe(const std::string& name) {
  auto model = describe_model_dir(example_model(name));
  REQUIRE_MESSAGE(model.has_value(), model.error().message);
  return model.value();
}

/// A temporary copy of a real model folder whose config.json and weight index
/// (model.safetensors.index.json) can be edited before describing it.
struct EditedFolder {
  TempFolder folder;
  nlohmann::json config;
  nlohmann::json index;

  explicit EditedFolder(const std::string& name) {
    const std::string source = example_model(name);
    config = read_json(source, "config.json");
    index = read_json(source, "model.safetensors.index.json");
  }
  Result<std::shared_ptr<const ModelDescription>> describe(DescribeOptions options = {}) const {
    folder.write("config.json", config.dump());
    folder.write("model.safetensors.index.json", index.dump());
    return describe_model_dir(folder.str(), options);
  }
  /// The error describing fails with; the test stops when it succeeds.
  Error error() const {
    auto model = describe();
    REQUIRE_FALSE(model.has_value());
    return model.error();
  }
  std::string file() const { return folder.str() + "/config.json"; }
};

/// The group of `model` whose logical name is `name`; the test stops when
/// there is none.
inline const ParameterGroupSpec& group_named(const ModelDescription& model,
                                             const std::string& name) {
  auto it =
      std::find_if(model.groups().begin(), model.groups().end(),
                   [&](const ParameterGroupSpec& group) { return group.logical_name() == name; });
  REQUIRE_MESSAGE(it != model.groups().end(), "no group " << name);
  return *it;
}

/// The member targets of `group`, in order.
inline std::vector<std::string> targets(const ParameterGroupSpec& group) {
  std::vector<std::string> out;
  for (const ParameterMemberSpec& member : group.members()) out.push_back(member.target());
  return out;
}

}  // namespace eredu::test
