// Seed 002 (normalized load request) through eredu/request.h only: the
// seed's tests of semantics §6.5 and every NormalizedLoadRequestError code.
#include <doctest/doctest.h>
#include <eredu/eredu.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "capi_support.hpp"

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
  eredu_quantization_request quantization;
  eredu_quantization_request_init(&quantization, nullptr);
  quantization.kind = kind;
  quantization.group_size = group_size;
  quantization.bits = bits;
  return new_request(&quantization);
}

/// Rank `rank` of a tensor-parallel topology of `tensor` ranks, Float32
/// wire, 1000 ms quarantined completion.
eredu_parallel_load_desc parallel_desc(std::uint64_t tensor, std::uint64_t rank, std::int32_t batch,
                                       std::int32_t sequence) {
  eredu_parallel_load_desc desc;
  eredu_parallel_load_desc_init(&desc, nullptr);
  desc.tensor = tensor;
  desc.rank = rank;
  desc.activation_dtype = EREDU_ACTIVATION_DTYPE_FLOAT32;
  desc.maximum_batch_size = batch;
  desc.maximum_sequence_length = sequence;
  desc.completion_timeout_millis = 1000;
  desc.completion_cancellation = EREDU_CANCELLATION_QUARANTINE_UNTIL_COMPLETE;
  return desc;
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

Outcome set_completion(eredu_load_request* request, std::uint64_t timeout_millis,
                       eredu_cancellation_mode cancellation) {
  return outcome_of([&](eredu_error** error) {
    return eredu_load_request_set_communication_completion_policy(request, timeout_millis,
                                                                  cancellation, error);
  });
}

Outcome validate(const eredu_load_request* request, eredu_preparation_policy* policy) {
  eredu_preparation_policy_init(policy, nullptr);
  return outcome_of([&](eredu_error** error) {
    return eredu_load_request_validate_model_preparation(request, policy, error);
  });
}

Outcome validate(const eredu_load_request* request) {
  eredu_preparation_policy policy;
  return validate(request, &policy);
}

bool has_parallel(const eredu_load_request* request) {
  eredu_parallel_load_desc out;
  eredu_parallel_load_desc_init(&out, nullptr);
  bool present = true;
  REQUIRE(eredu_load_request_parallel_execution(request, &out, &present, nullptr) == EREDU_OK);
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
  Completion completion;
  REQUIRE(eredu_load_request_realtime_completion_policy(
              request, &completion.timeout_millis, &completion.cancellation, nullptr) == EREDU_OK);
  completion.present = true;
  return completion;
}

std::uint64_t max_cached_shards(const eredu_load_request* request) {
  std::uint64_t out = 0;
  REQUIRE(eredu_load_request_max_cached_shards(request, &out, nullptr) == EREDU_OK);
  return out;
}

/// The quantization getter: the request, or nullopt when absent.
std::optional<eredu_quantization_request> quantization_of(const eredu_load_request* request) {
  eredu_quantization_request out;
  eredu_quantization_request_init(&out, nullptr);
  bool present = true;
  REQUIRE(eredu_load_request_quantization(request, &out, &present, nullptr) == EREDU_OK);
  CHECK(out.struct_size == sizeof(eredu_quantization_request));
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
  eredu_residency_summary summary;
  eredu_residency_summary_init(&summary, nullptr);
  REQUIRE(eredu_load_request_weight_residency(request, unit_count, &summary, nullptr) == EREDU_OK);
  return summary;
}

std::uint32_t capabilities_of(const eredu_load_request* request) {
  std::uint32_t out = 99;
  REQUIRE(eredu_load_request_required_session_capabilities(request, &out, nullptr) == EREDU_OK);
  return out;
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
    eredu_parallel_load_desc_init(&parallel, nullptr);
    bool present = false;
    REQUIRE(eredu_load_request_parallel_execution(request.get(), &parallel, &present, nullptr) ==
            EREDU_OK);
    CHECK(present);
    CHECK(parallel.struct_size == sizeof(eredu_parallel_load_desc));
    CHECK(parallel.tensor == 2);
    CHECK(parallel.pipeline == 1);
    CHECK(parallel.expert == 1);
    CHECK(parallel.data == 1);
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

    CHECK(policy.has_topology == 1);
    CHECK(policy.tensor == 2);
    CHECK(policy.pipeline == 1);
    CHECK(policy.expert == 1);
    CHECK(policy.data == 1);
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

    eredu_drafting_kind kind = 99;
    std::uint64_t capacity = 99;
    REQUIRE(eredu_load_request_drafting(request.get(), &kind, &capacity, nullptr) == EREDU_OK);
    CHECK(kind == EREDU_DRAFTING_ARCHITECTURE_DEFAULT);
    CHECK(capacity == 0);

    REQUIRE(eredu_load_request_set_drafting(request.get(), EREDU_DRAFTING_EMBEDDED, 4, nullptr) ==
            EREDU_OK);
    REQUIRE(eredu_load_request_drafting(request.get(), &kind, &capacity, nullptr) == EREDU_OK);
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
    eredu_parallel_load_desc desc = parallel_desc(2, 0, 1, 128);
    desc.completion_timeout_millis = 0;
    CHECK(set_parallel(request.get(), desc).status == EREDU_E_INVALID_COMPLETION_POLICY);
    // The completion deadline comes before the replicated-topology check.
    desc.tensor = 1;
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
    eredu_parallel_load_desc desc = parallel_desc(2, 0, 0, 0);
    desc.completion_timeout_millis = 0;
    desc.pipeline = 0;
    CHECK(set_parallel(request.get(), desc).status == EREDU_E_ZERO_AXIS);
    desc.pipeline = 1;
    desc.rank = 2;
    const Outcome outside = set_parallel(request.get(), desc);
    CHECK(outside.status == EREDU_E_RANK_OUT_OF_RANGE);
    CHECK(outside.message == "rank 2 is outside world size 2");
    desc.tensor = UINT64_MAX;
    desc.pipeline = 2;
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
    eredu_parallel_load_desc parallel;
    eredu_parallel_load_desc_init(&parallel, nullptr);
    bool present = false;
    REQUIRE(eredu_load_request_parallel_execution(request.get(), &parallel, &present, nullptr) ==
            EREDU_OK);
    CHECK(parallel.tensor == 4);
    CHECK(parallel.rank == 3);
    CHECK(parallel.maximum_batch_size == 8);
    CHECK(parallel.maximum_sequence_length == 64);
    CHECK(parallel.completion_timeout_millis == 1000);
  }

  TEST_CASE("drafting plans map to drafting intent") {
    const Request request = new_request();
    eredu_drafting_plan plan;
    REQUIRE(eredu_drafting_plan_init(&plan, nullptr) == EREDU_OK);
    CHECK(plan.struct_size == sizeof(eredu_drafting_plan));
    CHECK(plan.kind == EREDU_DRAFTING_PLAN_DISABLED);
    CHECK(plan.max_draft_tokens == 0);

    const auto drafting = [&]() {
      eredu_drafting_kind kind = 99;
      std::uint64_t capacity = 99;
      REQUIRE(eredu_load_request_drafting(request.get(), &kind, &capacity, nullptr) == EREDU_OK);
      return std::pair{kind, capacity};
    };
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
    eredu_drafting_kind kind = 0;
    std::uint64_t capacity = 1;
    REQUIRE(eredu_load_request_drafting(request.get(), &kind, &capacity, nullptr) == EREDU_OK);
    CHECK(kind == EREDU_DRAFTING_EXTERNAL_TARGET);
    CHECK(capacity == 0);
    REQUIRE(eredu_load_request_set_drafting(request.get(), EREDU_DRAFTING_ARCHITECTURE_DEFAULT, 0,
                                            nullptr) == EREDU_OK);
    REQUIRE(eredu_load_request_drafting(request.get(), &kind, &capacity, nullptr) == EREDU_OK);
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

    eredu_layerwise_options layerwise;
    eredu_layerwise_options_init(&layerwise, nullptr);
    layerwise.max_cached_shards = 0;
    eredu_weight_residency_desc desc;
    eredu_weight_residency_desc_init(&desc, nullptr);
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
    eredu_layerwise_options_init(&layerwise, nullptr);
    layerwise.max_cached_shards = 0;
    eredu_weight_residency_desc desc;
    eredu_weight_residency_desc_init(&desc, nullptr);
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
    REQUIRE(eredu_quantization_request_init(&defaults, nullptr) == EREDU_OK);
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
    CHECK(policy.has_topology == 0);
    CHECK(policy.tensor == 0);

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
    eredu_weight_residency_desc desc;
    eredu_weight_residency_desc_init(&desc, nullptr);
    CHECK(residency_of(desc) == EREDU_RESIDENCY_REQUEST_FULLY_RESIDENT);
    desc.layers = EREDU_EXECUTION_RESIDENCY_LAYERWISE_HOST;
    CHECK(residency_of(desc) == EREDU_RESIDENCY_REQUEST_LAYERWISE_HOST);
    desc.layers = EREDU_EXECUTION_RESIDENCY_DENSE_DISK_STREAM;
    CHECK(residency_of(desc) == EREDU_RESIDENCY_REQUEST_DENSE_DISK_STREAM);
    eredu_parameter_bank_options bank;
    eredu_parameter_bank_options_init(&bank, nullptr);
    desc.parameter_bank_cache = &bank;
    CHECK(residency_of(desc) == EREDU_RESIDENCY_REQUEST_ADDRESSABLE_PARAMETER_BANKS);
  }

  TEST_CASE("an invalid weight residency leaves the request unchanged") {
    const Request request = new_request();
    eredu_dense_stream_options dense;
    eredu_dense_stream_options_init(&dense, nullptr);
    dense.max_cached_shards = 7;
    eredu_weight_residency_desc desc;
    eredu_weight_residency_desc_init(&desc, nullptr);
    desc.layers = EREDU_EXECUTION_RESIDENCY_DENSE_DISK_STREAM;
    desc.dense = &dense;
    REQUIRE(eredu_load_request_set_weight_residency(request.get(), &desc, nullptr) == EREDU_OK);
    CHECK(max_cached_shards(request.get()) == 7);

    eredu_offload_config offload;
    eredu_offload_config_init(&offload, nullptr);
    offload.prefetch_depth = 0;
    eredu_layerwise_options layerwise;
    eredu_layerwise_options_init(&layerwise, nullptr);
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

    eredu_cache_residency residency = 9;
    REQUIRE(eredu_load_request_state_residency(request.get(), &residency, nullptr) == EREDU_OK);
    CHECK(residency == EREDU_CACHE_RESIDENCY_DEVICE);
    CHECK(eredu_load_request_set_state_residency(request.get(), 2, nullptr) ==
          EREDU_E_INVALID_ARGUMENT);
    REQUIRE(eredu_load_request_set_state_residency(request.get(), EREDU_CACHE_RESIDENCY_PAGED,
                                                   nullptr) == EREDU_OK);
    REQUIRE(eredu_load_request_state_residency(request.get(), &residency, nullptr) == EREDU_OK);
    CHECK(residency == EREDU_CACHE_RESIDENCY_PAGED);

    bool persistence = true;
    REQUIRE(eredu_load_request_prompt_cache_persistence(request.get(), &persistence, nullptr) ==
            EREDU_OK);
    CHECK(!persistence);
    CHECK(eredu_load_request_set_prompt_cache_persistence(request.get(), 2, nullptr) ==
          EREDU_E_INVALID_ARGUMENT);
    REQUIRE(eredu_load_request_set_prompt_cache_persistence(request.get(), 1, nullptr) == EREDU_OK);
    REQUIRE(eredu_load_request_prompt_cache_persistence(request.get(), &persistence, nullptr) ==
            EREDU_OK);
    CHECK(persistence);
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
    eredu_dense_stream_options dense;
    eredu_dense_stream_options_init(&dense, nullptr);
    dense.device_budget_bytes = 32;
    dense.host_budget_bytes = 64;
    dense.host_lookahead = 3;
    dense.background_queue_capacity = 1;
    dense.sample_backend_memory = 1;
    eredu_parameter_bank_options bank;
    eredu_parameter_bank_options_init(&bank, nullptr);
    bank.compact_bank_scratch_bytes = 64;
    bank.prefill_compact_bank_target_bytes = 32;
    eredu_weight_residency_desc desc;
    eredu_weight_residency_desc_init(&desc, nullptr);
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
    CHECK(policy.has_topology == 0);
    CHECK(policy.required_session_capabilities == 0);
    CHECK(!has_parallel(request.get()));

    eredu_parallel_load_desc defaults;
    REQUIRE(eredu_parallel_load_desc_init(&defaults, nullptr) == EREDU_OK);
    CHECK(defaults.tensor == 1);
    CHECK(defaults.pipeline == 1);
    CHECK(defaults.expert == 1);
    CHECK(defaults.data == 1);
    CHECK(defaults.rank == 0);
    CHECK(defaults.activation_dtype == EREDU_ACTIVATION_DTYPE_FLOAT32);
    CHECK(defaults.maximum_batch_size == 0);
    CHECK(defaults.maximum_sequence_length == 0);
    CHECK(defaults.completion_timeout_millis == 30000);
    CHECK(defaults.completion_cancellation == EREDU_CANCELLATION_QUARANTINE_UNTIL_COMPLETE);
  }

  TEST_CASE("misuse is an argument error and leaves outputs zeroed") {
    eredu_load_request* request = nullptr;
    CHECK(eredu_load_request_new(nullptr, nullptr, nullptr) == EREDU_E_NULL_ARGUMENT);
    eredu_load_request_free(nullptr);
    CHECK(eredu_load_request_set_max_cached_shards(nullptr, 1, nullptr) == EREDU_E_NULL_ARGUMENT);
    CHECK(eredu_load_request_set_parallel_execution(nullptr, nullptr, nullptr) ==
          EREDU_E_NULL_ARGUMENT);
    std::uint64_t shards = 5;
    CHECK(eredu_load_request_max_cached_shards(nullptr, &shards, nullptr) == EREDU_E_NULL_ARGUMENT);
    CHECK(shards == 0);
    CHECK(eredu_parallel_load_desc_init(nullptr, nullptr) == EREDU_E_NULL_ARGUMENT);
    CHECK(eredu_preparation_policy_init(nullptr, nullptr) == EREDU_E_NULL_ARGUMENT);

    REQUIRE(eredu_load_request_new(nullptr, &request, nullptr) == EREDU_OK);
    const Request owned(request);
    CHECK(eredu_load_request_set_parallel_execution(request, nullptr, nullptr) ==
          EREDU_E_NULL_ARGUMENT);
    eredu_parallel_load_desc desc = parallel_desc(2, 0, 1, 1);
    desc.activation_dtype = 3;
    const Outcome dtype = set_parallel(request, desc);
    CHECK(dtype.status == EREDU_E_INVALID_ARGUMENT);
    CHECK(dtype.message == "unknown parallel->activation_dtype value 3");
    desc.activation_dtype = EREDU_ACTIVATION_DTYPE_BFLOAT16;
    desc.completion_cancellation = 2;
    CHECK(set_parallel(request, desc).status == EREDU_E_INVALID_ARGUMENT);
    desc.completion_cancellation = EREDU_CANCELLATION_NATIVE_CANCEL;
    desc.struct_size = 8;
    CHECK(set_parallel(request, desc).status == EREDU_E_INVALID_ARGUMENT);
    CHECK(!has_parallel(request));

    eredu_preparation_policy policy;
    eredu_preparation_policy_init(&policy, nullptr);
    policy.struct_size = 4;
    CHECK(eredu_load_request_validate_model_preparation(request, &policy, nullptr) ==
          EREDU_E_INVALID_ARGUMENT);
    CHECK(eredu_load_request_validate_model_preparation(request, nullptr, nullptr) ==
          EREDU_E_NULL_ARGUMENT);
    eredu_parallel_load_desc out;
    eredu_parallel_load_desc_init(&out, nullptr);
    CHECK(eredu_load_request_parallel_execution(request, &out, nullptr, nullptr) ==
          EREDU_E_NULL_ARGUMENT);
    std::uint64_t timeout = 0;
    eredu_cancellation_mode mode = 0;
    CHECK(eredu_load_request_realtime_completion_policy(request, &timeout, nullptr, nullptr) ==
          EREDU_E_NULL_ARGUMENT);
    CHECK(eredu_load_request_communication_completion_policy(request, &timeout, &mode, nullptr,
                                                             nullptr) == EREDU_E_NULL_ARGUMENT);
    CHECK(eredu_load_request_drafting(request, nullptr, &timeout, nullptr) ==
          EREDU_E_NULL_ARGUMENT);
    CHECK(eredu_load_request_state_residency(request, nullptr, nullptr) == EREDU_E_NULL_ARGUMENT);
    CHECK(eredu_load_request_prompt_cache_persistence(request, nullptr, nullptr) ==
          EREDU_E_NULL_ARGUMENT);

    eredu_quantization_request quantization;
    eredu_quantization_request_init(&quantization, nullptr);
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
          "out->struct_size is 2, expected " + std::to_string(sizeof(eredu_quantization_request)));

    std::uint32_t capabilities = 3;
    CHECK(eredu_load_request_required_session_capabilities(nullptr, &capabilities, nullptr) ==
          EREDU_E_NULL_ARGUMENT);
    CHECK(capabilities == 0);
    CHECK(eredu_load_request_required_session_capabilities(request, nullptr, nullptr) ==
          EREDU_E_NULL_ARGUMENT);

    eredu_residency_summary summary;
    eredu_residency_summary_init(&summary, nullptr);
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
    eredu_residency_summary_init(&summary, nullptr);
    REQUIRE(eredu_load_request_weight_residency(request, 3, &summary, nullptr) == EREDU_OK);
    CHECK(summary.struct_size == sizeof(eredu_residency_summary));
    CHECK(summary.device_depth == 3);
    CHECK(summary.is_fully_resident == 1);
    CHECK(summary.has_parameter_bank_cache == 0);
  }
}
