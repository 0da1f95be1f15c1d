// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Seed `ParallelModelInfo`: the architecture-neutral summary of one
// rank-local parallel model, with the topology value unchanged.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "topology/topology.hpp"

namespace eredu {

/// A plain value: no validation, getters echo the constructor. Bytes are
/// bytes; `owned_tensors` are exact checkpoint targets.
class ParallelModelInfo {
 public:
  ParallelModelInfo(ParallelTopology topology, std::string effective_model_type,
                    std::vector<std::string> owned_tensors, std::uint64_t local_parameter_bytes,
                    std::uint64_t global_parameter_bytes,
                    std::uint64_t pinned_device_parameter_bytes,
                    std::uint64_t maximum_device_parameter_bytes)
      : topology_(topology),
        effective_model_type_(std::move(effective_model_type)),
        owned_tensors_(std::move(owned_tensors)),
        local_parameter_bytes_(local_parameter_bytes),
        global_parameter_bytes_(global_parameter_bytes),
        pinned_device_parameter_bytes_(pinned_device_parameter_bytes),
        maximum_device_parameter_bytes_(maximum_device_parameter_bytes) {}

  /// The topology value unchanged.
  const ParallelTopology& topology() const { return topology_; }
  /// The parsed implementation or nested text-model type.
  const std::string& effective_model_type() const { return effective_model_type_; }
  /// Exact checkpoint targets owned or replicated by this rank.
  const std::vector<std::string>& owned_tensors() const { return owned_tensors_; }
  /// Planned rank-local parameter bytes across static and execution units.
  std::uint64_t local_parameter_bytes() const { return local_parameter_bytes_; }
  /// The unsharded model parameter bytes of the checkpoint.
  std::uint64_t global_parameter_bytes() const { return global_parameter_bytes_; }
  /// Rank-local parameter bytes permanently pinned on the execution device.
  std::uint64_t pinned_device_parameter_bytes() const { return pinned_device_parameter_bytes_; }
  /// The maximum planned rank-local parameter footprint on device.
  std::uint64_t maximum_device_parameter_bytes() const { return maximum_device_parameter_bytes_; }

  friend bool operator==(const ParallelModelInfo&, const ParallelModelInfo&) = default;

 private:
  ParallelTopology topology_;
  std::string effective_model_type_;
  std::vector<std::string> owned_tensors_;
  std::uint64_t local_parameter_bytes_ = 0;
  std::uint64_t global_parameter_bytes_ = 0;
  std::uint64_t pinned_device_parameter_bytes_ = 0;
  std::uint64_t maximum_device_parameter_bytes_ = 0;
};

}  // namespace eredu
