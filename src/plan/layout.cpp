// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "plan/layout.hpp"

#include <algorithm>

#include "core/checked.hpp"
#include "model/model.hpp"

namespace eredu {

Result<std::uint64_t> add_rank_bytes(std::uint64_t left, std::uint64_t right) {
  auto sum = checked_add(left, right);
  if (!sum) return fail(Status::Internal, "rank-local byte total overflowed 64 bits");
  return *sum;
}

std::string_view sharding_policy_name(ShardingPolicy policy) {
  switch (policy) {
    case ShardingPolicy::Require:
      break;
    case ShardingPolicy::ReplicateUnsupported:
      return "replicate_unsupported";
    case ShardingPolicy::RequireEven:
      return "require_even";
  }
  return "require";
}

std::optional<ShardingPolicy> parse_sharding_policy(std::string_view name) {
  if (name == "require") return ShardingPolicy::Require;
  if (name == "replicate_unsupported") return ShardingPolicy::ReplicateUnsupported;
  if (name == "require_even") return ShardingPolicy::RequireEven;
  return std::nullopt;
}

const LocalTensorLayout* LocalModelLayout::tensor(std::string_view target) const {
  auto it = std::lower_bound(
      tensors.begin(), tensors.end(), target,
      [](const LocalTensorLayout& entry, std::string_view key) { return entry.target() < key; });
  if (it == tensors.end() || it->target() != target) return nullptr;
  return &*it;
}

}  // namespace eredu
