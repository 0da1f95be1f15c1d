// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// eredu_load_request_*: the seed's NormalizedLoadRequest as a builder handle.
#include <memory>
#include <optional>
#include <utility>

#include "firewall.hpp"
#include "request/load_request.hpp"
#include "residency_policy_arguments.hpp"

/// A request built in place: every setter computes the new value first and
/// assigns it only on success.
struct eredu_load_request {
  eredu::NormalizedLoadRequest request;
  /// The parallel request's topology as C, refreshed after every change, so
  /// that getters hand out a pointer without writing to the handle.
  eredu_topology topology = EREDU_TOPOLOGY_INIT;
};

namespace eredu::capi {
namespace {

// The C constants are the core's enum values.
static_assert(EREDU_CANCELLATION_NATIVE_CANCEL ==
              static_cast<int>(CompletionCancellationMode::NativeCancel));
static_assert(EREDU_CANCELLATION_QUARANTINE_UNTIL_COMPLETE ==
              static_cast<int>(CompletionCancellationMode::QuarantineUntilComplete));
static_assert(EREDU_ACTIVATION_DTYPE_FLOAT16 == static_cast<int>(PipelineActivationDtype::Float16));
static_assert(EREDU_ACTIVATION_DTYPE_BFLOAT16 ==
              static_cast<int>(PipelineActivationDtype::Bfloat16));
static_assert(EREDU_ACTIVATION_DTYPE_FLOAT32 == static_cast<int>(PipelineActivationDtype::Float32));
static_assert(EREDU_QUANTIZATION_AFFINE == static_cast<int>(QuantizationKind::Affine));
static_assert(EREDU_QUANTIZATION_MXFP4 == static_cast<int>(QuantizationKind::MxFp4));
static_assert(EREDU_DRAFTING_PLAN_DISABLED == static_cast<int>(DraftingPlanKind::Disabled));
static_assert(EREDU_DRAFTING_PLAN_EMBEDDED == static_cast<int>(DraftingPlanKind::Embedded));
static_assert(EREDU_DRAFTING_PLAN_EXTERNAL == static_cast<int>(DraftingPlanKind::External));
static_assert(EREDU_DRAFTING_ARCHITECTURE_DEFAULT ==
              static_cast<int>(DraftingLoadKind::ArchitectureDefault));
static_assert(EREDU_DRAFTING_DISABLED == static_cast<int>(DraftingLoadKind::Disabled));
static_assert(EREDU_DRAFTING_EMBEDDED == static_cast<int>(DraftingLoadKind::Embedded));
static_assert(EREDU_DRAFTING_EXTERNAL_TARGET == static_cast<int>(DraftingLoadKind::ExternalTarget));
static_assert(EREDU_CACHE_RESIDENCY_DEVICE == static_cast<int>(CacheResidencyKind::Device));
static_assert(EREDU_CACHE_RESIDENCY_PAGED == static_cast<int>(CacheResidencyKind::Paged));
static_assert(EREDU_SESSION_CAPABILITIES_MASK == SessionCapabilities::kMask);

/// The completion policy of a C pair: the mode's argument check, then the
/// seed's deadline check.
Result<CommunicationCompletionPolicy> completion_argument(std::uint64_t timeout_millis,
                                                          std::uint32_t cancellation,
                                                          const ArgumentName& name) {
  EREDU_TRY(mode, enum_argument(cancellation_mode_from_value(cancellation), cancellation, name));
  return CommunicationCompletionPolicy::create(timeout_millis, mode);
}

Result<ParallelLoadRequest> parallel_argument(const eredu_parallel_load_desc* given) {
  EREDU_TRY(read, read_sized(given, SizedDefaults<eredu_parallel_load_desc>::value(), "parallel"));
  const eredu_parallel_load_desc* parallel = &read;
  EREDU_TRY(dtype, enum_argument(activation_dtype_from_value(parallel->activation_dtype),
                                 parallel->activation_dtype, "parallel->activation_dtype"));
  EREDU_TRY(mode,
            enum_argument(cancellation_mode_from_value(parallel->completion_cancellation),
                          parallel->completion_cancellation, "parallel->completion_cancellation"));
  EREDU_TRY(sizes, read_sized(parallel->topology, SizedDefaults<eredu_topology>::value(),
                              "parallel->topology"));
  EREDU_TRY(topology,
            ParallelTopology::create(sizes.tensor, sizes.pipeline, sizes.expert, sizes.data));
  EREDU_TRY(rank, ParallelRankTopology::create(topology, parallel->rank));
  EREDU_TRY(completion,
            CommunicationCompletionPolicy::create(parallel->completion_timeout_millis, mode));
  return ParallelLoadRequest::create(rank, PipelineWireContract(dtype),
                                     parallel->maximum_batch_size,
                                     parallel->maximum_sequence_length, completion);
}

/// The drafting intent of a C kind and capacity: the argument checks, then
/// the seed's capacity check.
Result<DraftingLoadRequest> drafting_argument(std::uint32_t kind, std::uint64_t max_draft_tokens) {
  EREDU_TRY(drafting_kind, enum_argument(drafting_load_kind_from_value(kind), kind, "kind"));
  if (drafting_kind != DraftingLoadKind::Embedded && max_draft_tokens != 0) {
    return failf(Status::InvalidArgument,
                 "max_draft_tokens is {}, but only EREDU_DRAFTING_EMBEDDED takes a capacity",
                 max_draft_tokens);
  }
  switch (drafting_kind) {
    case DraftingLoadKind::ArchitectureDefault:
      break;
    case DraftingLoadKind::Disabled:
      return DraftingLoadRequest::disabled();
    case DraftingLoadKind::Embedded:
      return DraftingLoadRequest::embedded(max_draft_tokens);
    case DraftingLoadKind::ExternalTarget:
      return DraftingLoadRequest::external_target();
  }
  return DraftingLoadRequest::architecture_default();
}

/// Writes a completion policy to its C (timeout, cancellation) pair.
void completion_out(const CommunicationCompletionPolicy& policy, std::uint64_t* timeout_millis,
                    eredu_cancellation_mode* cancellation) {
  *timeout_millis = policy.timeout_millis();
  *cancellation = static_cast<eredu_cancellation_mode>(policy.cancellation());
}

/// The C topology of the request's parallel execution (all 1 without one).
eredu_topology topology_view(const NormalizedLoadRequest& request) {
  eredu_topology view = EREDU_TOPOLOGY_INIT;
  if (const auto& parallel = request.parallel_execution()) {
    const ParallelRankTopology& rank = parallel->rank();
    view.tensor = rank.tensor_parallel_size();
    view.pipeline = rank.pipeline_parallel_size();
    view.expert = rank.expert_parallel_size();
    view.data = rank.data_parallel_size();
  }
  return view;
}

/// The C view of an attached parallel request; its topology is the handle's.
eredu_parallel_load_desc parallel_view(const ParallelLoadRequest& parallel,
                                       const eredu_topology* topology) {
  eredu_parallel_load_desc out{};
  out.activation_dtype = static_cast<eredu_activation_dtype>(parallel.wire().activation_dtype());
  out.topology = topology;
  out.rank = parallel.rank().global_rank();
  out.maximum_batch_size = parallel.invocation_limits().first;
  out.maximum_sequence_length = parallel.invocation_limits().second;
  completion_out(parallel.completion(), &out.completion_timeout_millis,
                 &out.completion_cancellation);
  return out;
}

/// The C preparation policy; its topology (when any) is the handle's.
eredu_preparation_policy policy_view(const PreparationPolicy& policy,
                                     const eredu_topology* topology) {
  eredu_preparation_policy out{};
  if (const auto quantization = policy.quantization()) {
    out.has_quantization = 1;
    out.quantization_kind = static_cast<eredu_quantization_kind>(quantization->kind);
    out.quantization_group_size = quantization->group_size;
    out.quantization_bits = quantization->bits;
  }
  out.residency = static_cast<eredu_residency_request>(policy.residency());
  out.topology = policy.topology().has_value() ? topology : nullptr;
  out.required_session_capabilities = policy.required_session_capabilities().bits();
  return out;
}

/// Runs `change` on a copy of the request and publishes it (and its
/// topology view) on success.
template <class Change>
eredu_status update(eredu_load_request* request, eredu_error** error, Change&& change) {
  return firewall(error, [&]() -> Result<void> {
    EREDU_TRY(require(request, "request"));
    EREDU_TRY(changed, change(request->request));
    request->topology = topology_view(changed);
    request->request = std::move(changed);
    return outcome::success();
  });
}

/// Checks the request, then hands it to `body`.
template <class Body, class... Outs>
eredu_status request_getter(const eredu_load_request* request, eredu_error** error, Body&& body,
                            Outs*... outs) {
  return handle_call(
      request, "request", error,
      [&](const eredu_load_request& handle) { return body(handle.request); }, outs...);
}

}  // namespace
}  // namespace eredu::capi

// Defined at global scope: GCC gives extern "C" definitions inside a
// namespace that namespace's (hidden) visibility.
using namespace eredu;
using namespace eredu::capi;

extern "C" {

eredu_status eredu_parallel_load_desc_init(eredu_parallel_load_desc* desc, size_t size,
                                           eredu_error** error) {
  return init_sized(desc, size, "desc", error);
}

eredu_status eredu_quantization_request_init(eredu_quantization_request* request, size_t size,
                                             eredu_error** error) {
  return init_sized(request, size, "request", error);
}

eredu_status eredu_drafting_plan_init(eredu_drafting_plan* plan, size_t size, eredu_error** error) {
  return init_sized(plan, size, "plan", error);
}

eredu_status eredu_preparation_policy_init(eredu_preparation_policy* policy, size_t size,
                                           eredu_error** error) {
  return init_sized(policy, size, "policy", error);
}

eredu_status eredu_load_request_info_init(eredu_load_request_info* info, size_t size,
                                          eredu_error** error) {
  return init_sized(info, size, "info", error);
}

eredu_status eredu_completion_policy_validate(uint64_t timeout_millis,
                                              eredu_cancellation_mode cancellation,
                                              eredu_error** error) {
  return firewall(error, [&]() -> Result<void> {
    EREDU_TRY(completion_argument(timeout_millis, cancellation, "cancellation"));
    return outcome::success();
  });
}

eredu_status eredu_load_request_new(const eredu_quantization_request* quantization,
                                    eredu_load_request** out, eredu_error** error) {
  return firewall(
      error,
      [&]() -> Result<void> {
        std::optional<eredu_quantization_request> read;
        if (quantization != nullptr) {
          EREDU_TRY(value,
                    read_sized(quantization, SizedDefaults<eredu_quantization_request>::value(),
                               "quantization"));
          read = value;
        }
        EREDU_TRY(require(out, "out"));
        NormalizedLoadRequest request =
            !read ? NormalizedLoadRequest()
                  : NormalizedLoadRequest::with_quantization(
                        QuantizationRequest::from_kind(read->kind, read->group_size, read->bits));
        auto handle = std::make_unique<eredu_load_request>();
        handle->request = std::move(request);
        *out = handle.release();
        return outcome::success();
      },
      out);
}

void eredu_load_request_free(eredu_load_request* request) { delete request; }

eredu_status eredu_load_request_set_parallel_execution(eredu_load_request* request,
                                                       const eredu_parallel_load_desc* parallel,
                                                       eredu_error** error) {
  return update(request, error,
                [&](const NormalizedLoadRequest& current) -> Result<NormalizedLoadRequest> {
                  EREDU_TRY(value, parallel_argument(parallel));
                  return current.with_parallel_execution(value);
                });
}

eredu_status eredu_load_request_set_communication_completion_policy(
    eredu_load_request* request, uint64_t timeout_millis, eredu_cancellation_mode cancellation,
    eredu_error** error) {
  return update(
      request, error, [&](const NormalizedLoadRequest& current) -> Result<NormalizedLoadRequest> {
        EREDU_TRY(policy, completion_argument(timeout_millis, cancellation, "cancellation"));
        return current.with_communication_completion_policy(policy);
      });
}

eredu_status eredu_load_request_set_drafting_plan(eredu_load_request* request,
                                                  const eredu_drafting_plan* plan,
                                                  eredu_error** error) {
  return update(
      request, error, [&](const NormalizedLoadRequest& current) -> Result<NormalizedLoadRequest> {
        EREDU_TRY(read, read_sized(plan, SizedDefaults<eredu_drafting_plan>::value(), "plan"));
        // An unknown kind is kept: the seed's catch-all arm rejects it.
        return current.with_drafting_plan(
            DraftingPlan{static_cast<DraftingPlanKind>(read.kind), read.max_draft_tokens});
      });
}

eredu_status eredu_load_request_set_drafting(eredu_load_request* request, eredu_drafting_kind kind,
                                             uint64_t max_draft_tokens, eredu_error** error) {
  return update(request, error,
                [&](const NormalizedLoadRequest& current) -> Result<NormalizedLoadRequest> {
                  EREDU_TRY(drafting, drafting_argument(kind, max_draft_tokens));
                  return current.with_drafting(drafting);
                });
}

eredu_status eredu_load_request_set_max_cached_shards(eredu_load_request* request, uint64_t maximum,
                                                      eredu_error** error) {
  return update(request, error, [&](const NormalizedLoadRequest& current) {
    return current.with_max_cached_shards(maximum);
  });
}

eredu_status eredu_load_request_set_weight_residency(eredu_load_request* request,
                                                     const eredu_weight_residency_desc* desc,
                                                     eredu_error** error) {
  return update(request, error,
                [&](const NormalizedLoadRequest& current) -> Result<NormalizedLoadRequest> {
                  EREDU_TRY(argument, weight_residency_argument(desc));
                  EREDU_TRY(residency, argument.build());
                  return current.with_weight_residency(residency);
                });
}

eredu_status eredu_load_request_set_required_session_capabilities(eredu_load_request* request,
                                                                  uint32_t capabilities,
                                                                  eredu_error** error) {
  return update(request, error,
                [&](const NormalizedLoadRequest& current) -> Result<NormalizedLoadRequest> {
                  const auto set = SessionCapabilities::from_bits(capabilities);
                  if (!set) {
                    return failf(Status::InvalidArgument,
                                 "capabilities is {:#x}, which has bits outside {:#x}",
                                 capabilities, SessionCapabilities::kMask);
                  }
                  return current.with_required_session_capabilities(*set);
                });
}

eredu_status eredu_load_request_set_state_residency(eredu_load_request* request,
                                                    eredu_cache_residency residency,
                                                    eredu_error** error) {
  return update(request, error,
                [&](const NormalizedLoadRequest& current) -> Result<NormalizedLoadRequest> {
                  EREDU_TRY(kind, enum_argument(cache_residency_kind_from_value(residency),
                                                residency, "residency"));
                  return current.with_state_residency(CacheResidencyPolicy(kind));
                });
}

eredu_status eredu_load_request_set_prompt_cache_persistence(eredu_load_request* request,
                                                             uint8_t required,
                                                             eredu_error** error) {
  return update(request, error,
                [&](const NormalizedLoadRequest& current) -> Result<NormalizedLoadRequest> {
                  EREDU_TRY(flag, flag_argument(required, "required"));
                  return current.with_prompt_cache_persistence(flag);
                });
}

eredu_status eredu_load_request_get_info(const eredu_load_request* request,
                                         eredu_load_request_info* out, eredu_error** error) {
  return request_getter(
      request, error,
      [&](const NormalizedLoadRequest& current) -> Result<void> {
        EREDU_TRY(sized_out(out, "out"));
        EREDU_TRY(realtime, current.realtime_completion_policy());
        eredu_load_request_info info{};
        info.state_residency = static_cast<eredu_cache_residency>(current.state_residency().kind());
        info.required_session_capabilities = current.required_session_capabilities().bits();
        info.drafting = static_cast<eredu_drafting_kind>(current.drafting().kind());
        completion_out(realtime, &info.realtime_completion_timeout_millis,
                       &info.realtime_completion_cancellation);
        info.prompt_cache_persistence = current.prompt_cache_persistence() ? 1 : 0;
        info.has_quantization = current.quantization().has_value() ? 1 : 0;
        info.has_parallel_execution = current.has_parallel_execution() ? 1 : 0;
        info.max_cached_shards = current.max_cached_shards();
        info.max_draft_tokens = current.drafting().embedded_capacity().value_or(0);
        write_sized(out, info);
        return outcome::success();
      },
      out);
}

eredu_status eredu_load_request_quantization(const eredu_load_request* request,
                                             eredu_quantization_request* out, bool* present,
                                             eredu_error** error) {
  return request_getter(
      request, error,
      [&](const NormalizedLoadRequest& current) -> Result<void> {
        EREDU_TRY(sized_out(out, "out"));
        EREDU_TRY(require(present, "present"));
        const std::optional<QuantizationRequest> quantization = current.quantization();
        eredu_quantization_request value{};
        if (quantization) {
          value.kind = static_cast<eredu_quantization_kind>(quantization->kind);
          value.group_size = quantization->group_size;
          value.bits = quantization->bits;
        }
        write_sized(out, value);
        *present = quantization.has_value();
        return outcome::success();
      },
      out, present);
}

eredu_status eredu_load_request_parallel_execution(const eredu_load_request* request,
                                                   eredu_parallel_load_desc* out, bool* present,
                                                   eredu_error** error) {
  return handle_call(
      request, "request", error,
      [&](const eredu_load_request& handle) -> Result<void> {
        EREDU_TRY(sized_out(out, "out"));
        EREDU_TRY(require(present, "present"));
        const auto& parallel = handle.request.parallel_execution();
        write_sized(out, parallel ? parallel_view(*parallel, &handle.topology)
                                  : eredu_parallel_load_desc{});
        *present = parallel.has_value();
        return outcome::success();
      },
      out, present);
}

eredu_status eredu_load_request_communication_completion_policy(
    const eredu_load_request* request, uint64_t* timeout_millis,
    eredu_cancellation_mode* cancellation, bool* present, eredu_error** error) {
  return request_getter(
      request, error,
      [&](const NormalizedLoadRequest& current) -> Result<void> {
        EREDU_TRY(require(timeout_millis, "timeout_millis"));
        EREDU_TRY(require(cancellation, "cancellation"));
        EREDU_TRY(require(present, "present"));
        EREDU_TRY(policy, current.communication_completion_policy());
        if (policy) completion_out(*policy, timeout_millis, cancellation);
        *present = policy.has_value();
        return outcome::success();
      },
      timeout_millis, cancellation, present);
}

eredu_status eredu_load_request_weight_residency(const eredu_load_request* request,
                                                 uint64_t unit_count, eredu_residency_summary* out,
                                                 eredu_error** error) {
  return request_getter(
      request, error,
      [&](const NormalizedLoadRequest& current) -> Result<void> {
        EREDU_TRY(sized_out(out, "out"));
        return summary_out(current.weight_residency(), unit_count, out);
      },
      out);
}

eredu_status eredu_load_request_validate_model_preparation(const eredu_load_request* request,
                                                           eredu_preparation_policy* out,
                                                           eredu_error** error) {
  return handle_call(
      request, "request", error,
      [&](const eredu_load_request& handle) -> Result<void> {
        EREDU_TRY(sized_out(out, "out"));
        EREDU_TRY(policy, handle.request.preparation_policy());
        write_sized(out, policy_view(policy, &handle.topology));
        return outcome::success();
      },
      out);
}

}  // extern "C"
