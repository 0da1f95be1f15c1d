// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The real example models described by describe_model_dir, and lookups into
// their groups, for the describe tests.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <memory>
#include <string>
#include <vector>

#include "describe/describe.hpp"
#include "model_folders.hpp"
#include "topology/topology.hpp"
#include "world/world.hpp"

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

  /// A folder given by its path rather than an example's name.
  struct Path {
    std::string dir;
  };

  explicit EditedFolder(const std::string& name) : EditedFolder(Path{example_model(name)}) {}
  explicit EditedFolder(const Path& source)
      : config(read_json(source.dir, "config.json")),
        index(read_json(source.dir, "model.safetensors.index.json")) {}
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

/// The topology tp × pp × ep × 1; the test stops when it is not one.
inline ParallelTopology topology(std::uint64_t tp, std::uint64_t pp = 1, std::uint64_t ep = 1) {
  auto created = ParallelTopology::create(tp, pp, ep, 1);
  REQUIRE(created.has_value());
  return created.value();
}

/// Plans every rank of each (tp, pp, ep) of `sizes` under require: the
/// coverage proof holds and rank 0 reports the model's global bytes.
inline void check_coverage(const std::shared_ptr<const ModelDescription>& model,
                           const std::vector<std::array<std::uint64_t, 3>>& sizes) {
  for (const auto& entry : sizes) {
    // Not structured bindings: clang 14 cannot capture them in CAPTURE's lambda.
    const auto& tp = std::get<0>(entry);
    const auto& pp = std::get<1>(entry);
    const auto& ep = std::get<2>(entry);
    CAPTURE(tp);
    CAPTURE(pp);
    CAPTURE(ep);
    auto world = plan_world(model, topology(tp, pp, ep), ShardingPolicy::Require);
    REQUIRE_MESSAGE(world.has_value(), world.error().message);
    CHECK(world.value().coverage_ok());
    CHECK(world.value().ranks[0].totals.global_bytes == model->global_bytes());
  }
}

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

/// The member of `group` whose target is `target`; the test stops when there
/// is none.
inline const ParameterMemberSpec& member_named(const ParameterGroupSpec& group,
                                               const std::string& target) {
  auto it =
      std::find_if(group.members().begin(), group.members().end(),
                   [&](const ParameterMemberSpec& member) { return member.target() == target; });
  REQUIRE_MESSAGE(it != group.members().end(), "no member " << target);
  return *it;
}

/// Checks the member of `group` whose target is `target`: its stored shape,
/// sharding and dtype.
inline void check_member(const ParameterGroupSpec& group, const std::string& target,
                         const std::vector<std::uint64_t>& shape, const MemberSharding& sharding,
                         Dtype dtype) {
  CAPTURE(target);
  const ParameterMemberSpec& member = member_named(group, target);
  CHECK(member.global_shape() == shape);
  CHECK(member.sharding() == sharding);
  CHECK(member.dtype() == dtype);
}

/// `folder` described; the test stops when it fails.
inline std::shared_ptr<const ModelDescription> described(const EditedFolder& folder) {
  auto model = folder.describe();
  REQUIRE_MESSAGE(model.has_value(), model.error().message);
  return model.value();
}

/// The member targets of `group`, in order.
inline std::vector<std::string> targets(const ParameterGroupSpec& group) {
  std::vector<std::string> out;
  for (const ParameterMemberSpec& member : group.members()) out.push_back(member.target());
  return out;
}

}  // namespace eredu::test
