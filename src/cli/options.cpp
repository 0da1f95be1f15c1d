// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "cli/options.hpp"

#include <algorithm>
#include <array>
#include <nlohmann/json.hpp>
#include <string_view>
#include <utility>

#include "cli/byte_units.hpp"
#include "cli/library.hpp"

namespace eredu::cli {
namespace {

// Flag words take the hyphenated spelling too (docs/interchange.md, "General
// rules").
std::string snake_case(std::string word) {
  std::replace(word.begin(), word.end(), '-', '_');
  return word;
}

enum class Residency { FullyResident, LayerwiseHost, DenseDiskStream };

// The eredu.residency.v1 `kind` words, in Residency order.
constexpr std::array<std::string_view, 3> kResidencyWords = {"fully_resident", "layerwise_host",
                                                             "dense_disk_stream"};

Result<Residency> residency_kind_from(const std::string& flag) {
  const std::string word = snake_case(flag);
  for (std::size_t i = 0; i < kResidencyWords.size(); ++i) {
    if (kResidencyWords[i] == word) return static_cast<Residency>(i);
  }
  return failf(EREDU_E_INVALID_ARGUMENT,
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
  return failf(EREDU_E_INVALID_ARGUMENT, "{} applies to --residency {} only", flag, applies_to);
}

Result<void> check_flags_apply(Residency kind, const ResidencyFlags& flags) {
  const bool dense = kind == Residency::DenseDiskStream;
  const bool layerwise = kind == Residency::LayerwiseHost;
  EREDU_TRY(reject_flag(flags.host_budget && !dense && !layerwise, "--host-budget",
                        "layerwise-host or dense-disk-stream"));
  EREDU_TRY(reject_flag(flags.prefetch_depth && !layerwise, "--prefetch-depth", "layerwise-host"));
  EREDU_TRY(reject_flag(flags.host_lookahead && !dense, "--host-lookahead", "dense-disk-stream"));
  return reject_flag(flags.queue_capacity && !dense, "--queue-capacity", "dense-disk-stream");
}

// Sets `key` when the flag was given; the document's defaults are the
// flags' (docs/residency.md, "Policies as JSON").
void set_given(nlohmann::ordered_json& document, const char* key,
               std::optional<std::uint64_t> value) {
  if (value) document[key] = *value;
}

// Checks an eredu.residency.v1 document as the library reads it.
Result<void> validate_document(const std::string& text) {
  return check([&](eredu_error** error) {
    return eredu_residency_from_json(text.data(), text.size(), 0, nullptr, error);
  });
}

}  // namespace

eredu_check_options Admission::check_options() const {
  eredu_check_options options = EREDU_CHECK_OPTIONS_INIT;
  if (residency_json) {
    options.residency_json = residency_json->data();
    options.residency_json_length = residency_json->size();
  }
  options.has_device_budget = device_budget ? 1 : 0;
  options.device_budget_bytes = device_budget.value_or(0);
  return options;
}

eredu_topology topology_of(const TopologyFlags& flags) {
  const std::uint64_t stages = flags.pipeline_layers.empty() ? 1 : flags.pipeline_layers.size();
  eredu_topology topology = EREDU_TOPOLOGY_INIT;
  topology.tensor = flags.tensor;
  topology.pipeline = flags.pipeline.value_or(stages);
  topology.expert = flags.expert;
  topology.data = flags.data;
  return topology;
}

eredu_plan_options plan_options(eredu_policy policy, const TopologyFlags& flags) {
  eredu_plan_options options = EREDU_PLAN_OPTIONS_INIT;
  options.policy = policy;
  options.pipeline_layers = flags.pipeline_layers.data();
  options.pipeline_layer_count = flags.pipeline_layers.size();
  return options;
}

Result<eredu_policy> policy_from(const std::string& flag) {
  constexpr std::array<std::pair<std::string_view, eredu_policy>, 3> kPolicies = {{
      {"require", EREDU_POLICY_REQUIRE},
      {"require_even", EREDU_POLICY_REQUIRE_EVEN},
      {"replicate_unsupported", EREDU_POLICY_REPLICATE_UNSUPPORTED},
  }};
  const std::string word = snake_case(flag);
  for (const auto& [name, policy] : kPolicies) {
    if (name == word) return policy;
  }
  return failf(EREDU_E_INVALID_ARGUMENT,
               "--policy {} is not a sharding policy; use require, require-even or "
               "replicate-unsupported",
               debug_quoted(flag));
}

Result<Admission> admission_from(const ResidencyFlags& flags) {
  EREDU_TRY(kind, residency_kind_from(flags.kind));
  EREDU_TRY(device, size_from("--device-budget", flags.device_budget));
  EREDU_TRY(host, size_from("--host-budget", flags.host_budget));
  EREDU_TRY(check_flags_apply(kind, flags));
  nlohmann::ordered_json document;
  document["schema"] = "eredu.residency.v1";
  document["kind"] = kResidencyWords[static_cast<std::size_t>(kind)];
  Admission admission;
  if (kind == Residency::FullyResident) {
    admission.device_budget = device;
  } else {
    set_given(document, "device_budget_bytes", device);
    set_given(document, "host_budget_bytes", host);
    set_given(document, "prefetch_depth", flags.prefetch_depth);
    set_given(document, "host_lookahead", flags.host_lookahead);
    set_given(document, "background_queue_capacity", flags.queue_capacity);
    admission.residency_json = document.dump();
    EREDU_TRY(validate_document(*admission.residency_json));
  }
  EREDU_TRY(cache, size_from("--expert-cache", flags.expert_cache));
  if (cache) {
    document["parameter_bank_cache"] = {{"device_budget_bytes", *cache}};
    admission.residency_json = document.dump();
  }
  return admission;
}

}  // namespace eredu::cli
