// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// eredu_residency_validate and the weight-residency descriptors
// (docs/residency.md, "Weight-residency policies").
#include "admission/residency_json.hpp"
#include "firewall.hpp"
#include "request/load_request.hpp"
#include "residency_policy_arguments.hpp"

namespace eredu::capi {

// The C constants are the core's enum values.
static_assert(EREDU_EXECUTION_RESIDENCY_FULLY_RESIDENT ==
              static_cast<int>(ExecutionResidency::FullyResident));
static_assert(EREDU_EXECUTION_RESIDENCY_LAYERWISE_HOST ==
              static_cast<int>(ExecutionResidency::LayerwiseHost));
static_assert(EREDU_EXECUTION_RESIDENCY_DENSE_DISK_STREAM ==
              static_cast<int>(ExecutionResidency::DenseDiskStream));
static_assert(EREDU_RESIDENCY_REQUEST_FULLY_RESIDENT ==
              static_cast<int>(ResidencyRequest::FullyResident));
static_assert(EREDU_RESIDENCY_REQUEST_LAYERWISE_HOST ==
              static_cast<int>(ResidencyRequest::LayerwiseHost));
static_assert(EREDU_RESIDENCY_REQUEST_DENSE_DISK_STREAM ==
              static_cast<int>(ResidencyRequest::DenseDiskStream));
static_assert(EREDU_RESIDENCY_REQUEST_ADDRESSABLE_PARAMETER_BANKS ==
              static_cast<int>(ResidencyRequest::AddressableParameterBanks));
static_assert(EREDU_DENSE_TRANSFER_WINDOW == DENSE_TRANSFER_WINDOW);
static_assert(EREDU_DEFAULT_MAX_CACHED_SHARDS == DEFAULT_MAX_CACHED_SHARDS);

namespace {

Result<LayerwiseArgument> layerwise_argument(const eredu_layerwise_options* given) {
  if (given == nullptr) return LayerwiseArgument{};
  EREDU_TRY(read,
            read_sized(given, SizedDefaults<eredu_layerwise_options>::value(), "desc->layerwise"));
  const eredu_layerwise_options* options = &read;
  EREDU_TRY(offload, offload_argument(options->offload, "desc->layerwise->offload"));
  EREDU_TRY(backend, flag_argument(options->sample_backend_memory,
                                   "desc->layerwise->sample_backend_memory"));
  EREDU_TRY(process, flag_argument(options->sample_process_memory,
                                   "desc->layerwise->sample_process_memory"));
  return LayerwiseArgument{offload, options->max_cached_shards, backend, process};
}

Result<DenseArgument> dense_argument(const eredu_dense_stream_options* given) {
  if (given == nullptr) return DenseArgument{};
  EREDU_TRY(read,
            read_sized(given, SizedDefaults<eredu_dense_stream_options>::value(), "desc->dense"));
  const eredu_dense_stream_options* options = &read;
  EREDU_TRY(eviction, enum_argument(cache_eviction_policy_from_value(options->eviction_policy),
                                    options->eviction_policy, "desc->dense->eviction_policy"));
  EREDU_TRY(backend,
            flag_argument(options->sample_backend_memory, "desc->dense->sample_backend_memory"));
  EREDU_TRY(process,
            flag_argument(options->sample_process_memory, "desc->dense->sample_process_memory"));
  return DenseArgument{options->device_budget_bytes,
                       options->host_budget_bytes,
                       options->host_lookahead,
                       options->background_queue_capacity,
                       eviction,
                       options->max_cached_shards,
                       backend,
                       process};
}

Result<ParameterBankArgument> parameter_bank_argument(const eredu_parameter_bank_options* given) {
  EREDU_TRY(read, read_sized(given, SizedDefaults<eredu_parameter_bank_options>::value(),
                             "desc->parameter_bank_cache"));
  const eredu_parameter_bank_options* options = &read;
  EREDU_TRY(members, offload_argument(options->members, "desc->parameter_bank_cache->members"));
  return ParameterBankArgument{members, options->compact_bank_scratch_bytes,
                               options->prefill_compact_bank_target_bytes};
}

Result<void> no_options(const void* options, ExecutionResidency layers, const char* name) {
  if (options != nullptr) {
    return failf(Status::InvalidArgument,
                 "{} must be NULL: desc->layers is {}, whose placement takes no such options", name,
                 static_cast<std::uint32_t>(layers));
  }
  return outcome::success();
}

/// The bank cache's echo; the fields stay 0 without one.
void parameter_bank_out(const WeightResidency& residency, eredu_residency_summary& out) {
  const std::optional<ParameterBankLoadOptions> cache = residency.parameter_banks().cache();
  if (!cache) return;
  const OffloadConfig members = cache->offload();
  out.has_parameter_bank_cache = 1;
  out.parameter_bank_has_device_budget = members.device_budget_bytes().has_value() ? 1 : 0;
  out.parameter_bank_device_budget_bytes = members.device_budget_bytes().value_or(0);
  out.parameter_bank_has_host_budget = members.host_budget_bytes().has_value() ? 1 : 0;
  out.parameter_bank_host_budget_bytes = members.host_budget_bytes().value_or(0);
  out.parameter_bank_prefetch_depth = members.prefetch_depth();
  out.parameter_bank_eviction_policy =
      static_cast<eredu_eviction_policy>(members.eviction_policy());
  out.parameter_bank_compact_scratch_bytes = cache->compact_bank_scratch_bytes();
  out.parameter_bank_prefill_target_bytes = cache->prefill_compact_bank_target_bytes();
}

}  // namespace

Result<void> summary_out(const WeightResidency& residency, std::uint64_t unit_count,
                         eredu_residency_summary* out) {
  const LayerWeightResidency layers = residency.layers();
  EREDU_TRY(offload, layers.offload());
  if (out == nullptr) return outcome::success();
  eredu_residency_summary summary{};
  summary.execution_residency =
      static_cast<eredu_execution_residency>(layers.execution_residency());
  summary.offload_has_device_budget = offload.device_budget_bytes().has_value() ? 1 : 0;
  summary.offload_device_budget_bytes = offload.device_budget_bytes().value_or(0);
  summary.offload_has_host_budget = offload.host_budget_bytes().has_value() ? 1 : 0;
  summary.offload_host_budget_bytes = offload.host_budget_bytes().value_or(0);
  summary.offload_prefetch_depth = offload.prefetch_depth();
  summary.offload_eviction_policy = static_cast<eredu_eviction_policy>(offload.eviction_policy());
  summary.device_depth = layers.device_depth(unit_count);
  summary.max_cached_shards = residency.max_cached_shards();
  summary.preparation_residency =
      static_cast<eredu_residency_request>(preparation_residency(residency));
  summary.is_fully_resident = residency.is_fully_resident() ? 1 : 0;
  summary.ordinary_is_fully_resident = residency.ordinary_is_fully_resident() ? 1 : 0;
  summary.sample_backend_memory = layers.sample_backend_memory() ? 1 : 0;
  summary.sample_process_memory = layers.sample_process_memory() ? 1 : 0;
  if (const std::optional<DenseDiskStreamLoadOptions> dense = layers.dense()) {
    summary.dense_host_lookahead = dense->host_lookahead();
    summary.dense_background_queue_capacity = dense->background_queue_capacity();
  }
  parameter_bank_out(residency, summary);
  write_sized(out, summary);
  return outcome::success();
}

Result<LayerwiseLoadOptions> LayerwiseArgument::build() const {
  EREDU_TRY(config, offload.build());
  return LayerwiseLoadOptions(config)
      .with_max_cached_shards(max_cached_shards)
      .with_memory_sampling(sample_backend_memory, sample_process_memory);
}

Result<DenseDiskStreamLoadOptions> DenseArgument::build() const {
  EREDU_TRY(options, DenseDiskStreamLoadOptions::create(device_budget_bytes, host_budget_bytes,
                                                        host_lookahead, background_queue_capacity));
  return options.with_eviction_policy(eviction_policy)
      .with_max_cached_shards(max_cached_shards)
      .with_memory_sampling(sample_backend_memory, sample_process_memory);
}

Result<ParameterBankLoadOptions> ParameterBankArgument::build() const {
  EREDU_TRY(config, members.build());
  return ParameterBankLoadOptions::create(config, compact_bank_scratch_bytes,
                                          prefill_compact_bank_target_bytes);
}

Result<OrdinaryWeightResidency> WeightResidencyArgument::ordinary() const {
  switch (layers) {
    case ExecutionResidency::FullyResident:
      break;
    case ExecutionResidency::LayerwiseHost: {
      EREDU_TRY(options, layerwise.build());
      return OrdinaryWeightResidency::layerwise_host(options);
    }
    case ExecutionResidency::DenseDiskStream: {
      EREDU_TRY(options, dense.build());
      return OrdinaryWeightResidency::dense_disk_stream(options);
    }
  }
  return OrdinaryWeightResidency::fully_resident();
}

Result<WeightResidency> WeightResidencyArgument::build() const {
  EREDU_TRY(placement, ordinary());
  if (!parameter_bank_cache.has_value()) return WeightResidency::with_layers(placement.layers());
  EREDU_TRY(cache, parameter_bank_cache->build());
  return WeightResidency::with_independent_parameter_banks(placement, cache);
}

Result<WeightResidencyArgument> weight_residency_argument(
    const eredu_weight_residency_desc* given) {
  EREDU_TRY(read, read_sized(given, SizedDefaults<eredu_weight_residency_desc>::value(), "desc"));
  const eredu_weight_residency_desc* desc = &read;
  EREDU_TRY(layers, enum_argument(execution_residency_from_value(desc->layers), desc->layers,
                                  "desc->layers"));
  WeightResidencyArgument argument;
  argument.layers = layers;
  if (layers == ExecutionResidency::LayerwiseHost) {
    EREDU_TRY(layerwise, layerwise_argument(desc->layerwise));
    argument.layerwise = layerwise;
  } else {
    EREDU_TRY(no_options(desc->layerwise, layers, "desc->layerwise"));
  }
  if (layers == ExecutionResidency::DenseDiskStream) {
    EREDU_TRY(dense, dense_argument(desc->dense));
    argument.dense = dense;
  } else {
    EREDU_TRY(no_options(desc->dense, layers, "desc->dense"));
  }
  if (desc->parameter_bank_cache != nullptr) {
    EREDU_TRY(cache, parameter_bank_argument(desc->parameter_bank_cache));
    argument.parameter_bank_cache = cache;
  }
  return argument;
}

}  // namespace eredu::capi

// Defined at global scope: GCC gives extern "C" definitions inside a
// namespace that namespace's (hidden) visibility.
using namespace eredu;
using namespace eredu::capi;

extern "C" {

eredu_status eredu_layerwise_options_init(eredu_layerwise_options* options, size_t size,
                                          eredu_error** error) {
  return init_sized(options, size, "options", error);
}

eredu_status eredu_dense_stream_options_init(eredu_dense_stream_options* options, size_t size,
                                             eredu_error** error) {
  return init_sized(options, size, "options", error);
}

eredu_status eredu_parameter_bank_options_init(eredu_parameter_bank_options* options, size_t size,
                                               eredu_error** error) {
  return init_sized(options, size, "options", error);
}

eredu_status eredu_weight_residency_desc_init(eredu_weight_residency_desc* desc, size_t size,
                                              eredu_error** error) {
  return init_sized(desc, size, "desc", error);
}

eredu_status eredu_residency_summary_init(eredu_residency_summary* summary, size_t size,
                                          eredu_error** error) {
  return init_sized(summary, size, "summary", error);
}

eredu_status eredu_residency_validate(const eredu_weight_residency_desc* desc, uint64_t unit_count,
                                      eredu_residency_summary* out, eredu_error** error) {
  return firewall(
      error,
      [&]() -> Result<void> {
        EREDU_TRY(argument, weight_residency_argument(desc));
        if (out != nullptr) {
          EREDU_TRY(sized_out(out, "out"));
        }
        EREDU_TRY(residency, argument.build());
        return summary_out(residency, unit_count, out);
      },
      out);
}

eredu_status eredu_residency_from_json(const char* text, size_t length, uint64_t unit_count,
                                       eredu_residency_summary* out, eredu_error** error) {
  return firewall(
      error,
      [&]() -> Result<void> {
        EREDU_TRY(document, json_argument(text, length, "text"));
        if (out != nullptr) {
          EREDU_TRY(sized_out(out, "out"));
        }
        EREDU_TRY(residency, load_residency_json(document));
        return summary_out(residency, unit_count, out);
      },
      out);
}

}  // extern "C"
