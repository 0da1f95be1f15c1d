// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Checkpoint weight bindings (docs/residency.md, "Weight bindings") and the
// seed's StaticUnitBindings (one pinned static module and its bindings).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/result.hpp"
#include "residency/offload.hpp"

namespace eredu {

/// `TensorSelection`: which elements of a checkpoint tensor a binding reads.
/// Plain data; validated by the checkpoint store, not at construction.
struct TensorSelection {
  /// Values match EREDU_SELECTION_*.
  enum class Kind : std::uint32_t { Full = 0, Range = 1, Indices = 2, Contiguous = 3 };

  Kind kind = Kind::Full;
  std::uint64_t axis = 0;              // Range, Indices
  std::uint64_t start = 0;             // Range: half-open [start, end) on axis
  std::uint64_t end = 0;               // Range
  std::vector<std::uint64_t> indices;  // Indices, caller order
  std::uint64_t offset_elements = 0;   // Contiguous: row-major scalar offset
  std::vector<std::uint64_t> shape;    // Contiguous: the re-exposed shape

  static TensorSelection full() { return {}; }
  static TensorSelection range(std::uint64_t axis, std::uint64_t start, std::uint64_t end) {
    return {Kind::Range, axis, start, end, {}, 0, {}};
  }
  static TensorSelection index_list(std::uint64_t axis, std::vector<std::uint64_t> indices) {
    return {Kind::Indices, axis, 0, 0, std::move(indices), 0, {}};
  }
  static TensorSelection contiguous(std::uint64_t offset_elements,
                                    std::vector<std::uint64_t> shape) {
    return {Kind::Contiguous, 0, 0, 0, {}, offset_elements, std::move(shape)};
  }
  friend bool operator==(const TensorSelection&, const TensorSelection&) = default;
};
inline constexpr std::uint32_t kTensorSelectionKindCount = 4;

/// `WeightBinding` (direct bindings): a named weight read from one
/// checkpoint key through a selection, of `expected_bytes` bytes, with an
/// optional logical target. Equality compares every field.
class WeightBinding {
 public:
  /// Errors in order: blank name -> InvalidBindingName (800); blank
  /// checkpoint key -> InvalidCheckpointKey (801); expected_bytes 0 ->
  /// ZeroSizedBinding (802). The selection is not validated.
  static Result<WeightBinding> create(std::string name, std::string checkpoint_key,
                                      TensorSelection selection, std::uint64_t expected_bytes);

  /// A copy with `target` as logical target. Errors: blank target ->
  /// InvalidBindingName (800).
  Result<WeightBinding> with_logical_target(std::string target) const;

  const std::string& name() const { return name_; }
  const std::optional<std::string>& logical_target() const { return logical_target_; }
  const std::string& checkpoint_key() const { return checkpoint_key_; }
  const TensorSelection& selection() const { return selection_; }
  std::uint64_t expected_bytes() const { return expected_bytes_; }
  /// The checkpoint keys read: [checkpoint_key] for a direct binding.
  std::vector<std::string> checkpoint_keys() const { return {checkpoint_key_}; }

  friend bool operator==(const WeightBinding&, const WeightBinding&) = default;

 private:
  WeightBinding(std::string name, std::string checkpoint_key, TensorSelection selection,
                std::uint64_t expected_bytes)
      : name_(std::move(name)),
        checkpoint_key_(std::move(checkpoint_key)),
        selection_(std::move(selection)),
        expected_bytes_(expected_bytes) {}

  std::string name_;
  std::optional<std::string> logical_target_;
  std::string checkpoint_key_;
  TensorSelection selection_;
  std::uint64_t expected_bytes_;
};

/// Seed `StaticUnitBindings`: one pinned static module and its checkpoint
/// bindings, in the caller's order.
class StaticUnitBindings {
 public:
  /// Errors: EmptyUnitId (301) when `id` is blank.
  static Result<StaticUnitBindings> create(std::string id, std::vector<WeightBinding> bindings);

  const OffloadUnitId& id() const { return id_; }
  const std::vector<WeightBinding>& bindings() const { return bindings_; }
  /// Consumes the definition into its id and bindings.
  std::pair<OffloadUnitId, std::vector<WeightBinding>> into_parts() && {
    return {std::move(id_), std::move(bindings_)};
  }

  friend bool operator==(const StaticUnitBindings&, const StaticUnitBindings&) = default;

 private:
  StaticUnitBindings(OffloadUnitId id, std::vector<WeightBinding> bindings)
      : id_(std::move(id)), bindings_(std::move(bindings)) {}

  OffloadUnitId id_;
  std::vector<WeightBinding> bindings_;
};

}  // namespace eredu
