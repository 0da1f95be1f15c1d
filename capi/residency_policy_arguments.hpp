// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Conversion of a C weight-residency description (eredu/runtime/residency_policy.h)
// into the seed's WeightResidency, shared by eredu_residency_validate and
// eredu_load_request_set_weight_residency, and the summary written by
// eredu_residency_validate and eredu_load_request_weight_residency.
#pragma once

#include <eredu/eredu.h>

#include <cstdint>
#include <optional>

#include "core/result.hpp"
#include "offload_arguments.hpp"
#include "residency/weight_residency.hpp"

namespace eredu::capi {

struct LayerwiseArgument {
  OffloadArgument offload;
  std::uint64_t max_cached_shards = DEFAULT_MAX_CACHED_SHARDS;
  bool sample_backend_memory = false;
  bool sample_process_memory = false;

  Result<LayerwiseLoadOptions> build() const;
};

struct DenseArgument {
  std::uint64_t device_budget_bytes = DenseDiskStreamLoadOptions().device_budget_bytes();
  std::uint64_t host_budget_bytes = DenseDiskStreamLoadOptions().host_budget_bytes();
  std::uint64_t host_lookahead = DenseDiskStreamLoadOptions().host_lookahead();
  std::uint64_t background_queue_capacity =
      DenseDiskStreamLoadOptions().background_queue_capacity();
  CacheEvictionPolicy eviction_policy = CacheEvictionPolicy::LeastRecentlyUsed;
  std::uint64_t max_cached_shards = DEFAULT_MAX_CACHED_SHARDS;
  bool sample_backend_memory = false;
  bool sample_process_memory = false;

  /// DenseDiskStreamLoadOptions::create (402, 400, 401), then the rest.
  Result<DenseDiskStreamLoadOptions> build() const;
};

struct ParameterBankArgument {
  OffloadArgument members;
  std::uint64_t compact_bank_scratch_bytes = 0;
  std::uint64_t prefill_compact_bank_target_bytes = 0;

  /// The members' config (307), then ParameterBankLoadOptions::create
  /// (403, 404, 405).
  Result<ParameterBankLoadOptions> build() const;
};

/// A description whose C fields are well-formed; `build` runs the seed's
/// constructors: the ordinary options, then the bank cache.
struct WeightResidencyArgument {
  ExecutionResidency layers = ExecutionResidency::FullyResident;
  LayerwiseArgument layerwise;  // used for LayerwiseHost
  DenseArgument dense;          // used for DenseDiskStream
  std::optional<ParameterBankArgument> parameter_bank_cache;

  /// The ordinary placement's options (LayerwiseHost: 307; DenseDiskStream:
  /// 402, 400, 401).
  Result<OrdinaryWeightResidency> ordinary() const;
  /// ordinary(), then the bank cache's build().
  Result<WeightResidency> build() const;
};

/// The argument checks of a description named `desc` (NULL pointers,
/// struct_size, flags, enum values, options for a placement without them).
/// A field past a struct's struct_size takes its default (docs/abi.md).
Result<WeightResidencyArgument> weight_residency_argument(const eredu_weight_residency_desc* desc);

/// Derives the offload config of `residency` (its only seed check), then,
/// when `out` is given (its struct_size checked by sized_out), writes the
/// complete summary for `unit_count` ordinary units up to its struct_size.
Result<void> summary_out(const WeightResidency& residency, std::uint64_t unit_count,
                         eredu_residency_summary* out);

}  // namespace eredu::capi
