// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include <fmt/format.h>

#include <string>

#include "cli/byte_units.hpp"
#include "cli/commands.hpp"
#include "cli/input.hpp"
#include "cli/library.hpp"
#include "cli/output.hpp"

namespace eredu::cli {
namespace {

std::string_view execution_residency_name(eredu_execution_residency residency) {
  switch (residency) {
    case EREDU_EXECUTION_RESIDENCY_FULLY_RESIDENT:
      return "fully_resident";
    case EREDU_EXECUTION_RESIDENCY_LAYERWISE_HOST:
      return "layerwise_host";
    case EREDU_EXECUTION_RESIDENCY_DENSE_DISK_STREAM:
      return "dense_disk_stream";
    default:
      return "unknown";
  }
}

std::string_view request_name(eredu_residency_request request) {
  switch (request) {
    case EREDU_RESIDENCY_REQUEST_FULLY_RESIDENT:
      return "fully_resident";
    case EREDU_RESIDENCY_REQUEST_LAYERWISE_HOST:
      return "layerwise_host";
    case EREDU_RESIDENCY_REQUEST_DENSE_DISK_STREAM:
      return "dense_disk_stream";
    case EREDU_RESIDENCY_REQUEST_ADDRESSABLE_PARAMETER_BANKS:
      return "addressable_parameter_banks";
    default:
      return "unknown";
  }
}

std::string_view eviction_name(eredu_eviction_policy policy) {
  return policy == EREDU_EVICTION_LEAST_FREQUENTLY_USED ? "least_frequently_used"
                                                        : "least_recently_used";
}

std::string bytes_text(std::uint64_t bytes) {
  return fmt::format("{} bytes ({})", bytes, human_bytes(bytes));
}

std::string budget_text(bool bounded, std::uint64_t budget) {
  return bounded ? bytes_text(budget) : "unbounded";
}

std::string offload_text(bool has_device, std::uint64_t device, bool has_host, std::uint64_t host,
                         std::uint64_t prefetch_depth, eredu_eviction_policy eviction) {
  return fmt::format("device budget {}, host budget {}, prefetch depth {}, eviction {}",
                     budget_text(has_device, device), budget_text(has_host, host), prefetch_depth,
                     eviction_name(eviction));
}

std::string device_depth_text(const eredu_residency_summary& summary) {
  switch (summary.execution_residency) {
    case EREDU_EXECUTION_RESIDENCY_FULLY_RESIDENT:
      return "K of K layer units (every unit stays on the device)";
    case EREDU_EXECUTION_RESIDENCY_LAYERWISE_HOST:
      return fmt::format("{} layer units whatever K (the prefetch depth)", summary.device_depth);
    default:
      return fmt::format("min(K, {}) of K layer units (the dense transfer window)",
                         EREDU_DENSE_TRANSFER_WINDOW);
  }
}

std::string describe_policy(const eredu_residency_summary& summary) {
  std::string out = fmt::format(
      "execution residency: {}\noffload config: {}\ndevice depth: {}\n",
      execution_residency_name(summary.execution_residency),
      offload_text(summary.offload_has_device_budget != 0, summary.offload_device_budget_bytes,
                   summary.offload_has_host_budget != 0, summary.offload_host_budget_bytes,
                   summary.offload_prefetch_depth, summary.offload_eviction_policy),
      device_depth_text(summary));
  if (summary.execution_residency == EREDU_EXECUTION_RESIDENCY_DENSE_DISK_STREAM) {
    out += fmt::format("dense stream: host lookahead {}, background queue capacity {}\n",
                       summary.dense_host_lookahead, summary.dense_background_queue_capacity);
  }
  out += fmt::format("max cached shards: {}\n", summary.max_cached_shards);
  out += fmt::format("memory sampling: backend {}, process {}\n",
                     summary.sample_backend_memory != 0 ? "on" : "off",
                     summary.sample_process_memory != 0 ? "on" : "off");
  if (summary.has_parameter_bank_cache != 0) {
    out += fmt::format(
        "parameter banks: independent cache; offload config: {}; compact bank scratch {}; "
        "prefill target {}\n",
        offload_text(summary.parameter_bank_has_device_budget != 0,
                     summary.parameter_bank_device_budget_bytes,
                     summary.parameter_bank_has_host_budget != 0,
                     summary.parameter_bank_host_budget_bytes,
                     summary.parameter_bank_prefetch_depth, summary.parameter_bank_eviction_policy),
        bytes_text(summary.parameter_bank_compact_scratch_bytes),
        bytes_text(summary.parameter_bank_prefill_target_bytes));
  } else {
    out += "parameter banks: with layer\n";
  }
  out += fmt::format("preparation residency: {}\n", request_name(summary.preparation_residency));
  return out;
}

}  // namespace

Result<int> run_residency(const ResidencyArgs& args) {
  EREDU_TRY(text, read_file(args.policy, kMaxPolicyBytes));
  eredu_residency_summary summary = EREDU_RESIDENCY_SUMMARY_INIT;
  EREDU_TRY(check([&](eredu_error** error) {
    return eredu_residency_from_json(text.bytes.get(), text.length, 0, &summary, error);
  }));
  EREDU_TRY(write_stdout(describe_policy(summary)));
  return kExitOk;
}

}  // namespace eredu::cli
