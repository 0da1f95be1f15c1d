// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Seed `LocalTensorLayout` / `LocalModelLayout` plus the byte totals of
// `eredu.layout.v1` (docs/interchange.md).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "model/group.hpp"
#include "plan/placement.hpp"
#include "topology/topology.hpp"

namespace eredu {

class ModelDescription;

/// Seed `ShardingPolicy`, plus RequireEven (docs/planning.md, "Policies"):
/// Require, and every split of partition units, balanced extents and routed
/// experts must be exact. Values match EREDU_POLICY_*.
enum class ShardingPolicy : std::uint32_t {
  Require = 0,
  ReplicateUnsupported = 1,
  RequireEven = 2
};

std::string_view sharding_policy_name(ShardingPolicy policy);  // "require", ...
std::optional<ShardingPolicy> parse_sharding_policy(std::string_view name);

/// Whether a group that cannot be sharded is an error (Require,
/// RequireEven) rather than replicated whole.
constexpr bool refuses_fallback(ShardingPolicy policy) {
  return policy != ShardingPolicy::ReplicateUnsupported;
}

/// A rank-local shape, elements per axis, outermost first.
using LocalShape = std::vector<std::uint64_t>;

/// One planned physical tensor on one rank. It points into the model
/// description that the owning LocalModelLayout keeps alive.
struct LocalTensorLayout {
  const ParameterGroupSpec* group = nullptr;
  const ParameterMemberSpec* member = nullptr;
  LocalShape local_shape;  // [] for Omit
  TensorPlacement placement;
  std::optional<IndexRange> logical_range;
  bool fell_back_to_replication = false;
  /// Tensor ranks holding this same selection: the KV-head copies of a
  /// per_kv_head member under KV-head replication, else 1.
  std::uint64_t kv_head_copies = 1;
  /// Rows of local_shape past the checkpoint's under vocabulary padding:
  /// allocated on this rank, not read; else 0.
  std::uint64_t padding_rows = 0;
  /// The routed experts [start, end) this rank holds of a member that stacks
  /// them on its sharding's expert_axis (docs/planning.md, "Stacked
  /// experts"); nullopt for other members and for Omit.
  std::optional<IndexRange> expert_range;
  /// Elements of local_shape × dtype size; 0 for Omit; nullopt without dtype.
  std::optional<std::uint64_t> local_bytes;

  const std::string& target() const { return member->target(); }
  const std::string& logical_name() const { return group->logical_name(); }
  ParameterRole role() const { return group->role(); }
  const std::vector<std::uint64_t>& global_shape() const { return member->global_shape(); }
  std::optional<std::uint64_t> logical_units() const { return group->partition_units(); }
};

/// Byte and tensor totals of one rank (`totals` of eredu.layout.v1,
/// docs/interchange.md).
struct LayoutTotals {
  std::uint64_t local_bytes = 0;
  std::uint64_t global_bytes = 0;
  std::uint64_t materialized_tensors = 0;
  std::uint64_t omitted_tensors = 0;
  std::uint64_t unknown_bytes_tensors = 0;
  friend bool operator==(const LayoutTotals&, const LayoutTotals&) = default;
};

/// `left + right`, a rank-local byte total. Errors: Internal on overflow
/// (impossible for a planned layout, whose local bytes never exceed the
/// model's global bytes).
Result<std::uint64_t> add_rank_bytes(std::uint64_t left, std::uint64_t right);

/// What one rank holds of a mixture of experts. A routed-expert unit is one
/// (layer, expert) pair: the groups scoped to that expert in that layer and
/// that expert's slice of every stacked member of the layer. Bytes are
/// local bytes; members without a dtype add 0.
struct RankExperts {
  IndexRange held;                       // the rank's experts of every layer
  std::uint64_t routed_bytes = 0;        // every routed-expert unit
  std::uint64_t other_bytes = 0;         // everything else the rank holds
  std::uint64_t units = 0;               // routed-expert units held
  std::uint64_t largest_unit_bytes = 0;  // the largest one (0 without units)
  friend bool operator==(const RankExperts&, const RankExperts&) = default;
};

/// Seed `LocalModelLayout`: every tensor of the model on one rank, sorted by
/// target (byte-wise). Immutable; safe to read from many threads.
struct LocalModelLayout {
  std::shared_ptr<const ModelDescription> model;
  ParallelTopology topology;
  std::uint64_t rank = 0;
  ParallelCoordinates coordinates;
  ShardingPolicy policy = ShardingPolicy::Require;
  std::vector<LocalTensorLayout> tensors;  // sorted by target
  LayoutTotals totals;
  std::vector<std::uint32_t> fell_back_groups;  // group indices, document order
  /// The routed experts this rank holds (rank_experts); nullopt when the
  /// model has no expert count.
  std::optional<RankExperts> experts;

  /// Binary search by target; nullptr when absent.
  const LocalTensorLayout* tensor(std::string_view target) const;
};

}  // namespace eredu
