// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The residency policies and load requests (eredu/runtime/residency_policy.h,
// eredu/runtime/request.h, eredu/runtime/residency.h). The input is first read whole as an
// eredu.residency.v1 document (eredu_residency_from_json), then as a
// program: FuzzedDataProvider picks calls and their arguments, zeros, huge
// counts and out-of-range enumeration values included, until the bytes run
// out.
#include <eredu/eredu.h>
#include <fuzzer/FuzzedDataProvider.h>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "fuzz_support.hpp"

using eredu_fuzz::ok;
using eredu_fuzz::require;

namespace {

// A struct_size: mostly the real one, sometimes a shorter caller's (the
// fields past it take their defaults); never larger than the object.
template <typename T>
uint32_t struct_size(FuzzedDataProvider& input) {
  return input.ConsumeIntegralInRange<uint32_t>(0, 15) == 0
             ? input.ConsumeIntegralInRange<uint32_t>(0, sizeof(T))
             : static_cast<uint32_t>(sizeof(T));
}

// A count or byte size: small, zero, at a boundary, or anything.
uint64_t amount(FuzzedDataProvider& input) {
  switch (input.ConsumeIntegralInRange(0, 3)) {
    case 0:
      return input.ConsumeIntegralInRange<uint64_t>(0, 8);
    case 1:
      return std::numeric_limits<uint64_t>::max() - input.ConsumeIntegralInRange<uint64_t>(0, 2);
    case 2:
      return uint64_t{1} << input.ConsumeIntegralInRange(0, 63);
    default:
      return input.ConsumeIntegral<uint64_t>();
  }
}

// An enumeration value or flag: its known values, sometimes another.
uint32_t choice(FuzzedDataProvider& input, uint32_t known) {
  return input.ConsumeIntegralInRange<uint32_t>(0, 15) == 0
             ? input.ConsumeIntegral<uint32_t>()
             : input.ConsumeIntegralInRange(0u, known - 1);
}

uint8_t flag(FuzzedDataProvider& input) { return static_cast<uint8_t>(choice(input, 2)); }

eredu_offload_config offload_config(FuzzedDataProvider& input) {
  eredu_offload_config config = EREDU_OFFLOAD_CONFIG_INIT;
  config.struct_size = struct_size<eredu_offload_config>(input);
  config.eviction_policy = choice(input, 2);
  config.device_budget_bytes = amount(input);
  config.host_budget_bytes = amount(input);
  config.prefetch_depth = amount(input);
  config.has_device_budget = flag(input);
  config.has_host_budget = flag(input);
  return config;
}

// Options and the description that points to them.
struct Residency {
  eredu_offload_config layerwise_offload = EREDU_OFFLOAD_CONFIG_INIT;
  eredu_offload_config bank_members = EREDU_OFFLOAD_CONFIG_INIT;
  eredu_layerwise_options layerwise = EREDU_LAYERWISE_OPTIONS_INIT;
  eredu_dense_stream_options dense = EREDU_DENSE_STREAM_OPTIONS_INIT;
  eredu_parameter_bank_options bank = EREDU_PARAMETER_BANK_OPTIONS_INIT;
  eredu_weight_residency_desc desc = EREDU_WEIGHT_RESIDENCY_DESC_INIT;

  explicit Residency(FuzzedDataProvider& input) {
    layerwise_offload = offload_config(input);
    layerwise.struct_size = struct_size<eredu_layerwise_options>(input);
    layerwise.offload = input.ConsumeBool() ? &layerwise_offload : nullptr;
    layerwise.max_cached_shards = amount(input);
    layerwise.sample_backend_memory = flag(input);
    layerwise.sample_process_memory = flag(input);
    dense.struct_size = struct_size<eredu_dense_stream_options>(input);
    dense.eviction_policy = choice(input, 2);
    dense.device_budget_bytes = amount(input);
    dense.host_budget_bytes = amount(input);
    dense.host_lookahead = amount(input);
    dense.background_queue_capacity = amount(input);
    dense.max_cached_shards = amount(input);
    dense.sample_backend_memory = flag(input);
    dense.sample_process_memory = flag(input);
    bank_members = offload_config(input);
    bank.struct_size = struct_size<eredu_parameter_bank_options>(input);
    bank.members = input.ConsumeBool() ? &bank_members : nullptr;
    bank.compact_bank_scratch_bytes = amount(input);
    bank.prefill_compact_bank_target_bytes = amount(input);
    desc.struct_size = struct_size<eredu_weight_residency_desc>(input);
    desc.layers = choice(input, 3);
    desc.layerwise = input.ConsumeBool() ? &layerwise : nullptr;
    desc.dense = input.ConsumeBool() ? &dense : nullptr;
    desc.parameter_bank_cache = input.ConsumeBool() ? &bank : nullptr;
  }
};

void check_summary(FuzzedDataProvider& input, const eredu_load_request* request) {
  eredu_residency_summary summary = EREDU_RESIDENCY_SUMMARY_INIT;
  summary.struct_size = struct_size<eredu_residency_summary>(input);
  eredu_error* error = nullptr;
  ok(eredu_load_request_weight_residency(request, amount(input), &summary, &error), error);
}

// One call on `request`, chosen by the input.
void step(FuzzedDataProvider& input, eredu_load_request* request) {
  eredu_error* error = nullptr;
  switch (input.ConsumeIntegralInRange(0, 13)) {
    case 0: {
      eredu_topology topology = EREDU_TOPOLOGY_INIT;
      topology.struct_size = struct_size<eredu_topology>(input);
      topology.tensor = amount(input);
      topology.pipeline = amount(input);
      topology.expert = amount(input);
      topology.data = amount(input);
      eredu_parallel_load_desc parallel = EREDU_PARALLEL_LOAD_DESC_INIT;
      parallel.struct_size = struct_size<eredu_parallel_load_desc>(input);
      parallel.activation_dtype = choice(input, 3);
      parallel.topology = input.ConsumeBool() ? &topology : nullptr;
      parallel.rank = amount(input);
      parallel.maximum_batch_size = input.ConsumeIntegral<int32_t>();
      parallel.maximum_sequence_length = input.ConsumeIntegral<int32_t>();
      parallel.completion_timeout_millis = amount(input);
      parallel.completion_cancellation = choice(input, 2);
      ok(eredu_load_request_set_parallel_execution(request, &parallel, &error), error);
      break;
    }
    case 1:
      ok(eredu_load_request_set_communication_completion_policy(request, amount(input),
                                                                choice(input, 2), &error),
         error);
      break;
    case 2: {
      eredu_drafting_plan plan = EREDU_DRAFTING_PLAN_INIT;
      plan.struct_size = struct_size<eredu_drafting_plan>(input);
      plan.kind = choice(input, 3);
      plan.max_draft_tokens = amount(input);
      ok(eredu_load_request_set_drafting_plan(request, &plan, &error), error);
      break;
    }
    case 3:
      ok(eredu_load_request_set_drafting(request, choice(input, 4), amount(input), &error), error);
      break;
    case 4:
      ok(eredu_load_request_set_max_cached_shards(request, amount(input), &error), error);
      break;
    case 5: {
      const Residency residency(input);
      ok(eredu_load_request_set_weight_residency(request, &residency.desc, &error), error);
      break;
    }
    case 6:
      ok(eredu_load_request_set_required_session_capabilities(
             request, input.ConsumeIntegral<uint32_t>(), &error),
         error);
      break;
    case 7:
      ok(eredu_load_request_set_state_residency(request, choice(input, 2), &error), error);
      break;
    case 8:
      ok(eredu_load_request_set_prompt_cache_persistence(request, flag(input), &error), error);
      break;
    case 9: {
      eredu_load_request_info info = EREDU_LOAD_REQUEST_INFO_INIT;
      info.struct_size = struct_size<eredu_load_request_info>(input);
      ok(eredu_load_request_get_info(request, &info, &error), error);
      eredu_quantization_request quantization = EREDU_QUANTIZATION_REQUEST_INIT;
      bool present = false;
      ok(eredu_load_request_quantization(request, &quantization, &present, &error), error);
      break;
    }
    case 10: {
      eredu_parallel_load_desc parallel = EREDU_PARALLEL_LOAD_DESC_INIT;
      parallel.struct_size = struct_size<eredu_parallel_load_desc>(input);
      bool present = false;
      ok(eredu_load_request_parallel_execution(request, &parallel, &present, &error), error);
      uint64_t timeout = 0;
      eredu_cancellation_mode cancellation = 0;
      ok(eredu_load_request_communication_completion_policy(request, &timeout, &cancellation,
                                                            &present, &error),
         error);
      break;
    }
    case 11:
      check_summary(input, request);
      break;
    case 12: {
      eredu_preparation_policy policy = EREDU_PREPARATION_POLICY_INIT;
      policy.struct_size = struct_size<eredu_preparation_policy>(input);
      ok(eredu_load_request_validate_model_preparation(request, &policy, &error), error);
      break;
    }
    default: {
      eredu_residency_summary summary = EREDU_RESIDENCY_SUMMARY_INIT;
      const Residency residency(input);
      ok(eredu_residency_validate(&residency.desc, amount(input),
                                  input.ConsumeBool() ? &summary : nullptr, &error),
         error);
      break;
    }
  }
}

// An offload plan of units named by the input; its count is the units' or a
// huge one, which must be refused before the array is read.
void offload_plan(FuzzedDataProvider& input) {
  const eredu_offload_config config = offload_config(input);
  const std::size_t units = input.ConsumeIntegralInRange<std::size_t>(0, 8);
  std::vector<std::string> ids;
  std::vector<eredu_offload_unit_desc> descs(units);
  std::vector<const eredu_offload_unit_desc*> pointers;
  for (auto& desc : descs) {
    ids.push_back(input.ConsumeRandomLengthString(16));
    desc = EREDU_OFFLOAD_UNIT_DESC_INIT;
    desc.bytes = amount(input);
    desc.policy = choice(input, 3);
    desc.tier = choice(input, 3);
  }
  for (std::size_t i = 0; i < units; ++i) {
    descs[i].id = ids[i].c_str();
    pointers.push_back(&descs[i]);
  }
  std::size_t count = units;
  if (input.ConsumeIntegralInRange(0, 7) == 0) {
    count = (std::size_t{1} << 40) + input.ConsumeIntegralInRange<std::size_t>(0, SIZE_MAX >> 1);
  }
  eredu_offload_plan* plan = nullptr;
  eredu_error* error = nullptr;
  if (ok(eredu_offload_plan_new(&config, pointers.data(), count, &plan, &error), error)) {
    require(ok(eredu_offload_plan_validate(plan, &error), error));
    eredu_offload_plan_free(plan);
  } else {
    require(plan == nullptr);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  eredu_residency_summary summary = EREDU_RESIDENCY_SUMMARY_INIT;
  eredu_error* error = nullptr;
  ok(eredu_residency_from_json(reinterpret_cast<const char*>(data), size, size, &summary, &error),
     error);

  FuzzedDataProvider input(data, size);
  offload_plan(input);
  eredu_quantization_request quantization = EREDU_QUANTIZATION_REQUEST_INIT;
  quantization.struct_size = struct_size<eredu_quantization_request>(input);
  quantization.kind = choice(input, 2);
  quantization.group_size = static_cast<uint32_t>(amount(input));
  quantization.bits = input.ConsumeIntegral<uint8_t>();
  eredu_load_request* request = nullptr;
  if (!ok(eredu_load_request_new(input.ConsumeBool() ? &quantization : nullptr, &request, &error),
          error)) {
    require(request == nullptr);
    return 0;
  }
  while (input.remaining_bytes() > 0) step(input, request);
  eredu_load_request_free(request);
  return 0;
}
