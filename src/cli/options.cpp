// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "cli/options.hpp"

#include <algorithm>
#include <array>
#include <string_view>

#include "cli/byte_units.hpp"
#include "core/text.hpp"

namespace eredu {
namespace {

// Flag words take the hyphenated spelling too (docs/interchange.md, "General
// rules").
std::string snake_case(std::string word) {
  std::replace(word.begin(), word.end(), '-', '_');
  return word;
}

Result<ExecutionResidency> residency_kind_from(const std::string& flag) {
  constexpr std::array<ExecutionResidency, 3> kKinds = {ExecutionResidency::FullyResident,
                                                        ExecutionResidency::LayerwiseHost,
                                                        ExecutionResidency::DenseDiskStream};
  const std::string word = snake_case(flag);
  for (ExecutionResidency kind : kKinds) {
    if (execution_residency_name(kind) == word) return kind;
  }
  return failf(Status::InvalidArgument,
               "--residency {} is not a residency; use fully-resident, layerwise-host or "
               "dense-disk-stream",
               debug_quoted(flag));
}

Result<std::optional<std::uint64_t>> size_from(std::string_view flag,
                                               const std::optional<std::string>& text) {
  if (!text) return std::optional<std::uint64_t>{};
  EREDU_TRY(bytes, parse_size(flag, *text));
  return std::optional<std::uint64_t>{bytes};
}

// A flag given for a kind that has no such option would silently change
// nothing; it is rejected instead.
Result<void> reject_flag(bool given, std::string_view flag, std::string_view applies_to) {
  if (!given) return outcome::success();
  return failf(Status::InvalidArgument, "{} applies to --residency {} only", flag, applies_to);
}

Result<void> check_flags_apply(ExecutionResidency kind, const ResidencyFlags& flags) {
  const bool dense = kind == ExecutionResidency::DenseDiskStream;
  const bool layerwise = kind == ExecutionResidency::LayerwiseHost;
  EREDU_TRY(reject_flag(flags.host_budget && !dense && !layerwise, "--host-budget",
                        "layerwise-host or dense-disk-stream"));
  EREDU_TRY(reject_flag(flags.prefetch_depth && !layerwise, "--prefetch-depth", "layerwise-host"));
  EREDU_TRY(reject_flag(flags.host_lookahead && !dense, "--host-lookahead", "dense-disk-stream"));
  return reject_flag(flags.queue_capacity && !dense, "--queue-capacity", "dense-disk-stream");
}

}  // namespace

Result<ParallelTopology> topology_from(const TopologyFlags& flags) {
  const std::uint64_t stages = flags.pipeline_layers.empty() ? 1 : flags.pipeline_layers.size();
  EREDU_TRY(topology, ParallelTopology::create(flags.tensor, flags.pipeline.value_or(stages),
                                               flags.expert, flags.data));
  if (flags.pipeline_layers.empty()) return topology;
  return topology.with_pipeline_layers(flags.pipeline_layers);
}

Result<ShardingPolicy> policy_from(const std::string& flag) {
  if (auto policy = parse_sharding_policy(snake_case(flag))) return *policy;
  return failf(Status::InvalidArgument,
               "--policy {} is not a sharding policy; use require, require-even or "
               "replicate-unsupported",
               debug_quoted(flag));
}

namespace {

// The policy of --residency and its options, without an expert cache.
Result<AdmissionPolicy> ordinary_policy_from(const ResidencyFlags& flags) {
  EREDU_TRY(kind, residency_kind_from(flags.kind));
  EREDU_TRY(device, size_from("--device-budget", flags.device_budget));
  EREDU_TRY(host, size_from("--host-budget", flags.host_budget));
  EREDU_TRY(check_flags_apply(kind, flags));
  switch (kind) {
    case ExecutionResidency::FullyResident:
      return AdmissionPolicy::fully_resident(device);
    case ExecutionResidency::LayerwiseHost: {
      EREDU_TRY(offload, OffloadConfig::create(device, host, flags.prefetch_depth.value_or(1)));
      return AdmissionPolicy::create(
          LayerWeightResidency::layerwise_host(LayerwiseLoadOptions(offload)));
    }
    case ExecutionResidency::DenseDiskStream:
      break;
  }
  const DenseDiskStreamLoadOptions defaults;
  const std::uint64_t host_budget = host.value_or(defaults.host_budget_bytes());
  // Direct disk-to-device loading (host budget 0) has no host controls.
  const bool direct = host_budget == 0;
  const std::uint64_t lookahead =
      flags.host_lookahead.value_or(direct ? 0 : defaults.host_lookahead());
  const std::uint64_t queue =
      flags.queue_capacity.value_or(direct ? 0 : defaults.background_queue_capacity());
  EREDU_TRY(options,
            DenseDiskStreamLoadOptions::create(device.value_or(defaults.device_budget_bytes()),
                                               host_budget, lookahead, queue));
  return AdmissionPolicy::create(LayerWeightResidency::dense_disk_stream(options));
}

}  // namespace

Result<AdmissionPolicy> admission_policy_from(const ResidencyFlags& flags) {
  EREDU_TRY(policy, ordinary_policy_from(flags));
  EREDU_TRY(cache, size_from("--expert-cache", flags.expert_cache));
  if (!cache) return policy;
  return policy.with_expert_cache(ExpertCache{cache});
}

}  // namespace eredu
