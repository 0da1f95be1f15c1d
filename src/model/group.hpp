// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Logical parameter groups (seed ParameterRole, MemberSharding,
// ParameterMemberSpec, ParameterGroupSpec) plus this project's member dtype
// and group scope (docs/planning.md, "Parameter groups").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "format/dtype.hpp"
#include "format/linear_format.hpp"
#include "topology/balanced_range.hpp"

namespace eredu {

/// Semantic role of a logical parameter group. Values match EREDU_ROLE_*.
enum class ParameterRole : std::uint32_t {
  Replicated = 0,
  ColumnProjection = 1,
  RowProjection = 2,
  Vocabulary = 3,
  AttentionHeads = 4,
  FeedForwardIntermediate = 5,
  ExpertIntermediate = 6,
  Channels = 7,
  Segmented = 8,
};
inline constexpr std::uint32_t kRoleCount = 9;

/// snake_case name ("attention_heads").
std::string_view role_name(ParameterRole role);
std::optional<ParameterRole> parse_role(std::string_view name);
std::optional<ParameterRole> role_from_value(std::uint32_t value);

/// The six rank-local selection rules. Values match EREDU_SHARDING_*.
enum class ShardingKind : std::uint32_t {
  Replicated = 0,
  Equal = 1,
  Balanced = 2,
  Partitioned = 3,
  PartitionedSegments = 4,
  Segmented = 5,
};
inline constexpr std::uint32_t kShardingKindCount = 6;

std::string_view sharding_kind_name(ShardingKind kind);
std::optional<ShardingKind> parse_sharding_kind(std::string_view name);
std::optional<ShardingKind> sharding_kind_from_value(std::uint32_t value);

/// Seed `MemberSharding`: `axis` is meaningful for every kind but Replicated;
/// `segments` (half-open element offsets on `axis`) only for the two
/// segment kinds. `per_kv_head` (partitioned kinds only) marks a member whose
/// units are KV heads held whole when KV heads are replicated (k and v
/// projections, their biases and companions); the other partitioned members
/// of such a group follow the query heads (docs/planning.md, "KV-head
/// replication"). `expert_axis`, when set, is the axis along which the
/// member stacks its layer's routed experts: expert parallelism splits it
/// in balanced expert ranges, on top of the tensor-parallel rule of `kind`
/// on another axis (docs/planning.md, "Stacked experts").
struct MemberSharding {
  ShardingKind kind = ShardingKind::Replicated;
  std::uint64_t axis = 0;
  std::vector<IndexRange> segments;
  bool per_kv_head = false;
  std::optional<std::uint64_t> expert_axis;

  static MemberSharding replicated() { return {}; }
  static MemberSharding equal(std::uint64_t axis) {
    return {ShardingKind::Equal, axis, {}, false, std::nullopt};
  }
  static MemberSharding balanced(std::uint64_t axis) {
    return {ShardingKind::Balanced, axis, {}, false, std::nullopt};
  }
  static MemberSharding partitioned(std::uint64_t axis) {
    return {ShardingKind::Partitioned, axis, {}, false, std::nullopt};
  }
  static MemberSharding partitioned_segments(std::uint64_t axis, std::vector<IndexRange> segments) {
    return {ShardingKind::PartitionedSegments, axis, std::move(segments), false, std::nullopt};
  }
  static MemberSharding segmented(std::uint64_t axis, std::vector<IndexRange> segments) {
    return {ShardingKind::Segmented, axis, std::move(segments), false, std::nullopt};
  }
  /// This sharding with per_kv_head set.
  MemberSharding kv_head() && {
    per_kv_head = true;
    return std::move(*this);
  }
  /// This sharding with expert_axis `experts`.
  MemberSharding stacked_experts(std::uint64_t experts) && {
    expert_axis = experts;
    return std::move(*this);
  }

  /// True for Partitioned and PartitionedSegments (the seed's contract).
  bool is_partitioned() const {
    return kind == ShardingKind::Partitioned || kind == ShardingKind::PartitionedSegments;
  }
  friend bool operator==(const MemberSharding&, const MemberSharding&) = default;
};

/// The most axes a member's tensor may have (EREDU_MAX_NDIM of the C API).
/// Every path into a group (the C builder, the JSON reader, the describer)
/// meets this limit in ParameterGroupSpec's rules.
inline constexpr std::size_t kMaxAxes = 1024;

/// Seed `ParameterMemberSpec`: one physical checkpoint tensor, its exact
/// pre-selection shape (elements per axis, outermost first), its selection
/// rule and, for byte accounting, its optional element type.
class ParameterMemberSpec {
 public:
  ParameterMemberSpec() = default;
  ParameterMemberSpec(std::string target, std::vector<std::uint64_t> global_shape,
                      MemberSharding sharding, std::optional<Dtype> dtype = std::nullopt)
      : target_(std::move(target)),
        global_shape_(std::move(global_shape)),
        sharding_(std::move(sharding)),
        dtype_(dtype) {}

  const std::string& target() const { return target_; }
  const std::vector<std::uint64_t>& global_shape() const { return global_shape_; }
  const MemberSharding& sharding() const { return sharding_; }
  std::optional<Dtype> dtype() const { return dtype_; }

  friend bool operator==(const ParameterMemberSpec&, const ParameterMemberSpec&) = default;

 private:
  std::string target_;
  std::vector<std::uint64_t> global_shape_;
  MemberSharding sharding_;
  std::optional<Dtype> dtype_;
};

/// Which pipeline stages and expert ranks own a group (docs/planning.md,
/// "Ownership").
/// `kind` Indexed uses `layer` and/or `expert` (at least one is set).
struct GroupScope {
  enum class Kind : std::uint32_t {
    All = 0,
    Embedding = 1,
    OutputHead = 2,
    TiedEmbedding = 3,
    Indexed = 4,
  };
  Kind kind = Kind::All;
  std::optional<std::uint64_t> layer;
  std::optional<std::uint64_t> expert;

  static GroupScope all() { return {}; }
  static GroupScope embedding() { return {Kind::Embedding, {}, {}}; }
  static GroupScope output_head() { return {Kind::OutputHead, {}, {}}; }
  static GroupScope tied_embedding() { return {Kind::TiedEmbedding, {}, {}}; }
  static GroupScope indexed(std::optional<std::uint64_t> layer,
                            std::optional<std::uint64_t> expert) {
    return {Kind::Indexed, layer, expert};
  }
  friend bool operator==(const GroupScope&, const GroupScope&) = default;
};

/// A matrix that linear-format expansion produced: the member as declared
/// (the logical dense shape, dtype and sharding), its format, and where its
/// physical members stand in the group — the packed weight at `first`, then
/// the scale and the affine bias, `count` members in all. The planner and the
/// coverage proof hold these members to the companion rule (docs/decisions.md,
/// "Companion consistency").
struct EncodedMatrix {
  ParameterMemberSpec logical;
  LinearFormatSpec format;
  std::uint32_t first = 0;
  std::uint32_t count = 1;
  friend bool operator==(const EncodedMatrix&, const EncodedMatrix&) = default;
};

/// Seed `ParameterGroupSpec`: an atomic logical parameter and all of its
/// physical companions. Immutable once built.
class ParameterGroupSpec {
 public:
  /// Seed `ParameterGroupSpec::new`: an unpartitioned group. Errors
  /// (InvalidGroup) in the seed's order: blank name, no members, a blank
  /// target, a repeated target, a partitioned member without group units.
  static Result<ParameterGroupSpec> create(std::string logical_name, ParameterRole role,
                                           std::vector<ParameterMemberSpec> members,
                                           GroupScope scope = {});
  /// Seed `ParameterGroupSpec::partitioned`: `units` logical units shared by
  /// every partitioned member. units == 0 fails first; then as `create`, and
  /// the group must contain a partitioned member. `query_units` (attention
  /// with grouped-query KV heads: units are the KV heads, query_units the
  /// query heads) enables KV-head replication; it must be a multiple of
  /// `units` (InvalidGroup), checked after the members.
  static Result<ParameterGroupSpec> partitioned(std::string logical_name, ParameterRole role,
                                                std::uint64_t units,
                                                std::vector<ParameterMemberSpec> members,
                                                GroupScope scope = {},
                                                std::optional<std::uint64_t> query_units = {});

  const std::string& logical_name() const { return logical_name_; }
  ParameterRole role() const { return role_; }
  std::optional<std::uint64_t> partition_units() const { return partition_units_; }
  /// The query heads of a grouped-query attention group; nullopt otherwise.
  std::optional<std::uint64_t> query_units() const { return query_units_; }
  /// The vocabulary padding multiple M of a vocabulary group; nullopt when
  /// its rows are not padded (docs/planning.md, "Vocabulary padding").
  std::optional<std::uint64_t> vocab_pad_multiple() const { return vocab_pad_multiple_; }
  /// The vocabulary V its balanced members share: their axis extent;
  /// nullopt without vocab_pad_multiple.
  std::optional<std::uint64_t> padded_vocabulary() const;
  const std::vector<ParameterMemberSpec>& members() const { return members_; }
  /// True when a member stacks routed experts (has an expert_axis).
  bool stacks_experts() const;
  const GroupScope& scope() const { return scope_; }
  /// The matrices format expansion produced, in member order; empty for a
  /// group built from physical members.
  const std::vector<EncodedMatrix>& encoded() const { return encoded_; }

  /// This group with `encoded` recorded (expansion's own step). Each entry's
  /// members must lie inside members(), in ascending, disjoint order.
  ParameterGroupSpec with_encoded(std::vector<EncodedMatrix> encoded) && {
    encoded_ = std::move(encoded);
    return std::move(*this);
  }

  /// A copy of this group whose balanced members are padded to a multiple
  /// of `multiple` × the tensor size (docs/planning.md, "Vocabulary
  /// padding"). Errors (InvalidGroup), in order: `multiple` is 0; the role is
  /// not Vocabulary; no balanced member; balanced members of different
  /// extents on their axes. This group is unchanged either way.
  Result<ParameterGroupSpec> with_vocab_pad_multiple(std::uint64_t multiple) const;

  friend bool operator==(const ParameterGroupSpec&, const ParameterGroupSpec&) = default;

 private:
  static Result<ParameterGroupSpec> build(std::string logical_name, ParameterRole role,
                                          std::optional<std::uint64_t> partition_units,
                                          std::vector<ParameterMemberSpec> members,
                                          GroupScope scope,
                                          std::optional<std::uint64_t> query_units);

  std::string logical_name_;
  ParameterRole role_ = ParameterRole::Replicated;
  std::optional<std::uint64_t> partition_units_;
  std::optional<std::uint64_t> query_units_;
  std::optional<std::uint64_t> vocab_pad_multiple_;
  std::vector<ParameterMemberSpec> members_;
  GroupScope scope_;
  std::vector<EncodedMatrix> encoded_;
};

/// Seed `partitioned_group_with_preferred_units`: reduces `preferred_units`
/// by gcd with every partitioned dimension and every segment length
/// (Segmented too; gcd with 0 leaves it unchanged), then builds a partitioned
/// group (with `query_units`, see `partitioned`). Errors: InvalidTensor for
/// a missing axis, then `partitioned`'s.
Result<ParameterGroupSpec> partitioned_group_with_preferred_units(
    std::string logical_name, ParameterRole role, std::uint64_t preferred_units,
    std::vector<ParameterMemberSpec> members, GroupScope scope = {},
    std::optional<std::uint64_t> query_units = {});

/// Seed `aligned_partition_units`: the finest logical-unit count whose
/// partitions hold whole `required_alignment`-element blocks. InvalidGroup
/// when any argument is 0 or the units cannot form complete partitions.
Result<std::uint64_t> aligned_partition_units(std::string_view name, std::uint64_t semantic_units,
                                              std::uint64_t elements_per_unit,
                                              std::uint64_t required_alignment);

}  // namespace eredu
