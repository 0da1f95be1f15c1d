// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The shared offload-config argument checks (offload_arguments.hpp).
#include "offload_arguments.hpp"

#include "firewall.hpp"

namespace eredu::capi {

Result<OffloadConfig> OffloadArgument::build() const {
  EREDU_TRY(config, OffloadConfig::create(device_budget_bytes, host_budget_bytes, prefetch_depth));
  return config.with_eviction_policy(eviction_policy);
}

Result<OffloadArgument> offload_argument(const eredu_offload_config* given, const char* name) {
  if (given == nullptr) return OffloadArgument{};
  EREDU_TRY(read, read_sized(given, SizedDefaults<eredu_offload_config>::value(), name));
  const eredu_offload_config* config = &read;
  EREDU_TRY(has_device, flag_argument(config->has_device_budget,
                                      ArgumentName::field(name, "->has_device_budget")));
  EREDU_TRY(has_host,
            flag_argument(config->has_host_budget, ArgumentName::field(name, "->has_host_budget")));
  EREDU_TRY(eviction,
            enum_argument(cache_eviction_policy_from_value(config->eviction_policy),
                          config->eviction_policy, ArgumentName::field(name, "->eviction_policy")));
  return OffloadArgument{has_device ? std::optional(config->device_budget_bytes) : std::nullopt,
                         has_host ? std::optional(config->host_budget_bytes) : std::nullopt,
                         config->prefetch_depth, eviction};
}

}  // namespace eredu::capi
