// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The seed's normalized load request through eredu/runtime/request.h only: the
// seed's tests, every NormalizedLoadRequestError code, and the sized-struct
// rule of the request's structs.
#include <doctest/doctest.h>
#include <eredu/eredu.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <utility>

#include "capi_support.hpp"
#include "sized_checks.hpp"

using namespace capi_test;

namespace {

struct RequestFree {
  void operator()(eredu_load_request* request) const { eredu_load_request_free(request); }
};
using Request = std::unique_ptr<eredu_load_request, RequestFree>;

Request new_request(const eredu_quantization_request* quantization = nullptr) {
  eredu_load_request* request = nullptr;
  REQUIRE(eredu_load_request_new(quantization, &request, nullptr) == EREDU_OK);
  return Request(request);
}

Request quantized(eredu_quantization_kind kind, std::uint32_t group_size = 0,
                  std::uint8_t bits = 0) {
  eredu_quantization_request quantization = EREDU_QUANTIZATION_REQUEST_INIT;
  quantization.kind = kind;
  quantization.group_size = group_size;
  quantization.bits = bits;
  return new_request(&quantization);
}

/// A parallel request and the topology it points to: rank `rank` of a
/// tensor-parallel topology of `tensor` ranks, Float32 wire, 1000 ms
/// quarantined completion. Not copyable: the descriptor points into the
/// object itself.
struct Parallel {
  eredu_topology topology = EREDU_TOPOLOGY_INIT;
  eredu_parallel_load_desc desc = EREDU_PARALLEL_LOAD_DESC_INIT;

  Parallel(std::uint64_t tensor, std::uint64_t rank, std::int32_t batch, std::int32_t sequence) {
    topology.tensor = tensor;
    desc.topology = &topology;
    desc.rank = rank;
    desc.activation_dtype = EREDU_ACTIVATION_DTYPE_FLOAT32;
    desc.maximum_batch_size = batch;
    desc.maximum_sequence_length = sequence;
    desc.completion_timeout_millis = 1000;
    desc.completion_cancellation = EREDU_CANCELLATION_QUARANTINE_UNTIL_COMPLETE;
  }
  Parallel(const Parallel&) = delete;
  Parallel& operator=(const Parallel&) = delete;
};

Parallel parallel_desc(std::uint64_t tensor, std::uint64_t rank, std::int32_t batch,
                       std::int32_t sequence) {
  return {tensor, rank, batch, sequence};
}

/// The outcome of one call: its status and its error object's code and text.
struct Outcome {
  eredu_status status = EREDU_OK;
  eredu_status code = EREDU_OK;
  std::string message;
};

template <class Call>
Outcome outcome_of(Call&& call) {
  ErrorSlot error;
  Outcome outcome;
  outcome.status = call(error.slot());
  outcome.code = error.code();
  if (error.get() != nullptr) outcome.message = error.message();
  return outcome;
}

Outcome set_parallel(eredu_load_request* request, const eredu_parallel_load_desc& desc) {
  return outcome_of([&](eredu_error** error) {
    return eredu_load_request_set_parallel_execution(request, &desc, error);
  });
}

Outcome set_parallel(eredu_load_request* request, const Parallel& parallel) {
  return set_parallel(request, parallel.desc);
}

Outcome set_completion(eredu_load_request* request, std::uint64_t timeout_millis,
                       eredu_cancellation_mode cancellation) {
  return outcome_of([&](eredu_error** error) {
    return eredu_load_request_set_communication_completion_policy(request, timeout_millis,
                                                                  cancellation, error);
  });
}

Outcome validate(const eredu_load_request* request, eredu_preparation_policy* policy) {
  REQUIRE(eredu_preparation_policy_init(policy, sizeof *policy, nullptr) == EREDU_OK);
  return outcome_of([&](eredu_error** error) {
    return eredu_load_request_validate_model_preparation(request, policy, error);
  });
}

Outcome validate(const eredu_load_request* request) {
  eredu_preparation_policy policy;
  return validate(request, &policy);
}

/// The request's plain fields.
eredu_load_request_info info_of(const eredu_load_request* request) {
  eredu_load_request_info info = EREDU_LOAD_REQUEST_INFO_INIT;
  REQUIRE(eredu_load_request_get_info(request, &info, nullptr) == EREDU_OK);
  CHECK(info.struct_size == sizeof(eredu_load_request_info));
  return info;
}

bool has_parallel(const eredu_load_request* request) {
  eredu_parallel_load_desc out = EREDU_PARALLEL_LOAD_DESC_INIT;
  bool present = true;
  REQUIRE(eredu_load_request_parallel_execution(request, &out, &present, nullptr) == EREDU_OK);
  CHECK(info_of(request).has_parallel_execution == (present ? 1 : 0));
  if (!present) CHECK(out.topology == nullptr);
  return present;
}

struct Completion {
  std::uint64_t timeout_millis = 0;
  eredu_cancellation_mode cancellation = 0;
  bool present = false;
};

Completion communication_completion(const eredu_load_request* request,
                                    eredu_status expected = EREDU_OK) {
  Completion completion;
  CHECK(eredu_load_request_communication_completion_policy(
            request, &completion.timeout_millis, &completion.cancellation, &completion.present,
            nullptr) == expected);
  return completion;
}

Completion realtime_completion(const eredu_load_request* request) {
  const eredu_load_request_info info = info_of(request);
  Completion completion;
  completion.timeout_millis = info.realtime_completion_timeout_millis;
  completion.cancellation = info.realtime_completion_cancellation;
  completion.present = true;
  return completion;
}

std::uint64_t max_cached_shards(const eredu_load_request* request) {
  return info_of(request).max_cached_shards;
}

/// The drafting intent: (kind, embedded capacity).
std::pair<eredu_drafting_kind, std::uint64_t> drafting_of(const eredu_load_request* request) {
  const eredu_load_request_info info = info_of(request);
  return {info.drafting, info.max_draft_tokens};
}

/// The quantization getter: the request, or nullopt when absent.
std::optional<eredu_quantization_request> quantization_of(const eredu_load_request* request) {
  eredu_quantization_request out;
  REQUIRE(eredu_quantization_request_init(&out, sizeof out, nullptr) == EREDU_OK);
  bool present = true;
  REQUIRE(eredu_load_request_quantization(request, &out, &present, nullptr) == EREDU_OK);
  CHECK(out.struct_size == sizeof(eredu_quantization_request));
  CHECK(info_of(request).has_quantization == (present ? 1 : 0));
  if (!present) {
    CHECK(out.kind == 0);
    CHECK(out.group_size == 0);
    CHECK(out.bits == 0);
    return std::nullopt;
  }
  return out;
}

eredu_residency_summary weight_residency_of(const eredu_load_request* request,
                                            std::uint64_t unit_count) {
  eredu_residency_summary summary = EREDU_RESIDENCY_SUMMARY_INIT;
  REQUIRE(eredu_load_request_weight_residency(request, unit_count, &summary, nullptr) == EREDU_OK);
  return summary;
}

std::uint32_t capabilities_of(const eredu_load_request* request) {
  return info_of(request).required_session_capabilities;
}

}  // namespace

TEST_SUITE("capi.request") {
  TEST_CASE("parallel policy is atomic and exact") {
    const Request request = quantized(EREDU_QUANTIZATION_MXFP4);
    REQUIRE(set_parallel(request.get(), parallel_desc(2, 1, 2, 128)).status == EREDU_OK);
    REQUIRE(eredu_load_request_set_required_session_capabilities(request.get(), 0b101, nullptr) ==
            EREDU_OK);

    eredu_preparation_policy policy;
    const Outcome validated = validate(request.get(), &policy);
    REQUIRE(validated.status == EREDU_OK);
    CHECK(validated.code == EREDU_OK);

    eredu_parallel_load_desc parallel;
    REQUIRE(eredu_parallel_load_desc_init(&parallel, sizeof parallel, nullptr) == EREDU_OK);
    bool present = false;
    REQUIRE(eredu_load_request_parallel_execution(request.get(), &parallel, &present, nullptr) ==
            EREDU_OK);
    CHECK(present);
    CHECK(parallel.struct_size == sizeof(eredu_parallel_load_desc));
    REQUIRE(parallel.topology != nullptr);
    CHECK(parallel.topology->struct_size == sizeof(eredu_topology));
    CHECK(parallel.topology->tensor == 2);
    CHECK(parallel.topology->pipeline == 1);
    CHECK(parallel.topology->expert == 1);
    CHECK(parallel.topology->data == 1);
    CHECK(parallel.rank == 1);
    CHECK(parallel.activation_dtype == EREDU_ACTIVATION_DTYPE_FLOAT32);
    CHECK(parallel.maximum_batch_size == 2);
    CHECK(parallel.maximum_sequence_length == 128);
    CHECK(parallel.completion_timeout_millis == 1000);
    CHECK(parallel.completion_cancellation == EREDU_CANCELLATION_QUARANTINE_UNTIL_COMPLETE);

    const Completion completion = communication_completion(request.get());
    CHECK(completion.present);
    CHECK(completion.timeout_millis == 1000);
    CHECK(completion.cancellation == EREDU_CANCELLATION_QUARANTINE_UNTIL_COMPLETE);

    REQUIRE(policy.topology != nullptr);
    CHECK(policy.topology->tensor == 2);
    CHECK(policy.topology->pipeline == 1);
    CHECK(policy.topology->expert == 1);
    CHECK(policy.topology->data == 1);
    CHECK(policy.topology == parallel.topology);  // both borrowed from the request
    CHECK(policy.has_quantization == 1);
    CHECK(policy.quantization_kind == EREDU_QUANTIZATION_MXFP4);
    CHECK(policy.quantization_group_size == 0);
    CHECK(policy.quantization_bits == 0);
    CHECK(policy.residency == EREDU_RESIDENCY_REQUEST_FULLY_RESIDENT);
    CHECK(policy.required_session_capabilities == 0b101);

    // The request's own accessors.
    const std::optional<eredu_quantization_request> quantization = quantization_of(request.get());
    REQUIRE(quantization.has_value());
    CHECK(quantization->kind == EREDU_QUANTIZATION_MXFP4);
    CHECK(quantization->group_size == 0);
    CHECK(quantization->bits == 0);
    CHECK(capabilities_of(request.get()) == 0b101);
    const eredu_residency_summary residency = weight_residency_of(request.get(), 12);
    CHECK(residency.execution_residency == EREDU_EXECUTION_RESIDENCY_FULLY_RESIDENT);
    CHECK(residency.is_fully_resident == 1);
    CHECK(residency.device_depth == 12);
  }

  TEST_CASE("invalid parallel geometry fails at parallel construction") {
    const Request request = new_request();
    const Outcome zero_batch = set_parallel(request.get(), parallel_desc(2, 0, 0, 128));
    CHECK(zero_batch.status == EREDU_E_INVALID_INVOCATION_LIMITS);
    CHECK(zero_batch.code == EREDU_E_INVALID_INVOCATION_LIMITS);
    CHECK(zero_batch.message ==
          "partitioned invocation limits must be positive, got batch 0 and sequence 128");

    const Outcome negative = set_parallel(request.get(), parallel_desc(2, 0, 1, -1));
    CHECK(negative.status == EREDU_E_INVALID_INVOCATION_LIMITS);
    CHECK(negative.message ==
          "partitioned invocation limits must be positive, got batch 1 and sequence -1");
    CHECK(!has_parallel(request.get()));
  }

  TEST_CASE("replicated topology is rejected at parallel construction") {
    const Request request = new_request();
    const Outcome replicated = set_parallel(request.get(), parallel_desc(1, 0, 1, 128));
    CHECK(replicated.status == EREDU_E_REPLICATED_PARALLEL_TOPOLOGY);
    CHECK(replicated.code == EREDU_E_REPLICATED_PARALLEL_TOPOLOGY);
    CHECK(replicated.message == "explicit parallel execution requires a non-replicated topology");
    // The topology is checked before the limits.
    CHECK(set_parallel(request.get(), parallel_desc(1, 0, 0, 0)).status ==
          EREDU_E_REPLICATED_PARALLEL_TOPOLOGY);
    CHECK(!has_parallel(request.get()));
  }

  TEST_CASE("local completion cannot be reinterpreted as parallel completion") {
    const Request request = new_request();
    REQUIRE(
        set_completion(request.get(), 1000, EREDU_CANCELLATION_QUARANTINE_UNTIL_COMPLETE).status ==
        EREDU_OK);
    const Outcome attached = set_parallel(request.get(), parallel_desc(2, 0, 1, 128));
    CHECK(attached.status == EREDU_E_CONFLICTING_COMPLETION_POLICY);
    CHECK(attached.code == EREDU_E_CONFLICTING_COMPLETION_POLICY);
    CHECK(attached.message ==
          "parallel execution cannot replace an existing local completion policy");
    CHECK(!has_parallel(request.get()));
  }

  TEST_CASE("embedded drafting capacity is positive by construction") {
    const Request request = new_request();
    const Outcome zero = outcome_of([&](eredu_error** error) {
      return eredu_load_request_set_drafting(request.get(), EREDU_DRAFTING_EMBEDDED, 0, error);
    });
    CHECK(zero.status == EREDU_E_ZERO_EMBEDDED_DRAFT_CAPACITY);
    CHECK(zero.code == EREDU_E_ZERO_EMBEDDED_DRAFT_CAPACITY);
    CHECK(zero.message == "embedded draft capacity must be positive");

    auto [kind, capacity] = drafting_of(request.get());
    CHECK(kind == EREDU_DRAFTING_ARCHITECTURE_DEFAULT);
    CHECK(capacity == 0);

    REQUIRE(eredu_load_request_set_drafting(request.get(), EREDU_DRAFTING_EMBEDDED, 4, nullptr) ==
            EREDU_OK);
    std::tie(kind, capacity) = drafting_of(request.get());
    CHECK(kind == EREDU_DRAFTING_EMBEDDED);
    CHECK(capacity == 4);
  }

  TEST_CASE("local realtime completion does not become valid model communication") {
    const Request request = new_request();
    REQUIRE(
        set_completion(request.get(), 1000, EREDU_CANCELLATION_QUARANTINE_UNTIL_COMPLETE).status ==
        EREDU_OK);
    const Completion realtime = realtime_completion(request.get());
    CHECK(realtime.timeout_millis == 1000);
    CHECK(realtime.cancellation == EREDU_CANCELLATION_QUARANTINE_UNTIL_COMPLETE);

    eredu_preparation_policy policy;
    const Outcome validated = validate(request.get(), &policy);
    CHECK(validated.status == EREDU_E_ORPHANED_MODEL_COMPLETION);
    CHECK(validated.code == EREDU_E_ORPHANED_MODEL_COMPLETION);
    CHECK(validated.message == "a communication completion policy requires a parallel topology");
    CHECK(policy.struct_size == sizeof(eredu_preparation_policy));
    CHECK(policy.residency == 0);
    const Completion orphaned =
        communication_completion(request.get(), EREDU_E_ORPHANED_MODEL_COMPLETION);
    CHECK(!orphaned.present);
    CHECK(orphaned.timeout_millis == 0);
  }

  TEST_CASE("completion deadlines need at least one millisecond") {
    const Outcome zero = outcome_of([](eredu_error** error) {
      return eredu_completion_policy_validate(0, EREDU_CANCELLATION_NATIVE_CANCEL, error);
    });
    CHECK(zero.status == EREDU_E_INVALID_COMPLETION_POLICY);
    CHECK(zero.code == EREDU_E_INVALID_COMPLETION_POLICY);
    CHECK(zero.message ==
          "communication completion policy must have a positive millisecond deadline");
    CHECK(eredu_completion_policy_validate(1, EREDU_CANCELLATION_NATIVE_CANCEL, nullptr) ==
          EREDU_OK);
    CHECK(eredu_completion_policy_validate(UINT64_MAX, EREDU_CANCELLATION_QUARANTINE_UNTIL_COMPLETE,
                                           nullptr) == EREDU_OK);
    CHECK(eredu_completion_policy_validate(1, 2, nullptr) == EREDU_E_INVALID_ARGUMENT);
    // The mode is an argument check, before the deadline.
    CHECK(eredu_completion_policy_validate(0, 2, nullptr) == EREDU_E_INVALID_ARGUMENT);

    const Request request = new_request();
    CHECK(set_completion(request.get(), 0, EREDU_CANCELLATION_NATIVE_CANCEL).status ==
          EREDU_E_INVALID_COMPLETION_POLICY);
    CHECK(set_completion(request.get(), 5, 7).status == EREDU_E_INVALID_ARGUMENT);
    Parallel desc = parallel_desc(2, 0, 1, 128);
    desc.desc.completion_timeout_millis = 0;
    CHECK(set_parallel(request.get(), desc).status == EREDU_E_INVALID_COMPLETION_POLICY);
    // The completion deadline comes before the replicated-topology check.
    desc.topology.tensor = 1;
    CHECK(set_parallel(request.get(), desc).status == EREDU_E_INVALID_COMPLETION_POLICY);
    // Nothing was stored: validation passes and realtime work gets the default.
    CHECK(validate(request.get()).status == EREDU_OK);
    const Completion fallback = realtime_completion(request.get());
    CHECK(fallback.timeout_millis == 30000);
    CHECK(fallback.cancellation == EREDU_CANCELLATION_QUARANTINE_UNTIL_COMPLETE);
    CHECK(!communication_completion(request.get()).present);
  }

  TEST_CASE("the topology is checked before the completion and the request") {
    const Request request = new_request();
    Parallel desc = parallel_desc(2, 0, 0, 0);
    desc.desc.completion_timeout_millis = 0;
    desc.topology.pipeline = 0;
    CHECK(set_parallel(request.get(), desc).status == EREDU_E_ZERO_AXIS);
    desc.topology.pipeline = 1;
    desc.desc.rank = 2;
    const Outcome outside = set_parallel(request.get(), desc);
    CHECK(outside.status == EREDU_E_RANK_OUT_OF_RANGE);
    CHECK(outside.message == "rank 2 is outside world size 2");
    desc.topology.tensor = UINT64_MAX;
    desc.topology.pipeline = 2;
    CHECK(set_parallel(request.get(), desc).status == EREDU_E_WORLD_SIZE_OVERFLOW);
  }

  TEST_CASE("a completion set after parallel execution goes into the parallel request") {
    const Request request = new_request();
    REQUIRE(set_parallel(request.get(), parallel_desc(2, 1, 1, 128)).status == EREDU_OK);
    REQUIRE(set_completion(request.get(), 250, EREDU_CANCELLATION_NATIVE_CANCEL).status ==
            EREDU_OK);
    const Completion completion = communication_completion(request.get());
    CHECK(completion.present);
    CHECK(completion.timeout_millis == 250);
    CHECK(completion.cancellation == EREDU_CANCELLATION_NATIVE_CANCEL);
    CHECK(realtime_completion(request.get()).timeout_millis == 250);
    CHECK(validate(request.get()).status == EREDU_OK);

    // A second parallel request replaces the first, with its own completion.
    REQUIRE(set_parallel(request.get(), parallel_desc(4, 3, 8, 64)).status == EREDU_OK);
    eredu_parallel_load_desc parallel = EREDU_PARALLEL_LOAD_DESC_INIT;
    bool present = false;
    REQUIRE(eredu_load_request_parallel_execution(request.get(), &parallel, &present, nullptr) ==
            EREDU_OK);
    REQUIRE(parallel.topology != nullptr);
    CHECK(parallel.topology->tensor == 4);
    CHECK(parallel.rank == 3);
    CHECK(parallel.maximum_batch_size == 8);
    CHECK(parallel.maximum_sequence_length == 64);
    CHECK(parallel.completion_timeout_millis == 1000);
  }

  TEST_CASE("drafting plans map to drafting intent") {
    const Request request = new_request();
    eredu_drafting_plan plan;
    REQUIRE(eredu_drafting_plan_init(&plan, sizeof plan, nullptr) == EREDU_OK);
    CHECK(plan.struct_size == sizeof(eredu_drafting_plan));
    CHECK(plan.kind == EREDU_DRAFTING_PLAN_DISABLED);
    CHECK(plan.max_draft_tokens == 0);

    const auto drafting = [&]() { return drafting_of(request.get()); };
    REQUIRE(eredu_load_request_set_drafting_plan(request.get(), &plan, nullptr) == EREDU_OK);
    CHECK(drafting() == std::pair<eredu_drafting_kind, std::uint64_t>{EREDU_DRAFTING_DISABLED, 0});
    plan.kind = EREDU_DRAFTING_PLAN_EMBEDDED;
    plan.max_draft_tokens = 3;
    REQUIRE(eredu_load_request_set_drafting_plan(request.get(), &plan, nullptr) == EREDU_OK);
    CHECK(drafting() == std::pair<eredu_drafting_kind, std::uint64_t>{EREDU_DRAFTING_EMBEDDED, 3});
    plan.kind = EREDU_DRAFTING_PLAN_EXTERNAL;
    REQUIRE(eredu_load_request_set_drafting_plan(request.get(), &plan, nullptr) == EREDU_OK);
    CHECK(drafting() ==
          std::pair<eredu_drafting_kind, std::uint64_t>{EREDU_DRAFTING_EXTERNAL_TARGET, 0});

    plan.kind = EREDU_DRAFTING_PLAN_EMBEDDED;
    plan.max_draft_tokens = 0;
    const Outcome zero = outcome_of([&](eredu_error** error) {
      return eredu_load_request_set_drafting_plan(request.get(), &plan, error);
    });
    CHECK(zero.status == EREDU_E_ZERO_EMBEDDED_DRAFT_CAPACITY);
    CHECK(zero.code == EREDU_E_ZERO_EMBEDDED_DRAFT_CAPACITY);

    plan.kind = 3;
    plan.max_draft_tokens = 4;
    const Outcome unknown = outcome_of([&](eredu_error** error) {
      return eredu_load_request_set_drafting_plan(request.get(), &plan, error);
    });
    CHECK(unknown.status == EREDU_E_UNSUPPORTED_DRAFTING_PLAN);
    CHECK(unknown.code == EREDU_E_UNSUPPORTED_DRAFTING_PLAN);
    CHECK(unknown.message == "unsupported speculative drafting plan");
    CHECK(drafting() ==
          std::pair<eredu_drafting_kind, std::uint64_t>{EREDU_DRAFTING_EXTERNAL_TARGET, 0});

    plan.struct_size = 0;
    CHECK(eredu_load_request_set_drafting_plan(request.get(), &plan, nullptr) ==
          EREDU_E_INVALID_ARGUMENT);
    CHECK(eredu_load_request_set_drafting_plan(request.get(), nullptr, nullptr) ==
          EREDU_E_NULL_ARGUMENT);
  }

  TEST_CASE("drafting intent set directly") {
    const Request request = new_request();
    CHECK(eredu_load_request_set_drafting(request.get(), 4, 0, nullptr) ==
          EREDU_E_INVALID_ARGUMENT);
    CHECK(eredu_load_request_set_drafting(request.get(), EREDU_DRAFTING_DISABLED, 2, nullptr) ==
          EREDU_E_INVALID_ARGUMENT);
    REQUIRE(eredu_load_request_set_drafting(request.get(), EREDU_DRAFTING_EXTERNAL_TARGET, 0,
                                            nullptr) == EREDU_OK);
    auto [kind, capacity] = drafting_of(request.get());
    CHECK(kind == EREDU_DRAFTING_EXTERNAL_TARGET);
    CHECK(capacity == 0);
    REQUIRE(eredu_load_request_set_drafting(request.get(), EREDU_DRAFTING_ARCHITECTURE_DEFAULT, 0,
                                            nullptr) == EREDU_OK);
    std::tie(kind, capacity) = drafting_of(request.get());
    CHECK(kind == EREDU_DRAFTING_ARCHITECTURE_DEFAULT);
  }

  TEST_CASE("max cached shards: explicit override, else the weight residency's bound") {
    const Request request = new_request();
    CHECK(max_cached_shards(request.get()) == 4);
    const Outcome zero = outcome_of([&](eredu_error** error) {
      return eredu_load_request_set_max_cached_shards(request.get(), 0, error);
    });
    CHECK(zero.status == EREDU_E_ZERO_CACHED_SHARDS);
    CHECK(zero.code == EREDU_E_ZERO_CACHED_SHARDS);
    CHECK(zero.message == "source reader-cache limit must be positive");
    CHECK(max_cached_shards(request.get()) == 4);

    eredu_layerwise_options layerwise = EREDU_LAYERWISE_OPTIONS_INIT;
    layerwise.max_cached_shards = 0;
    eredu_weight_residency_desc desc = EREDU_WEIGHT_RESIDENCY_DESC_INIT;
    desc.layers = EREDU_EXECUTION_RESIDENCY_LAYERWISE_HOST;
    desc.layerwise = &layerwise;
    REQUIRE(eredu_load_request_set_weight_residency(request.get(), &desc, nullptr) == EREDU_OK);
    CHECK(max_cached_shards(request.get()) == 0);
    const Outcome validated = validate(request.get());
    CHECK(validated.status == EREDU_E_ZERO_CACHED_SHARDS);
    CHECK(validated.message == "source reader-cache limit must be positive");

    REQUIRE(eredu_load_request_set_max_cached_shards(request.get(), 3, nullptr) == EREDU_OK);
    CHECK(max_cached_shards(request.get()) == 3);
    eredu_preparation_policy policy;
    REQUIRE(validate(request.get(), &policy).status == EREDU_OK);
    CHECK(policy.residency == EREDU_RESIDENCY_REQUEST_LAYERWISE_HOST);
  }

  TEST_CASE("validation checks the cache bound, the quantization, then the completion") {
    eredu_layerwise_options layerwise;
    REQUIRE(eredu_layerwise_options_init(&layerwise, sizeof layerwise, nullptr) == EREDU_OK);
    layerwise.max_cached_shards = 0;
    eredu_weight_residency_desc desc;
    REQUIRE(eredu_weight_residency_desc_init(&desc, sizeof desc, nullptr) == EREDU_OK);
    desc.layers = EREDU_EXECUTION_RESIDENCY_LAYERWISE_HOST;
    desc.layerwise = &layerwise;

    const Request request = quantized(EREDU_QUANTIZATION_AFFINE, 48, 4);
    REQUIRE(set_completion(request.get(), 5, EREDU_CANCELLATION_NATIVE_CANCEL).status == EREDU_OK);
    REQUIRE(eredu_load_request_set_weight_residency(request.get(), &desc, nullptr) == EREDU_OK);
    CHECK(validate(request.get()).status == EREDU_E_ZERO_CACHED_SHARDS);
    REQUIRE(eredu_load_request_set_max_cached_shards(request.get(), 1, nullptr) == EREDU_OK);
    CHECK(validate(request.get()).status == EREDU_E_QUANTIZATION);
    const Request mxfp4 = quantized(EREDU_QUANTIZATION_MXFP4);
    REQUIRE(set_completion(mxfp4.get(), 5, EREDU_CANCELLATION_NATIVE_CANCEL).status == EREDU_OK);
    CHECK(validate(mxfp4.get()).status == EREDU_E_ORPHANED_MODEL_COMPLETION);
  }

  TEST_CASE("quantization requests lower on validation, group before bits") {
    const auto error_of = [](eredu_quantization_kind kind, std::uint32_t group, std::uint8_t bits) {
      const Request request = quantized(kind, group, bits);
      return validate(request.get());
    };
    const Outcome too_wide = error_of(EREDU_QUANTIZATION_AFFINE, UINT32_MAX, 4);
    CHECK(too_wide.status == EREDU_E_QUANTIZATION);
    CHECK(too_wide.code == EREDU_E_QUANTIZATION);
    CHECK(too_wide.message == "group_size must fit in i32, got 4294967295");
    const Outcome group = error_of(EREDU_QUANTIZATION_AFFINE, 48, 7);
    CHECK(group.status == EREDU_E_QUANTIZATION);
    CHECK(group.message == "group_size must be 16 or a positive multiple of 32, got 48");
    const Outcome bits = error_of(EREDU_QUANTIZATION_AFFINE, 32, 7);
    CHECK(bits.status == EREDU_E_QUANTIZATION);
    CHECK(bits.message == "bits must be one of 2, 3, 4, 5, 6, or 8, got 7");
    const Outcome unknown = error_of(5, 64, 4);
    CHECK(unknown.status == EREDU_E_QUANTIZATION);
    CHECK(unknown.code == EREDU_E_QUANTIZATION);
    CHECK(unknown.message == "unknown load-time transformation request");

    eredu_quantization_request defaults;
    REQUIRE(eredu_quantization_request_init(&defaults, sizeof defaults, nullptr) == EREDU_OK);
    CHECK(defaults.struct_size == sizeof(eredu_quantization_request));
    CHECK(defaults.kind == EREDU_QUANTIZATION_AFFINE);
    CHECK(defaults.group_size == 64);
    CHECK(defaults.bits == 4);
    const Request affine = new_request(&defaults);
    eredu_preparation_policy policy;
    REQUIRE(validate(affine.get(), &policy).status == EREDU_OK);
    CHECK(policy.has_quantization == 1);
    CHECK(policy.quantization_kind == EREDU_QUANTIZATION_AFFINE);
    CHECK(policy.quantization_group_size == 64);
    CHECK(policy.quantization_bits == 4);
    CHECK(policy.topology == nullptr);

    // A failed call sets the out-parameter to NULL.
    defaults.struct_size = 1;
    eredu_load_request* request = affine.get();
    CHECK(eredu_load_request_new(&defaults, &request, nullptr) == EREDU_E_INVALID_ARGUMENT);
    CHECK(request == nullptr);
  }

  TEST_CASE("the preparation residency follows the weight residency") {
    const auto residency_of = [](const eredu_weight_residency_desc& desc) {
      const Request request = new_request();
      REQUIRE(eredu_load_request_set_weight_residency(request.get(), &desc, nullptr) == EREDU_OK);
      eredu_preparation_policy policy;
      REQUIRE(validate(request.get(), &policy).status == EREDU_OK);
      return policy.residency;
    };
    eredu_weight_residency_desc desc = EREDU_WEIGHT_RESIDENCY_DESC_INIT;
    CHECK(residency_of(desc) == EREDU_RESIDENCY_REQUEST_FULLY_RESIDENT);
    desc.layers = EREDU_EXECUTION_RESIDENCY_LAYERWISE_HOST;
    CHECK(residency_of(desc) == EREDU_RESIDENCY_REQUEST_LAYERWISE_HOST);
    desc.layers = EREDU_EXECUTION_RESIDENCY_DENSE_DISK_STREAM;
    CHECK(residency_of(desc) == EREDU_RESIDENCY_REQUEST_DENSE_DISK_STREAM);
    eredu_parameter_bank_options bank = EREDU_PARAMETER_BANK_OPTIONS_INIT;
    desc.parameter_bank_cache = &bank;
    CHECK(residency_of(desc) == EREDU_RESIDENCY_REQUEST_ADDRESSABLE_PARAMETER_BANKS);
  }

  TEST_CASE("an invalid weight residency leaves the request unchanged") {
    const Request request = new_request();
    eredu_dense_stream_options dense;
    REQUIRE(eredu_dense_stream_options_init(&dense, sizeof dense, nullptr) == EREDU_OK);
    dense.max_cached_shards = 7;
    eredu_weight_residency_desc desc = EREDU_WEIGHT_RESIDENCY_DESC_INIT;
    desc.layers = EREDU_EXECUTION_RESIDENCY_DENSE_DISK_STREAM;
    desc.dense = &dense;
    REQUIRE(eredu_load_request_set_weight_residency(request.get(), &desc, nullptr) == EREDU_OK);
    CHECK(max_cached_shards(request.get()) == 7);

    eredu_offload_config offload = EREDU_OFFLOAD_CONFIG_INIT;
    offload.prefetch_depth = 0;
    eredu_layerwise_options layerwise = EREDU_LAYERWISE_OPTIONS_INIT;
    layerwise.offload = &offload;
    desc.layers = EREDU_EXECUTION_RESIDENCY_LAYERWISE_HOST;
    desc.dense = nullptr;
    desc.layerwise = &layerwise;
    const Outcome depth = outcome_of([&](eredu_error** error) {
      return eredu_load_request_set_weight_residency(request.get(), &desc, error);
    });
    CHECK(depth.status == EREDU_E_ZERO_PREFETCH_DEPTH);
    CHECK(depth.message == "offload prefetch depth must be nonzero");
    CHECK(max_cached_shards(request.get()) == 7);
    eredu_preparation_policy policy;
    REQUIRE(validate(request.get(), &policy).status == EREDU_OK);
    CHECK(policy.residency == EREDU_RESIDENCY_REQUEST_DENSE_DISK_STREAM);
    CHECK(eredu_load_request_set_weight_residency(request.get(), nullptr, nullptr) ==
          EREDU_E_NULL_ARGUMENT);
  }

  TEST_CASE("session capabilities, state residency and prompt-cache persistence") {
    const Request request = new_request();
    CHECK(eredu_load_request_set_required_session_capabilities(request.get(), 8, nullptr) ==
          EREDU_E_INVALID_ARGUMENT);
    REQUIRE(eredu_load_request_set_required_session_capabilities(
                request.get(), EREDU_SESSION_CAPABILITIES_MASK, nullptr) == EREDU_OK);
    eredu_preparation_policy policy;
    REQUIRE(validate(request.get(), &policy).status == EREDU_OK);
    CHECK(policy.required_session_capabilities == 7);

    CHECK(info_of(request.get()).state_residency == EREDU_CACHE_RESIDENCY_DEVICE);
    CHECK(eredu_load_request_set_state_residency(request.get(), 2, nullptr) ==
          EREDU_E_INVALID_ARGUMENT);
    REQUIRE(eredu_load_request_set_state_residency(request.get(), EREDU_CACHE_RESIDENCY_PAGED,
                                                   nullptr) == EREDU_OK);
    CHECK(info_of(request.get()).state_residency == EREDU_CACHE_RESIDENCY_PAGED);

    CHECK(info_of(request.get()).prompt_cache_persistence == 0);
    CHECK(eredu_load_request_set_prompt_cache_persistence(request.get(), 2, nullptr) ==
          EREDU_E_INVALID_ARGUMENT);
    REQUIRE(eredu_load_request_set_prompt_cache_persistence(request.get(), 1, nullptr) == EREDU_OK);
    CHECK(info_of(request.get()).prompt_cache_persistence == 1);
  }

  TEST_CASE("quantization, weight residency and session capabilities read back") {
    const Request request = new_request();
    CHECK_FALSE(quantization_of(request.get()).has_value());
    CHECK(capabilities_of(request.get()) == 0);
    eredu_residency_summary summary = weight_residency_of(request.get(), 6);
    CHECK(summary.struct_size == sizeof(eredu_residency_summary));
    CHECK(summary.execution_residency == EREDU_EXECUTION_RESIDENCY_FULLY_RESIDENT);
    CHECK(summary.offload_has_device_budget == 0);
    CHECK(summary.offload_prefetch_depth == 1);
    CHECK(summary.device_depth == 6);
    CHECK(summary.max_cached_shards == 4);
    CHECK(summary.preparation_residency == EREDU_RESIDENCY_REQUEST_FULLY_RESIDENT);
    CHECK(summary.is_fully_resident == 1);
    CHECK(summary.ordinary_is_fully_resident == 1);
    CHECK(summary.has_parameter_bank_cache == 0);

    // Quantizations are returned as given, unchecked.
    const Request affine = quantized(EREDU_QUANTIZATION_AFFINE, 64, 4);
    std::optional<eredu_quantization_request> quantization = quantization_of(affine.get());
    REQUIRE(quantization.has_value());
    CHECK(quantization->kind == EREDU_QUANTIZATION_AFFINE);
    CHECK(quantization->group_size == 64);
    CHECK(quantization->bits == 4);
    const Request invalid = quantized(EREDU_QUANTIZATION_AFFINE, 48, 7);
    quantization = quantization_of(invalid.get());
    REQUIRE(quantization.has_value());
    CHECK(quantization->group_size == 48);
    CHECK(quantization->bits == 7);
    const Request unknown = quantized(5, 64, 4);
    quantization = quantization_of(unknown.get());
    REQUIRE(quantization.has_value());
    CHECK(quantization->kind == 5);
    CHECK(quantization->group_size == 0);
    CHECK(quantization->bits == 0);

    // A dense stream beside an independent bank cache, echoed in full.
    eredu_dense_stream_options dense = EREDU_DENSE_STREAM_OPTIONS_INIT;
    dense.device_budget_bytes = 32;
    dense.host_budget_bytes = 64;
    dense.host_lookahead = 3;
    dense.background_queue_capacity = 1;
    dense.sample_backend_memory = 1;
    eredu_parameter_bank_options bank;
    REQUIRE(eredu_parameter_bank_options_init(&bank, sizeof bank, nullptr) == EREDU_OK);
    bank.compact_bank_scratch_bytes = 64;
    bank.prefill_compact_bank_target_bytes = 32;
    eredu_weight_residency_desc desc = EREDU_WEIGHT_RESIDENCY_DESC_INIT;
    desc.layers = EREDU_EXECUTION_RESIDENCY_DENSE_DISK_STREAM;
    desc.dense = &dense;
    desc.parameter_bank_cache = &bank;
    REQUIRE(eredu_load_request_set_weight_residency(request.get(), &desc, nullptr) == EREDU_OK);
    summary = weight_residency_of(request.get(), 8);
    CHECK(summary.execution_residency == EREDU_EXECUTION_RESIDENCY_DENSE_DISK_STREAM);
    CHECK(summary.offload_device_budget_bytes == 32);
    CHECK(summary.offload_host_budget_bytes == 64);
    CHECK(summary.offload_prefetch_depth == 3);
    CHECK(summary.device_depth == 2);
    CHECK(summary.dense_host_lookahead == 3);
    CHECK(summary.dense_background_queue_capacity == 1);
    CHECK(summary.sample_backend_memory == 1);
    CHECK(summary.sample_process_memory == 0);
    CHECK(summary.preparation_residency == EREDU_RESIDENCY_REQUEST_ADDRESSABLE_PARAMETER_BANKS);
    CHECK(summary.has_parameter_bank_cache == 1);
    CHECK(summary.parameter_bank_prefetch_depth == 1);
    CHECK(summary.parameter_bank_compact_scratch_bytes == 64);
    CHECK(summary.parameter_bank_prefill_target_bytes == 32);
    CHECK(summary.is_fully_resident == 0);
    CHECK(summary.ordinary_is_fully_resident == 0);

    // A failed setter keeps the residency.
    bank.prefill_compact_bank_target_bytes = 65;
    CHECK(eredu_load_request_set_weight_residency(request.get(), &desc, nullptr) ==
          EREDU_E_PARAMETER_BANK_PREFILL_TARGET_EXCEEDS_SCRATCH);
    CHECK(weight_residency_of(request.get(), 8).parameter_bank_prefill_target_bytes == 32);

    REQUIRE(eredu_load_request_set_required_session_capabilities(request.get(), 0b010, nullptr) ==
            EREDU_OK);
    CHECK(capabilities_of(request.get()) == 0b010);
    CHECK(eredu_load_request_set_required_session_capabilities(request.get(), 9, nullptr) ==
          EREDU_E_INVALID_ARGUMENT);
    CHECK(capabilities_of(request.get()) == 0b010);
  }

  TEST_CASE("the default request validates into the default policy") {
    const Request request = new_request();
    eredu_preparation_policy policy;
    REQUIRE(validate(request.get(), &policy).status == EREDU_OK);
    CHECK(policy.has_quantization == 0);
    CHECK(policy.quantization_kind == 0);
    CHECK(policy.residency == EREDU_RESIDENCY_REQUEST_FULLY_RESIDENT);
    CHECK(policy.topology == nullptr);
    CHECK(policy.required_session_capabilities == 0);
    CHECK(!has_parallel(request.get()));

    eredu_parallel_load_desc defaults;
    REQUIRE(eredu_parallel_load_desc_init(&defaults, sizeof defaults, nullptr) == EREDU_OK);
    CHECK(defaults.struct_size == sizeof(eredu_parallel_load_desc));
    CHECK(defaults.topology == nullptr);
    CHECK(defaults.rank == 0);
    CHECK(defaults.activation_dtype == EREDU_ACTIVATION_DTYPE_FLOAT32);
    CHECK(defaults.maximum_batch_size == 0);
    CHECK(defaults.maximum_sequence_length == 0);
    CHECK(defaults.completion_timeout_millis == 30000);
    CHECK(defaults.completion_cancellation == EREDU_CANCELLATION_QUARANTINE_UNTIL_COMPLETE);
    // The macro holds the same defaults.
    const eredu_parallel_load_desc macro = EREDU_PARALLEL_LOAD_DESC_INIT;
    CHECK(macro.struct_size == defaults.struct_size);
    CHECK(macro.topology == nullptr);
    CHECK(macro.rank == 0);
    CHECK(macro.activation_dtype == defaults.activation_dtype);
    CHECK(macro.maximum_batch_size == 0);
    CHECK(macro.maximum_sequence_length == 0);
    CHECK(macro.completion_timeout_millis == defaults.completion_timeout_millis);
    CHECK(macro.completion_cancellation == defaults.completion_cancellation);
    const eredu_quantization_request quantization = EREDU_QUANTIZATION_REQUEST_INIT;
    CHECK(quantization.kind == EREDU_QUANTIZATION_AFFINE);
    CHECK(quantization.group_size == 64);
    CHECK(quantization.bits == 4);
    const eredu_drafting_plan plan = EREDU_DRAFTING_PLAN_INIT;
    CHECK(plan.kind == EREDU_DRAFTING_PLAN_DISABLED);
    CHECK(plan.max_draft_tokens == 0);

    // Every plain field of the default request.
    const eredu_load_request_info info = info_of(request.get());
    CHECK(info.state_residency == EREDU_CACHE_RESIDENCY_DEVICE);
    CHECK(info.required_session_capabilities == 0);
    CHECK(info.drafting == EREDU_DRAFTING_ARCHITECTURE_DEFAULT);
    CHECK(info.realtime_completion_cancellation == EREDU_CANCELLATION_QUARANTINE_UNTIL_COMPLETE);
    CHECK(info.prompt_cache_persistence == 0);
    CHECK(info.has_quantization == 0);
    CHECK(info.has_parallel_execution == 0);
    CHECK(info.max_cached_shards == 4);
    CHECK(info.realtime_completion_timeout_millis == 30000);
    CHECK(info.max_draft_tokens == 0);
  }

  TEST_CASE("misuse is an argument error and leaves outputs zeroed") {
    eredu_load_request* request = nullptr;
    CHECK(eredu_load_request_new(nullptr, nullptr, nullptr) == EREDU_E_NULL_ARGUMENT);
    eredu_load_request_free(nullptr);
    CHECK(eredu_load_request_set_max_cached_shards(nullptr, 1, nullptr) == EREDU_E_NULL_ARGUMENT);
    CHECK(eredu_load_request_set_parallel_execution(nullptr, nullptr, nullptr) ==
          EREDU_E_NULL_ARGUMENT);
    eredu_load_request_info info = EREDU_LOAD_REQUEST_INFO_INIT;
    info.max_cached_shards = 5;
    CHECK(eredu_load_request_get_info(nullptr, &info, nullptr) == EREDU_E_NULL_ARGUMENT);
    CHECK(info.max_cached_shards == 0);
    CHECK(eredu_parallel_load_desc_init(nullptr, sizeof(eredu_parallel_load_desc), nullptr) ==
          EREDU_E_NULL_ARGUMENT);
    CHECK(eredu_preparation_policy_init(nullptr, sizeof(eredu_preparation_policy), nullptr) ==
          EREDU_E_NULL_ARGUMENT);
    CHECK(eredu_quantization_request_init(nullptr, sizeof(eredu_quantization_request), nullptr) ==
          EREDU_E_NULL_ARGUMENT);
    CHECK(eredu_drafting_plan_init(nullptr, sizeof(eredu_drafting_plan), nullptr) ==
          EREDU_E_NULL_ARGUMENT);
    CHECK(eredu_load_request_info_init(nullptr, sizeof(eredu_load_request_info), nullptr) ==
          EREDU_E_NULL_ARGUMENT);

    REQUIRE(eredu_load_request_new(nullptr, &request, nullptr) == EREDU_OK);
    const Request owned(request);
    CHECK(eredu_load_request_set_parallel_execution(request, nullptr, nullptr) ==
          EREDU_E_NULL_ARGUMENT);
    Parallel parallel = parallel_desc(2, 0, 1, 1);
    eredu_parallel_load_desc& desc = parallel.desc;
    desc.activation_dtype = 3;
    const Outcome dtype = set_parallel(request, desc);
    CHECK(dtype.status == EREDU_E_INVALID_ARGUMENT);
    CHECK(dtype.message == "unknown parallel->activation_dtype value 3");
    desc.activation_dtype = EREDU_ACTIVATION_DTYPE_BFLOAT16;
    desc.completion_cancellation = 2;
    CHECK(set_parallel(request, desc).status == EREDU_E_INVALID_ARGUMENT);
    desc.completion_cancellation = EREDU_CANCELLATION_NATIVE_CANCEL;
    desc.struct_size = 9;  // ends inside `topology`
    CHECK(set_parallel(request, desc).status == EREDU_E_INVALID_ARGUMENT);
    desc.struct_size = sizeof desc;
    desc.topology = nullptr;
    const Outcome no_topology = set_parallel(request, desc);
    CHECK(no_topology.status == EREDU_E_NULL_ARGUMENT);
    CHECK(no_topology.message == "argument parallel->topology is NULL");
    desc.topology = &parallel.topology;
    parallel.topology.struct_size = 2;
    const Outcome topology_size = set_parallel(request, desc);
    CHECK(topology_size.status == EREDU_E_INVALID_ARGUMENT);
    CHECK(topology_size.message ==
          "parallel->topology->struct_size is 2; it must be the caller's sizeof, between 4 and "
          "4096");
    // Argument errors come before the topology's own rules.
    parallel.topology.tensor = 0;
    CHECK(set_parallel(request, desc).status == EREDU_E_INVALID_ARGUMENT);
    CHECK(!has_parallel(request));

    eredu_preparation_policy policy;
    REQUIRE(eredu_preparation_policy_init(&policy, sizeof policy, nullptr) == EREDU_OK);
    policy.struct_size = 6;
    CHECK(eredu_load_request_validate_model_preparation(request, &policy, nullptr) ==
          EREDU_E_INVALID_ARGUMENT);
    CHECK(eredu_load_request_validate_model_preparation(request, nullptr, nullptr) ==
          EREDU_E_NULL_ARGUMENT);
    eredu_parallel_load_desc out = EREDU_PARALLEL_LOAD_DESC_INIT;
    CHECK(eredu_load_request_parallel_execution(request, &out, nullptr, nullptr) ==
          EREDU_E_NULL_ARGUMENT);
    bool attached = true;
    CHECK(eredu_load_request_parallel_execution(nullptr, &out, &attached, nullptr) ==
          EREDU_E_NULL_ARGUMENT);
    CHECK_FALSE(attached);
    CHECK(eredu_load_request_parallel_execution(request, nullptr, &attached, nullptr) ==
          EREDU_E_NULL_ARGUMENT);
    out.struct_size = 1;
    CHECK(eredu_load_request_parallel_execution(request, &out, &attached, nullptr) ==
          EREDU_E_INVALID_ARGUMENT);
    std::uint64_t timeout = 0;
    eredu_cancellation_mode mode = 0;
    CHECK(eredu_load_request_communication_completion_policy(request, &timeout, &mode, nullptr,
                                                             nullptr) == EREDU_E_NULL_ARGUMENT);
    CHECK(eredu_load_request_get_info(request, nullptr, nullptr) == EREDU_E_NULL_ARGUMENT);
    info = EREDU_LOAD_REQUEST_INFO_INIT;
    info.struct_size = 3;
    CHECK(eredu_load_request_get_info(request, &info, nullptr) == EREDU_E_INVALID_ARGUMENT);
    CHECK(info.struct_size == 3);

    eredu_quantization_request quantization = EREDU_QUANTIZATION_REQUEST_INIT;
    bool present = true;
    CHECK(eredu_load_request_quantization(nullptr, &quantization, &present, nullptr) ==
          EREDU_E_NULL_ARGUMENT);
    CHECK_FALSE(present);
    CHECK(quantization.group_size == 0);
    CHECK(eredu_load_request_quantization(request, nullptr, &present, nullptr) ==
          EREDU_E_NULL_ARGUMENT);
    CHECK(eredu_load_request_quantization(request, &quantization, nullptr, nullptr) ==
          EREDU_E_NULL_ARGUMENT);
    quantization.struct_size = 2;
    const Outcome size = outcome_of([&](eredu_error** error) {
      return eredu_load_request_quantization(request, &quantization, &present, error);
    });
    CHECK(size.status == EREDU_E_INVALID_ARGUMENT);
    CHECK(size.message ==
          "out->struct_size is 2; it must be the caller's sizeof, between 4 and 4096");

    eredu_residency_summary summary = EREDU_RESIDENCY_SUMMARY_INIT;
    summary.device_depth = 5;
    CHECK(eredu_load_request_weight_residency(nullptr, 1, &summary, nullptr) ==
          EREDU_E_NULL_ARGUMENT);
    CHECK(summary.device_depth == 0);
    CHECK(eredu_load_request_weight_residency(request, 1, nullptr, nullptr) ==
          EREDU_E_NULL_ARGUMENT);
    summary.struct_size = 9;
    CHECK(eredu_load_request_weight_residency(request, 1, &summary, nullptr) ==
          EREDU_E_INVALID_ARGUMENT);
    CHECK(summary.struct_size == 9);
    REQUIRE(eredu_residency_summary_init(&summary, sizeof summary, nullptr) == EREDU_OK);
    REQUIRE(eredu_load_request_weight_residency(request, 3, &summary, nullptr) == EREDU_OK);
    CHECK(summary.struct_size == sizeof(eredu_residency_summary));
    CHECK(summary.device_depth == 3);
    CHECK(summary.is_fully_resident == 1);
    CHECK(summary.has_parameter_bank_cache == 0);
  }

  TEST_CASE("the info struct reads every plain field at once") {
    const Request request = quantized(EREDU_QUANTIZATION_MXFP4);
    REQUIRE(set_parallel(request.get(), parallel_desc(2, 1, 4, 64)).status == EREDU_OK);
    REQUIRE(set_completion(request.get(), 250, EREDU_CANCELLATION_NATIVE_CANCEL).status ==
            EREDU_OK);
    REQUIRE(eredu_load_request_set_required_session_capabilities(request.get(), 0b011, nullptr) ==
            EREDU_OK);
    REQUIRE(eredu_load_request_set_state_residency(request.get(), EREDU_CACHE_RESIDENCY_PAGED,
                                                   nullptr) == EREDU_OK);
    REQUIRE(eredu_load_request_set_prompt_cache_persistence(request.get(), 1, nullptr) == EREDU_OK);
    REQUIRE(eredu_load_request_set_drafting(request.get(), EREDU_DRAFTING_EMBEDDED, 6, nullptr) ==
            EREDU_OK);
    REQUIRE(eredu_load_request_set_max_cached_shards(request.get(), 11, nullptr) == EREDU_OK);

    check_init_sizes<eredu_load_request_info>(eredu_load_request_info_init,
                                              offsetof(eredu_load_request_info, max_cached_shards),
                                              offsetof(eredu_load_request_info, drafting) + 1);
    const eredu_load_request_info info = check_output_sizes<eredu_load_request_info>(
        [&](eredu_load_request_info* out) {
          return eredu_load_request_get_info(request.get(), out, nullptr);
        },
        offsetof(eredu_load_request_info, realtime_completion_timeout_millis),
        offsetof(eredu_load_request_info, max_draft_tokens) + 2);
    CHECK(info.state_residency == EREDU_CACHE_RESIDENCY_PAGED);
    CHECK(info.required_session_capabilities == 0b011);
    CHECK(info.drafting == EREDU_DRAFTING_EMBEDDED);
    CHECK(info.realtime_completion_cancellation == EREDU_CANCELLATION_NATIVE_CANCEL);
    CHECK(info.prompt_cache_persistence == 1);
    CHECK(info.has_quantization == 1);
    CHECK(info.has_parallel_execution == 1);
    CHECK(info.max_cached_shards == 11);
    CHECK(info.realtime_completion_timeout_millis == 250);
    CHECK(info.max_draft_tokens == 6);
  }

  TEST_CASE("the parallel request's topology is borrowed from the request") {
    const Request request = new_request();
    {
      const Parallel first = parallel_desc(2, 1, 1, 128);
      REQUIRE(set_parallel(request.get(), first).status == EREDU_OK);
    }  // the caller's topology is gone: the request keeps its own copy
    eredu_parallel_load_desc out = EREDU_PARALLEL_LOAD_DESC_INIT;
    bool present = false;
    REQUIRE(eredu_load_request_parallel_execution(request.get(), &out, &present, nullptr) ==
            EREDU_OK);
    REQUIRE(present);
    const eredu_topology* topology = out.topology;
    REQUIRE(topology != nullptr);
    CHECK(topology->tensor == 2);
    eredu_preparation_policy policy;
    REQUIRE(validate(request.get(), &policy).status == EREDU_OK);
    CHECK(policy.topology == topology);

    // The descriptor read back is itself a valid request.
    const Request copy = new_request();
    REQUIRE(set_parallel(copy.get(), out).status == EREDU_OK);

    // A failed change keeps the view; a successful one refreshes it.
    CHECK(set_parallel(request.get(), parallel_desc(1, 0, 1, 1)).status ==
          EREDU_E_REPLICATED_PARALLEL_TOPOLOGY);
    CHECK(topology->tensor == 2);
    Parallel wider = parallel_desc(4, 3, 1, 1);
    wider.topology.pipeline = 2;
    REQUIRE(set_parallel(request.get(), wider).status == EREDU_OK);
    REQUIRE(eredu_load_request_parallel_execution(request.get(), &out, &present, nullptr) ==
            EREDU_OK);
    REQUIRE(out.topology != nullptr);
    CHECK(out.topology->tensor == 4);
    CHECK(out.topology->pipeline == 2);
    CHECK(out.rank == 3);
  }

  TEST_CASE("request structs follow the sized-struct rule") {
    check_init_sizes<eredu_parallel_load_desc>(
        eredu_parallel_load_desc_init, offsetof(eredu_parallel_load_desc, maximum_batch_size),
        offsetof(eredu_parallel_load_desc, rank) + 1);
    check_init_sizes<eredu_quantization_request>(eredu_quantization_request_init,
                                                 offsetof(eredu_quantization_request, group_size),
                                                 offsetof(eredu_quantization_request, kind) + 3);
    check_init_sizes<eredu_drafting_plan>(eredu_drafting_plan_init,
                                          offsetof(eredu_drafting_plan, max_draft_tokens),
                                          offsetof(eredu_drafting_plan, max_draft_tokens) + 1);
    check_init_sizes<eredu_preparation_policy>(eredu_preparation_policy_init,
                                               offsetof(eredu_preparation_policy, topology),
                                               offsetof(eredu_preparation_policy, topology) + 1);

    const Parallel parallel = parallel_desc(2, 1, 2, 128);
    check_input_sizes<eredu_parallel_load_desc>(
        parallel.desc,
        [](const eredu_parallel_load_desc* given) {
          const Request request = new_request();
          return eredu_load_request_set_parallel_execution(request.get(), given, nullptr);
        },
        offsetof(eredu_parallel_load_desc, completion_timeout_millis) + 1);
    const Request attached = new_request();
    REQUIRE(set_parallel(attached.get(), parallel).status == EREDU_OK);
    const eredu_parallel_load_desc read = check_output_sizes<eredu_parallel_load_desc>(
        [&](eredu_parallel_load_desc* out) {
          bool present = false;
          const eredu_status status =
              eredu_load_request_parallel_execution(attached.get(), out, &present, nullptr);
          CHECK(present == (status == EREDU_OK));
          return status;
        },
        offsetof(eredu_parallel_load_desc, rank), offsetof(eredu_parallel_load_desc, topology) + 2);
    CHECK(read.activation_dtype == EREDU_ACTIVATION_DTYPE_FLOAT32);
    REQUIRE(read.topology != nullptr);
    CHECK(read.topology->tensor == 2);
    CHECK(read.rank == 1);
    CHECK(read.maximum_batch_size == 2);
    CHECK(read.maximum_sequence_length == 128);
    CHECK(read.completion_timeout_millis == 1000);
    CHECK(read.completion_cancellation == EREDU_CANCELLATION_QUARANTINE_UNTIL_COMPLETE);

    eredu_quantization_request affine = EREDU_QUANTIZATION_REQUEST_INIT;
    affine.group_size = 128;
    check_input_sizes<eredu_quantization_request>(
        affine,
        [](const eredu_quantization_request* given) {
          eredu_load_request* request = nullptr;
          const eredu_status status = eredu_load_request_new(given, &request, nullptr);
          eredu_load_request_free(request);
          return status;
        },
        offsetof(eredu_quantization_request, group_size) + 1);
    const Request quantizing = new_request(&affine);
    const eredu_quantization_request echoed = check_output_sizes<eredu_quantization_request>(
        [&](eredu_quantization_request* out) {
          bool present = false;
          return eredu_load_request_quantization(quantizing.get(), out, &present, nullptr);
        },
        offsetof(eredu_quantization_request, group_size),
        offsetof(eredu_quantization_request, group_size) + 2);
    CHECK(echoed.kind == EREDU_QUANTIZATION_AFFINE);
    CHECK(echoed.group_size == 128);
    CHECK(echoed.bits == 4);

    eredu_drafting_plan plan = EREDU_DRAFTING_PLAN_INIT;
    plan.kind = EREDU_DRAFTING_PLAN_EMBEDDED;
    plan.max_draft_tokens = 2;
    check_input_sizes<eredu_drafting_plan>(
        plan,
        [](const eredu_drafting_plan* given) {
          const Request request = new_request();
          return eredu_load_request_set_drafting_plan(request.get(), given, nullptr);
        },
        offsetof(eredu_drafting_plan, kind) + 1);

    const eredu_preparation_policy policy = check_output_sizes<eredu_preparation_policy>(
        [&](eredu_preparation_policy* out) {
          return eredu_load_request_validate_model_preparation(quantizing.get(), out, nullptr);
        },
        offsetof(eredu_preparation_policy, quantization_kind),
        offsetof(eredu_preparation_policy, required_session_capabilities) + 1);
    CHECK(policy.residency == EREDU_RESIDENCY_REQUEST_FULLY_RESIDENT);
    CHECK(policy.has_quantization == 1);
    CHECK(policy.quantization_kind == EREDU_QUANTIZATION_AFFINE);
    CHECK(policy.quantization_group_size == 128);
    CHECK(policy.quantization_bits == 4);
    CHECK(policy.topology == nullptr);
  }

  TEST_CASE("fields past an older caller's struct_size take their defaults") {
    // A quantization request holding only its kind: group 64, 4 bits.
    eredu_quantization_request short_request = EREDU_QUANTIZATION_REQUEST_INIT;
    short_request.group_size = 48;
    short_request.bits = 7;
    short_request.struct_size =
        static_cast<std::uint32_t>(offsetof(eredu_quantization_request, group_size));
    const Request request = new_request(&short_request);
    const std::optional<eredu_quantization_request> quantization = quantization_of(request.get());
    REQUIRE(quantization.has_value());
    CHECK(quantization->group_size == 64);
    CHECK(quantization->bits == 4);
    CHECK(validate(request.get()).status == EREDU_OK);

    // A parallel request ending before its completion fields: 30000 ms,
    // quarantined; a topology ending before `pipeline`: the other axes 1.
    Parallel parallel = parallel_desc(2, 1, 1, 16);
    parallel.desc.completion_timeout_millis = 0;
    parallel.desc.completion_cancellation = 7;
    parallel.desc.struct_size =
        static_cast<std::uint32_t>(offsetof(eredu_parallel_load_desc, completion_timeout_millis));
    parallel.topology.pipeline = 0;
    parallel.topology.struct_size = static_cast<std::uint32_t>(offsetof(eredu_topology, pipeline));
    REQUIRE(set_parallel(request.get(), parallel).status == EREDU_OK);
    eredu_parallel_load_desc read = EREDU_PARALLEL_LOAD_DESC_INIT;
    bool present = false;
    REQUIRE(eredu_load_request_parallel_execution(request.get(), &read, &present, nullptr) ==
            EREDU_OK);
    CHECK(read.completion_timeout_millis == 30000);
    CHECK(read.completion_cancellation == EREDU_CANCELLATION_QUARANTINE_UNTIL_COMPLETE);
    REQUIRE(read.topology != nullptr);
    CHECK(read.topology->tensor == 2);
    CHECK(read.topology->pipeline == 1);

    // A drafting plan holding only its kind: 0 tokens.
    eredu_drafting_plan plan = EREDU_DRAFTING_PLAN_INIT;
    plan.kind = EREDU_DRAFTING_PLAN_EMBEDDED;
    plan.max_draft_tokens = 3;
    plan.struct_size = static_cast<std::uint32_t>(offsetof(eredu_drafting_plan, max_draft_tokens));
    CHECK(eredu_load_request_set_drafting_plan(request.get(), &plan, nullptr) ==
          EREDU_E_ZERO_EMBEDDED_DRAFT_CAPACITY);
  }
}
