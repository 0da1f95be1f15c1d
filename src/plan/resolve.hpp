// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Reference `resolve_member` (docs/planning.md, "Member resolution"): one
// member's placement and local shape on one tensor-parallel coordinate.
#pragma once

#include <cstdint>
#include <optional>

#include "core/result.hpp"
#include "model/group.hpp"
#include "plan/layout.hpp"
#include "plan/placement.hpp"

namespace eredu {

/// A resolved member: its placement and the local length of the placement's
/// axis (the rest of the local shape is the global shape). Building shapes
/// only for materialized tensors keeps planning allocation-free for the
/// tensors a rank omits.
struct ResolvedMember {
  TensorPlacement placement;
  std::uint64_t local_length = 0;  // of placement.axis; unused for Replicated
  /// Rows of local_length past the checkpoint's under vocabulary padding:
  /// allocated, not read.
  std::uint64_t padding_rows = 0;

  /// The rank-local shape of `member` under this resolution.
  LocalShape local_shape(const ParameterMemberSpec& member) const;
};

/// KV-head replication of a group at one tensor size (docs/planning.md,
/// "KV-head replication"): the group has query_units Q and more tensor
/// ranks T than KV heads H (its partition units). `valid` when H divides T
/// and T divides Q; then rank t holds KV head t / (T / H) and query heads
/// [t·Q/T, (t+1)·Q/T).
struct KvReplication {
  std::uint64_t kv_heads = 0;
  std::uint64_t query_heads = 0;
  std::uint64_t tp_size = 0;
  bool valid() const { return tp_size % kv_heads == 0 && query_heads % tp_size == 0; }
  /// Tensor ranks holding each KV head.
  std::uint64_t copies() const { return tp_size / kv_heads; }
};

/// The group's KV-head replication at `tp_size`, nullopt when it plans
/// without (no query_units, or T ≤ H).
std::optional<KvReplication> kv_replication(const ParameterGroupSpec& group, std::uint64_t tp_size);

/// Vocabulary padding of V rows to a multiple M of each tensor size T
/// (docs/planning.md, "Vocabulary padding"): P = ⌈V / (M·T)⌉·M·T rows, P/T
/// per rank.
struct VocabPadding {
  std::uint64_t vocabulary = 0;  // V
  std::uint64_t padded = 0;      // P
  std::uint64_t tp_size = 0;     // T
  std::uint64_t rows_per_rank() const { return padded / tp_size; }
  /// The checkpoint rows tensor rank `t` reads: [tP/T, (t+1)P/T) cut to
  /// [0, V); empty (start == end == V) on a rank holding only padding.
  IndexRange rows_read(std::uint64_t t) const;
};

/// The padding of `vocabulary` rows to a multiple of `multiple` × `tp_size`.
/// Errors: InvalidTensor when M·T or P overflows 64 bits.
Result<VocabPadding> vocab_padding(std::uint64_t vocabulary, std::uint64_t multiple,
                                   std::uint64_t tp_size);

/// Resolves `member` of `group` for tensor-parallel rank `tp_rank` of
/// `tp_size`, with the group's partition units (and KV-head replication);
/// a balanced member of a group with vocab_pad_multiple is padded.
/// `even` (require_even): a balanced extent, partition units or segment that
/// does not split exactly is refused too. Errors: InvalidTensor with the
/// reference text (without the "logical parameter" prefix).
Result<ResolvedMember> resolve_member(const ParameterGroupSpec& group,
                                      const ParameterMemberSpec& member, std::uint64_t tp_size,
                                      std::uint64_t tp_rank, bool even = false);

}  // namespace eredu
