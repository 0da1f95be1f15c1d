// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "checkpoint/checkpoint.hpp"

#include <algorithm>

#include "core/text.hpp"
#include "format/ggml.hpp"

namespace eredu {

StoredShape stored_shape(const CheckpointTensor& tensor) {
  if (tensor.dtype) return StoredShape{tensor.shape, dtype_size(*tensor.dtype)};
  StoredShape stored{tensor.shape, 1};
  auto info = ggml_type_info(tensor.ggml_type.value_or(UINT32_MAX));
  if (info && !stored.shape.empty()) {
    stored.shape.back() =
        stored.shape.back() / info.value().block_values * info.value().block_bytes;
  }
  return stored;
}

bool stores_dtype(const CheckpointTensor& tensor, std::optional<Dtype> dtype) {
  return !dtype || dtype == tensor.dtype.value_or(Dtype::U8);
}

const CheckpointTensor* Checkpoint::find(std::string_view name) const {
  auto found = std::lower_bound(
      tensors.begin(), tensors.end(), name,
      [](const CheckpointTensor& tensor, std::string_view key) { return tensor.name < key; });
  return found != tensors.end() && found->name == name ? &*found : nullptr;
}

std::string Checkpoint::path(std::uint32_t index) const {
  return root.empty() ? files.at(index) : root + "/" + files.at(index);
}

std::uint64_t Checkpoint::tensor_bytes() const {
  std::uint64_t total = 0;
  // Each file's tensors lie inside that file, whose size fits 64 bits; a
  // sum over several files is saturated rather than wrapped.
  for (const CheckpointTensor& tensor : tensors) {
    total = total > UINT64_MAX - tensor.bytes ? UINT64_MAX : total + tensor.bytes;
  }
  return total;
}

Result<void> sort_checkpoint_tensors(Checkpoint& checkpoint) {
  std::stable_sort(
      checkpoint.tensors.begin(), checkpoint.tensors.end(),
      [](const CheckpointTensor& a, const CheckpointTensor& b) { return a.name < b.name; });
  for (std::size_t i = 1; i < checkpoint.tensors.size(); ++i) {
    const CheckpointTensor& before = checkpoint.tensors[i - 1];
    const CheckpointTensor& tensor = checkpoint.tensors[i];
    if (before.name == tensor.name) {
      return failf(Status::CheckpointMismatch, "tensor {} is stored twice: in {} and in {}",
                   debug_quoted(tensor.name), checkpoint.files[before.file],
                   checkpoint.files[tensor.file]);
    }
  }
  return outcome::success();
}

}  // namespace eredu
