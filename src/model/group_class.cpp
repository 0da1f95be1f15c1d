// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "model/group_class.hpp"

#include <algorithm>
#include <optional>
#include <string>

#include <xxhash.h>

namespace eredu {
namespace {

void push_optional(std::vector<std::uint64_t>& out, std::optional<std::uint64_t> value) {
  out.push_back(value ? 1 : 0);
  out.push_back(value.value_or(0));
}

// What planning reads of a member: its dtype, shape and sharding.
void push_member(std::vector<std::uint64_t>& out, const ParameterMemberSpec& member) {
  const auto dtype = member.dtype();
  push_optional(
      out, dtype ? std::optional<std::uint64_t>(static_cast<std::uint64_t>(*dtype)) : std::nullopt);
  out.push_back(member.global_shape().size());
  out.insert(out.end(), member.global_shape().begin(), member.global_shape().end());
  const MemberSharding& sharding = member.sharding();
  out.push_back(static_cast<std::uint64_t>(sharding.kind));
  out.push_back(sharding.axis);
  out.push_back(sharding.segments.size());
  for (const IndexRange& segment : sharding.segments) {
    out.push_back(segment.start);
    out.push_back(segment.end);
  }
  out.push_back(sharding.per_kv_head ? 1 : 0);
  push_optional(out, sharding.expert_axis);
}

// Appends everything planning reads of a group but its names and the
// layer and expert it belongs to; encoded formats are compared apart
// (format_shapes).
void push_signature(std::vector<std::uint64_t>& out, const ParameterGroupSpec& group) {
  out.push_back(static_cast<std::uint64_t>(group.role()));
  push_optional(out, group.partition_units());
  push_optional(out, group.query_units());
  push_optional(out, group.vocab_pad_multiple());
  out.push_back(static_cast<std::uint64_t>(group.scope().kind));
  out.push_back(group.scope().expert ? 1 : 0);
  out.push_back(group.members().size());
  for (const ParameterMemberSpec& member : group.members()) push_member(out, member);
  out.push_back(group.encoded().size());
  for (const EncodedMatrix& matrix : group.encoded()) {
    out.push_back(matrix.first);
    out.push_back(matrix.count);
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
