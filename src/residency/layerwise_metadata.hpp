// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Seed LayerwiseModelMetadata: the inspectable parameter-residency
// snapshot of a layered model.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include "format/linear_format.hpp"
#include "residency/weight_residency.hpp"

namespace eredu {

/// Seed `WeightMaterializationReport` (docs/residency.md, "Layerwise model
/// metadata"): load-time materialization telemetry, opaque to the planner.
struct WeightMaterializationReport {
  friend bool operator==(const WeightMaterializationReport&,
                         const WeightMaterializationReport&) = default;
};

/// Seed `LayerwiseModelMetadata`. Byte fields are bytes; counts are
/// execution units. Materialization telemetry starts absent.
class LayerwiseModelMetadata {
 public:
  LayerwiseModelMetadata(std::string effective_model_type,
                         std::optional<WeightQuantization> quantization, std::uint64_t layer_count,
                         std::uint64_t static_device_bytes, ExecutionResidency residency,
                         std::uint64_t layer_parameter_bytes,
                         std::uint64_t maximum_device_layer_bytes,
                         std::uint64_t maximum_host_layer_bytes,
                         std::uint64_t device_layer_capacity)
      : effective_model_type_(std::move(effective_model_type)),
        quantization_(std::move(quantization)),
        layer_count_(layer_count),
        static_device_bytes_(static_device_bytes),
        residency_(residency),
        layer_parameter_bytes_(layer_parameter_bytes),
        maximum_device_layer_bytes_(maximum_device_layer_bytes),
        maximum_host_layer_bytes_(maximum_host_layer_bytes),
        device_layer_capacity_(device_layer_capacity) {}

  void set_effective_model_type(std::string effective_model_type) {
    effective_model_type_ = std::move(effective_model_type);
  }
  void set_quantization(std::optional<WeightQuantization> quantization) {
    quantization_ = std::move(quantization);
  }
  void set_materialization(std::optional<WeightMaterializationReport> materialization) {
    materialization_ = materialization;
  }

  const std::string& effective_model_type() const { return effective_model_type_; }
  const std::optional<WeightQuantization>& quantization() const { return quantization_; }
  std::uint64_t layer_count() const { return layer_count_; }
  std::uint64_t static_device_bytes() const { return static_device_bytes_; }
  ExecutionResidency residency() const { return residency_; }
  std::uint64_t layer_parameter_bytes() const { return layer_parameter_bytes_; }
  std::uint64_t maximum_device_layer_bytes() const { return maximum_device_layer_bytes_; }
  std::uint64_t maximum_host_layer_bytes() const { return maximum_host_layer_bytes_; }
  std::uint64_t device_layer_capacity() const { return device_layer_capacity_; }
  const std::optional<WeightMaterializationReport>& materialization() const {
    return materialization_;
  }

  friend bool operator==(const LayerwiseModelMetadata&, const LayerwiseModelMetadata&) = default;

 private:
  std::string effective_model_type_;
  std::optional<WeightQuantization> quantization_;
  std::uint64_t layer_count_;
  std::uint64_t static_device_bytes_;
  ExecutionResidency residency_;
  std::uint64_t layer_parameter_bytes_;
  std::uint64_t maximum_device_layer_bytes_;
  std::uint64_t maximum_host_layer_bytes_;
  std::uint64_t device_layer_capacity_;
  std::optional<WeightMaterializationReport> materialization_;
};

}  // namespace eredu
