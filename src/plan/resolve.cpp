// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "plan/resolve.hpp"

#include <fmt/ranges.h>

#include <algorithm>

#include "core/checked.hpp"
#include "core/text.hpp"

namespace eredu {
namespace {

struct Resolver {
  const ParameterMemberSpec& member;
  std::optional<std::uint64_t> units;
  std::optional<KvReplication> kv;
  std::optional<std::uint64_t> pad_multiple;
  std::uint64_t parts;
  std::uint64_t rank;
  bool even;

  auto invalid(std::string_view detail) const {
    return failf(Status::InvalidTensor, "tensor {} {}", debug_quoted(member.target()), detail);
  }

  // A topology error (balanced range) keeps its text but becomes a tensor error.
  static Error as_tensor_error(Error error) {
    error.code = Status::InvalidTensor;
    return error;
  }

  Result<std::uint64_t> checked_axis(std::uint64_t axis) const {
    const auto& shape = member.global_shape();
    if (axis >= shape.size()) {
      return invalid(fmt::format("axis {} is outside shape [{}]", axis, fmt::join(shape, ", ")));
    }
    return shape[axis];
  }

  // `what` names the extent for the messages ("axis 0 extent 11"): fewer
  // items than ranks, or require_even's uneven split.
  Result<IndexRange> balanced(std::uint64_t total, std::string_view what) const {
    if (total < parts) return invalid(fmt::format("{} cannot be split {} ways", what, parts));
    if (even && total % parts != 0) {
      return invalid(fmt::format("{} does not split evenly {} ways under require_even; {}", what,
                                 parts, dividing_sizes_text(total, kTensorSizeSearch)));
    }
    auto range = balanced_contiguous_range(total, parts, rank, false);
    if (!range) return outcome::failure(as_tensor_error(range.error()));
    return range.value();
  }

  static std::string units_text(std::uint64_t count) {
    return fmt::format("the group's {} partition unit{}", count, count == 1 ? "" : "s");
  }

  Result<std::uint64_t> group_units() const {
    if (!units) return invalid("has no group-level logical partition");
    return *units;
  }

  // Checks a segment's bounds and order against the previous segment's end.
  Result<void> check_segment(const IndexRange& segment, std::uint64_t axis, std::uint64_t dimension,
                             std::uint64_t previous_end, std::string_view kind) const {
    if (segment.start >= segment.end || segment.end > dimension) {
      return invalid(fmt::format("segment {}..{} is invalid for axis-{} dimension {}",
                                 segment.start, segment.end, axis, dimension));
    }
    if (segment.start < previous_end) {
      return invalid(fmt::format("{} ranges overlap or are out of order", kind));
    }
    return outcome::success();
  }

  Result<ResolvedMember> resolve() const {
    const MemberSharding& sharding = member.sharding();
    const std::uint64_t axis = sharding.axis;
    switch (sharding.kind) {
      case ShardingKind::Replicated:
        return ResolvedMember{TensorPlacement::replicated(), 0};
      case ShardingKind::Equal: {
        EREDU_TRY(dimension, checked_axis(axis));
        if (dimension % parts != 0) {
          return invalid(fmt::format("dimension {} on axis {} is not divisible by TP size {}",
                                     dimension, axis, parts));
        }
        return ResolvedMember{TensorPlacement::shard(axis, rank, parts), dimension / parts};
      }
      case ShardingKind::Balanced: {
        EREDU_TRY(dimension, checked_axis(axis));
        if (pad_multiple) return padded(dimension);
        EREDU_TRY(range, balanced(dimension, fmt::format("axis {} extent {}", axis, dimension)));
        return ResolvedMember{TensorPlacement::range(axis, range.start, range.end), range.length()};
      }
      case ShardingKind::Partitioned: {
        EREDU_TRY(count, group_units());
        EREDU_TRY(dimension, checked_axis(axis));
        if (dimension % count != 0) {
          return invalid(
              fmt::format("dimension {} on axis {} does not contain {} integral logical units",
                          dimension, axis, count));
        }
        if (kv) {
          EREDU_TRY(selected, replicated_heads(dimension, fmt::format("dimension {}", dimension)));
          return ResolvedMember{TensorPlacement::range(axis, selected.start, selected.end),
                                selected.length()};
        }
        EREDU_TRY(logical, balanced(count, units_text(count)));
        const std::uint64_t width = dimension / count;
        return ResolvedMember{
            TensorPlacement::range(axis, logical.start * width, logical.end * width),
            logical.length() * width};
      }
      case ShardingKind::PartitionedSegments:
        return resolve_partitioned_segments();
      case ShardingKind::Segmented:
        return resolve_segmented();
    }
    return invalid("has an unknown sharding kind");
  }

  // A balanced member under vocabulary padding: its padded rows allocated,
  // the checkpoint's rows among them read.
  Result<ResolvedMember> padded(std::uint64_t vocabulary) const {
    auto padding = vocab_padding(vocabulary, *pad_multiple, parts);
    if (!padding) {
      return invalid(fmt::format("axis {} extent {} {}", member.sharding().axis, vocabulary,
                                 padding.error().message));
    }
    const IndexRange rows = padding.value().rows_read(rank);
    const std::uint64_t allocated = padding.value().rows_per_rank();
    // The allocated shape may exceed the global one: its bytes must fit.
    LocalShape shape = member.global_shape();
    shape[member.sharding().axis] = allocated;
    const auto elements = checked_element_count(shape);
    if (!elements || !checked_mul(*elements, dtype_size(member.dtype().value_or(Dtype::U8)))) {
      return invalid(
          fmt::format("padded local shape [{}] overflows 64 bits", fmt::join(shape, ", ")));
    }
    return ResolvedMember{TensorPlacement::range(member.sharding().axis, rows.start, rows.end),
                          allocated, allocated - rows.length()};
  }

  // Under KV-head replication, the elements [start, end) of an extent of
  // `length` this rank holds: its KV head's block, or its query heads'.
  Result<IndexRange> replicated_heads(std::uint64_t length, std::string_view what) const {
    if (!kv->valid()) {
      return invalid(fmt::format("has {} KV heads and {} query heads, which do not split {} ways",
                                 kv->kv_heads, kv->query_heads, parts));
    }
    if (member.sharding().per_kv_head) {
      const std::uint64_t width = length / kv->kv_heads;
      const std::uint64_t head = rank / kv->copies();
      return IndexRange{head * width, (head + 1) * width};
    }
    if (length % kv->query_heads != 0) {
      return invalid(fmt::format("{} on axis {} does not contain {} integral query heads", what,
                                 member.sharding().axis, kv->query_heads));
    }
    const std::uint64_t width = length / parts;  // query heads per rank × head width
    return IndexRange{rank * width, (rank + 1) * width};
  }

  Result<ResolvedMember> resolve_partitioned_segments() const {
    const MemberSharding& sharding = member.sharding();
    EREDU_TRY(count, group_units());
    EREDU_TRY(dimension, checked_axis(sharding.axis));
    if (sharding.segments.empty()) return invalid("partitioned placement has no segments");
    // The rank's units, the same in every segment; under KV-head
    // replication its heads instead.
    std::optional<IndexRange> logical;
    if (!kv) {
      EREDU_TRY(units_range, balanced(count, units_text(count)));
      logical = units_range;
    }
    std::vector<IndexRange> runs;
    runs.reserve(sharding.segments.size());
    std::uint64_t previous_end = 0;
    for (const IndexRange& segment : sharding.segments) {
      EREDU_TRY(check_segment(segment, sharding.axis, dimension, previous_end, "partitioned"));
      if (segment.length() % count != 0) {
        return invalid(fmt::format("segment {}..{} does not contain {} integral logical units",
                                   segment.start, segment.end, count));
      }
      const std::uint64_t width = segment.length() / count;
      IndexRange selected{logical ? logical->start * width : 0, logical ? logical->end * width : 0};
      if (!logical) {
        EREDU_TRY(heads,
                  replicated_heads(segment.length(),
                                   fmt::format("segment {}..{}", segment.start, segment.end)));
        selected = heads;
      }
      runs.push_back({segment.start + selected.start, segment.start + selected.end});
      previous_end = segment.end;
    }
    TensorPlacement placement = TensorPlacement::indices(sharding.axis, runs);
    const std::uint64_t local = placement.count;
    return ResolvedMember{std::move(placement), local};
  }

  Result<ResolvedMember> resolve_segmented() const {
    const MemberSharding& sharding = member.sharding();
    EREDU_TRY(dimension, checked_axis(sharding.axis));
    if (sharding.segments.empty()) return invalid("segmented placement has no segments");
    std::vector<IndexRange> runs;
    runs.reserve(sharding.segments.size());
    std::uint64_t previous_end = 0;
    for (const IndexRange& segment : sharding.segments) {
      EREDU_TRY(check_segment(segment, sharding.axis, dimension, previous_end, "segmented"));
      EREDU_TRY(range, balanced(segment.length(),
                                fmt::format("segment {}..{}", segment.start, segment.end)));
      runs.push_back({segment.start + range.start, segment.start + range.end});
      previous_end = segment.end;
    }
    TensorPlacement placement = TensorPlacement::indices(sharding.axis, runs);
    if (placement.count == 0) {
      return invalid(fmt::format("has no local segmented indices on TP rank {}", rank));
    }
    const std::uint64_t local = placement.count;
    return ResolvedMember{std::move(placement), local};
  }
};

}  // namespace

IndexRange VocabPadding::rows_read(std::uint64_t t) const {
  const std::uint64_t rows = rows_per_rank();
  // t < T and P/T·T = P, so (t+1)·P/T ≤ P does not overflow.
  return IndexRange{std::min(t * rows, vocabulary), std::min((t + 1) * rows, vocabulary)};
}

Result<VocabPadding> vocab_padding(std::uint64_t vocabulary, std::uint64_t multiple,
                                   std::uint64_t tp_size) {
  if (const auto step = checked_mul(multiple, tp_size)) {
    const std::uint64_t blocks = vocabulary / *step + (vocabulary % *step != 0 ? 1 : 0);
    if (const auto padded = checked_mul(blocks, *step)) {
      return VocabPadding{vocabulary, *padded, tp_size};
    }
  }
  return failf(Status::InvalidTensor, "cannot be padded to a multiple of {} x {} in 64 bits",
               multiple, tp_size);
}

LocalShape ResolvedMember::local_shape(const ParameterMemberSpec& member) const {
  const auto& shape = member.global_shape();
  LocalShape local(shape.begin(), shape.end());
  if (placement.kind != PlacementKind::Replicated) local[placement.axis] = local_length;
  return local;
}

std::optional<KvReplication> kv_replication(const ParameterGroupSpec& group,
                                            std::uint64_t tp_size) {
  const auto units = group.partition_units();
  const auto query = group.query_units();
  if (!units || !query || tp_size <= *units) return std::nullopt;
  return KvReplication{*units, *query, tp_size};
}

Result<ResolvedMember> resolve_member(const ParameterGroupSpec& group,
                                      const ParameterMemberSpec& member, std::uint64_t tp_size,
                                      std::uint64_t tp_rank, bool even) {
  if (tp_size == 0 || tp_rank >= tp_size) {
    return failf(Status::InvalidTensor, "invalid TP coordinate {}/{}", tp_rank, tp_size);
  }
  return Resolver{member,
                  group.partition_units(),
                  kv_replication(group, tp_size),
                  group.vocab_pad_multiple(),
                  tp_size,
                  tp_rank,
                  even}
      .resolve();
}

}  // namespace eredu
