// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The load-request seed's pipeline activation wire (docs/residency.md, "Load
// requests").
#pragma once

#include <cstdint>
#include <optional>

namespace eredu {

/// Element type of activations exchanged between pipeline stages. Values
/// match EREDU_ACTIVATION_DTYPE_*.
enum class PipelineActivationDtype : std::uint32_t { Float16 = 0, Bfloat16 = 1, Float32 = 2 };

inline std::optional<PipelineActivationDtype> activation_dtype_from_value(std::uint32_t value) {
  if (value > static_cast<std::uint32_t>(PipelineActivationDtype::Float32)) return std::nullopt;
  return static_cast<PipelineActivationDtype>(value);
}

/// Seed `PipelineWireContract`: the exact activation wire of parallel
/// execution. No validation; immutable value.
class PipelineWireContract {
 public:
  explicit PipelineWireContract(PipelineActivationDtype activation_dtype)
      : activation_dtype_(activation_dtype) {}

  PipelineActivationDtype activation_dtype() const { return activation_dtype_; }

  friend bool operator==(const PipelineWireContract&, const PipelineWireContract&) = default;

 private:
  PipelineActivationDtype activation_dtype_;
};

}  // namespace eredu
