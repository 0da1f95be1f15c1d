// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Conversion of a C offload config (eredu_offload_config) to the seed's
// OffloadConfig, shared by eredu_offload_plan_new and the weight-residency
// descriptors.
#pragma once

#include <eredu/eredu.h>

#include <cstdint>
#include <optional>

#include "core/result.hpp"
#include "residency/offload.hpp"

namespace eredu::capi {

/// An offload config whose C fields are well-formed (defaults when NULL);
/// the seed's check comes in build().
struct OffloadArgument {
  std::optional<std::uint64_t> device_budget_bytes;
  std::optional<std::uint64_t> host_budget_bytes;
  std::uint64_t prefetch_depth = 1;
  CacheEvictionPolicy eviction_policy = CacheEvictionPolicy::LeastRecentlyUsed;

  /// OffloadConfig::create (ZeroPrefetchDepth), then the eviction policy.
  Result<OffloadConfig> build() const;
};

/// The argument checks of a config named `name` ("config",
/// "desc->layerwise->offload"): struct_size (fields past it take the
/// defaults of EREDU_OFFLOAD_CONFIG_INIT), then `name`->has_device_budget,
/// ->has_host_budget and ->eviction_policy. NULL gives the defaults.
Result<OffloadArgument> offload_argument(const eredu_offload_config* config, const char* name);

}  // namespace eredu::capi
