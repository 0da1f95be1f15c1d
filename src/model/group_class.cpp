// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "model/group_class.hpp"

#include <algorithm>
#include <optional>
#include <string>

#include <xxhash.h>

namespace eredu {
namespace {

// What planning reads of a member: its dtype, shape and sharding. Appended
// in three inserts rather than word by word: this runs for every member
// of every group a model holds.
void push_member(std::vector<std::uint64_t>& out, const ParameterMemberSpec& member) {
  const auto dtype = member.dtype();
  const std::vector<std::uint64_t>& shape = member.global_shape();
  const MemberSharding& sharding = member.sharding();
  out.insert(out.end(),
             {dtype ? 1u : 0u, dtype ? static_cast<std::uint64_t>(*dtype) : 0u, shape.size()});
  out.insert(out.end(), shape.begin(), shape.end());
  out.insert(out.end(),
             {static_cast<std::uint64_t>(sharding.kind), sharding.axis, sharding.segments.size()});
  for (const IndexRange& segment : sharding.segments) {
    out.insert(out.end(), {segment.start, segment.end});
  }
  out.insert(out.end(), {sharding.per_kv_head ? 1u : 0u, sharding.expert_axis ? 1u : 0u,
                         sharding.expert_axis.value_or(0)});
}

// Appends everything planning reads of a group but its names and the
// layer and expert it belongs to; encoded formats are compared apart
// (format_shapes).
void push_signature(std::vector<std::uint64_t>& out, const ParameterGroupSpec& group) {
  const auto partition_units = group.partition_units();
  const auto query_units = group.query_units();
  const auto vocab_pad_multiple = group.vocab_pad_multiple();
  out.insert(out.end(),
             {static_cast<std::uint64_t>(group.role()), partition_units ? 1u : 0u,
              partition_units.value_or(0), query_units ? 1u : 0u, query_units.value_or(0),
              vocab_pad_multiple ? 1u : 0u, vocab_pad_multiple.value_or(0),
              static_cast<std::uint64_t>(group.scope().kind), group.scope().expert ? 1u : 0u,
              group.members().size()});
  for (const ParameterMemberSpec& member : group.members()) push_member(out, member);
  out.push_back(group.encoded().size());
  for (const EncodedMatrix& matrix : group.encoded()) {
    out.insert(out.end(), {matrix.first, matrix.count});
    push_member(out, matrix.logical);
  }
}

// The encoded formats of a group without their companions' names.
std::vector<LinearFormatSpec> format_shapes(const ParameterGroupSpec& group) {
  std::vector<LinearFormatSpec> out;
  for (const EncodedMatrix& matrix : group.encoded()) {
    const LinearFormatSpec& format = matrix.format;
    out.push_back(LinearFormatSpec::raw(
        format.encoding(), format.scale() ? std::optional<std::string>("") : std::nullopt,
        format.affine_bias() ? std::optional<std::string>("") : std::nullopt,
        format.companion_dtype()));
  }
  return out;
}

}  // namespace

std::size_t GroupClassifier::SignatureHash::operator()(
    const std::vector<std::uint64_t>& signature) const {
  return XXH3_64bits(signature.data(), signature.size() * sizeof(std::uint64_t));
}

std::uint32_t GroupClassifier::classify(const ParameterGroupSpec& group) {
  std::vector<LinearFormatSpec> shapes = format_shapes(group);
  signature_.clear();
  push_signature(signature_, group);
  auto found = buckets_.find(signature_);
  if (found == buckets_.end())
    found = buckets_.emplace(signature_, std::vector<std::uint32_t>{}).first;
  std::vector<std::uint32_t>& bucket = found->second;
  auto same = std::find_if(bucket.begin(), bucket.end(),
                           [&](std::uint32_t c) { return formats_[c] == shapes; });
  if (same != bucket.end()) return *same;
  const auto id = static_cast<std::uint32_t>(formats_.size());
  formats_.push_back(std::move(shapes));
  bucket.push_back(id);
  return id;
}

}  // namespace eredu
