// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include <fmt/format.h>

#include <cstdio>
#include <string>

#include "admission/policy.hpp"
#include "admission/residency_json.hpp"
#include "cli/byte_units.hpp"
#include "cli/commands.hpp"
#include "cli/output.hpp"
#include "core/text.hpp"
#include "core/text_file.hpp"
#include "request/load_request.hpp"

namespace eredu {
namespace {

Result<std::string> read_policy_text(const std::string& source) {
  if (source == "-") {
    std::string text;
    char buffer[1 << 12];
    std::size_t got = 0;
    while ((got = std::fread(buffer, 1, sizeof buffer, stdin)) > 0) text.append(buffer, got);
    if (std::ferror(stdin)) return fail(Status::Io, "cannot read the policy from standard input");
    return text;
  }
  return read_text_file(source, debug_quoted(source));
}

std::string_view request_name(ResidencyRequest request) {
  switch (request) {
    case ResidencyRequest::FullyResident:
      return "fully_resident";
    case ResidencyRequest::LayerwiseHost:
      return "layerwise_host";
    case ResidencyRequest::DenseDiskStream:
      return "dense_disk_stream";
    case ResidencyRequest::AddressableParameterBanks:
      return "addressable_parameter_banks";
  }
  return "unknown";
}

std::string budget_text(std::optional<std::uint64_t> budget) {
  if (!budget) return "unbounded";
  return fmt::format("{} bytes ({})", *budget, human_bytes(*budget));
}

std::string offload_text(const OffloadConfig& config) {
  return fmt::format("device budget {}, host budget {}, prefetch depth {}, eviction {}",
                     budget_text(config.device_budget_bytes()),
                     budget_text(config.host_budget_bytes()), config.prefetch_depth(),
                     cache_eviction_policy_name(config.eviction_policy()));
}

std::string device_depth_text(const LayerWeightResidency& layers) {
  switch (layers.execution_residency()) {
    case ExecutionResidency::FullyResident:
      return "K of K layer units (every unit stays on the device)";
    case ExecutionResidency::LayerwiseHost:
      return fmt::format("{} layer units whatever K (the prefetch depth)", layers.device_depth(0));
    case ExecutionResidency::DenseDiskStream:
      break;
  }
  return fmt::format("min(K, {}) of K layer units (the dense transfer window)",
                     DENSE_TRANSFER_WINDOW);
}

Result<std::string> describe_policy(const WeightResidency& residency) {
  const LayerWeightResidency layers = residency.layers();
  EREDU_TRY(offload, layers.offload());
  std::string out = fmt::format("execution residency: {}\noffload config: {}\ndevice depth: {}\n",
                                execution_residency_name(layers.execution_residency()),
                                offload_text(offload), device_depth_text(layers));
  if (const auto dense = layers.dense()) {
    out += fmt::format("dense stream: host lookahead {}, background queue capacity {}\n",
                       dense->host_lookahead(), dense->background_queue_capacity());
  }
  out += fmt::format("max cached shards: {}\n", layers.max_cached_shards());
  out += fmt::format("memory sampling: backend {}, process {}\n",
                     layers.sample_backend_memory() ? "on" : "off",
                     layers.sample_process_memory() ? "on" : "off");
  if (const auto cache = residency.parameter_bank_cache()) {
    out += fmt::format(
        "parameter banks: independent cache; offload config: {}; compact bank scratch {}; "
        "prefill target {}\n",
        offload_text(cache->offload()), budget_text(cache->compact_bank_scratch_bytes()),
        budget_text(cache->prefill_compact_bank_target_bytes()));
  } else {
    out += "parameter banks: with layer\n";
  }
  out += fmt::format("preparation residency: {}\n", request_name(preparation_residency(residency)));
  return out;
}

}  // namespace

Result<int> run_residency(const ResidencyArgs& args) {
  EREDU_TRY(text, read_policy_text(args.policy));
  EREDU_TRY(residency, load_residency_json(text));
  EREDU_TRY(description, describe_policy(residency));
  EREDU_TRY(write_stdout(description));
  return kExitOk;
}

}  // namespace eredu
