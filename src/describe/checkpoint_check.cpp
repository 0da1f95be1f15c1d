// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "describe/checkpoint_check.hpp"

#include <fmt/format.h>

#include <string>
#include <vector>

#include "core/text.hpp"

namespace eredu {
namespace {

constexpr std::size_t kListedNames = 5;

// `3 described tensors missing from the index: "a", "b", "c"` (first few).
std::string name_list(const std::vector<const std::string*>& names, const char* what) {
  std::string out = fmt::format("{} {}: ", names.size(), what);
  for (std::size_t i = 0; i < names.size() && i < kListedNames; ++i) {
    if (i > 0) out += ", ";
    out += debug_quoted(*names[i]);
  }
  if (names.size() > kListedNames) out += fmt::format(", … ({} more)", names.size() - kListedNames);
  return out;
}

}  // namespace

Result<void> check_checkpoint(const ModelDescription& model, const WeightIndex& index) {
  // Both sides are sorted byte-wise: one merge finds what only one side has.
  std::vector<const std::string*> missing;  // described, not in the index
  std::vector<const std::string*> extra;    // in the index, not described
  const std::vector<std::uint32_t>& described = model.by_target();
  std::size_t d = 0;
  std::size_t i = 0;
  while (d < described.size() || i < index.names.size()) {
    const std::string* target =
        d < described.size() ? &model.member(described[d]).target() : nullptr;
    const std::string* name = i < index.names.size() ? &index.names[i] : nullptr;
    if (name == nullptr || (target != nullptr && *target < *name)) {
      missing.push_back(target);
      ++d;
    } else if (target == nullptr || *name < *target) {
      extra.push_back(name);
      ++i;
    } else {
      ++d;
      ++i;
    }
  }
  if (!missing.empty() || !extra.empty()) {
    std::vector<std::string> parts;
    if (!missing.empty()) {
      parts.push_back(name_list(missing, "described tensors missing from the index"));
    }
    if (!extra.empty()) parts.push_back(name_list(extra, "index tensors not described"));
    return failf(Status::CheckpointMismatch, "{} does not match the description: {}", index.file,
                 fmt::join(parts, "; "));
  }
  const std::uint64_t bytes = model.global_bytes();
  if (index.total_size && bytes != *index.total_size) {
    const std::uint64_t total = *index.total_size;
    const bool more = bytes > total;
    return failf(Status::CheckpointMismatch,
                 "described bytes {} differ from {} metadata.total_size {} ({} by {})", bytes,
                 index.file, total, more ? "more" : "fewer", more ? bytes - total : total - bytes);
  }
  return outcome::success();
}

}  // namespace eredu
