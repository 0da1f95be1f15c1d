// eredu_load_request_*: seed 002's NormalizedLoadRequest as a builder handle.
#include "firewall.hpp"
#include "outputs.hpp"
#include "request/load_request.hpp"
#include "residency_policy_arguments.hpp"

/// A request built in place: every setter computes the new value first and
/// assigns it only on success.
struct eredu_load_request {
  eredu::NormalizedLoadRequest request;
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

Result<ParallelLoadRequest> parallel_argument(const eredu_parallel_load_desc* parallel) {
  EREDU_TRY(sized_argument(parallel, "parallel"));
  EREDU_TRY(dtype, enum_argument(activation_dtype_from_value(parallel->activation_dtype),
                                 parallel->activation_dtype, "parallel->activation_dtype"));
  EREDU_TRY(mode,
            enum_argument(cancellation_mode_from_value(parallel->completion_cancellation),
                          parallel->completion_cancellation, "parallel->completion_cancellation"));
  EREDU_TRY(topology, ParallelTopology::create(parallel->tensor, parallel->pipeline,
                                               parallel->expert, parallel->data));
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

void parallel_out(const ParallelLoadRequest& parallel, eredu_parallel_load_desc* out) {
  const ParallelRankTopology& rank = parallel.rank();
  out->tensor = rank.tensor_parallel_size();
  out->pipeline = rank.pipeline_parallel_size();
  out->expert = rank.expert_parallel_size();
  out->data = rank.data_parallel_size();
  out->rank = rank.global_rank();
  out->activation_dtype = static_cast<eredu_activation_dtype>(parallel.wire().activation_dtype());
  out->maximum_batch_size = parallel.invocation_limits().first;
  out->maximum_sequence_length = parallel.invocation_limits().second;
  completion_out(parallel.completion(), &out->completion_timeout_millis,
                 &out->completion_cancellation);
}

void policy_out(const PreparationPolicy& policy, eredu_preparation_policy* out) {
  if (const auto quantization = policy.quantization()) {
    out->has_quantization = 1;
    out->quantization_kind = static_cast<eredu_quantization_kind>(quantization->kind);
    out->quantization_group_size = quantization->group_size;
    out->quantization_bits = quantization->bits;
  }
  out->residency = static_cast<eredu_residency_request>(policy.residency());
  if (const auto& topology = policy.topology()) {
    out->has_topology = 1;
    out->tensor = topology->tensor();
    out->pipeline = topology->pipeline();
    out->expert = topology->expert();
    out->data = topology->data();
  }
  out->required_session_capabilities = policy.required_session_capabilities().bits();
}

/// Runs `change` on a copy of the request and publishes it on success.
template <class Change>
eredu_status update(eredu_load_request* request, eredu_error** error, Change&& change) {
  return firewall(error, [&]() -> Result<void> {
    EREDU_TRY(require(request, "request"));
    EREDU_TRY(changed, change(request->request));
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

/// A getter of one value: checks the request, then `out`, then stores
/// `read(request)` in it.
template <class T, class Read>
eredu_status request_value(const eredu_load_request* request, T* out, eredu_error** error,
                           Read&& read) {
  return request_getter(
      request, error,
      [&](const NormalizedLoadRequest& current) { return value_out(out, read(current)); }, out);
}

}  // namespace
}  // namespace eredu::capi

// Defined at global scope: GCC gives extern "C" definitions inside a
// namespace that namespace's (hidden) visibility.
using namespace eredu;
using namespace eredu::capi;

extern "C" {

eredu_status eredu_parallel_load_desc_init(eredu_parallel_load_desc* desc, eredu_error** error) {
  return firewall(error, [&]() -> Result<void> {
    EREDU_TRY(require(desc, "desc"));
    EREDU_TRY(realtime, NormalizedLoadRequest().realtime_completion_policy());
    *desc = eredu_parallel_load_desc{};
    desc->struct_size = sizeof(eredu_parallel_load_desc);
    desc->tensor = 1;
    desc->pipeline = 1;
    desc->expert = 1;
    desc->data = 1;
    desc->activation_dtype = EREDU_ACTIVATION_DTYPE_FLOAT32;
    completion_out(realtime, &desc->completion_timeout_millis, &desc->completion_cancellation);
    return outcome::success();
  });
}

eredu_status eredu_quantization_request_init(eredu_quantization_request* request,
                                             eredu_error** error) {
  return firewall(error, [&]() -> Result<void> {
    EREDU_TRY(require(request, "request"));
    const AffineQuantization defaults;
    *request = eredu_quantization_request{};
    request->struct_size = sizeof(eredu_quantization_request);
    request->kind = EREDU_QUANTIZATION_AFFINE;
    request->group_size = static_cast<std::uint32_t>(defaults.group_size);
    request->bits = static_cast<std::uint8_t>(defaults.bits);
    return outcome::success();
  });
}

eredu_status eredu_drafting_plan_init(eredu_drafting_plan* plan, eredu_error** error) {
  return init_sized(plan, "plan", error);
}

eredu_status eredu_preparation_policy_init(eredu_preparation_policy* policy, eredu_error** error) {
  return init_sized(policy, "policy", error);
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
        if (quantization != nullptr) {
          EREDU_TRY(sized_argument(quantization, "quantization"));
        }
        EREDU_TRY(require(out, "out"));
        NormalizedLoadRequest request =
            quantization == nullptr
                ? NormalizedLoadRequest()
                : NormalizedLoadRequest::with_quantization(QuantizationRequest::from_kind(
                      quantization->kind, quantization->group_size, quantization->bits));
        *out = new eredu_load_request{std::move(request)};
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
        EREDU_TRY(sized_argument(plan, "plan"));
        // An unknown kind is kept: the seed's catch-all arm rejects it.
        return current.with_drafting_plan(
            DraftingPlan{static_cast<DraftingPlanKind>(plan->kind), plan->max_draft_tokens});
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

eredu_status eredu_load_request_max_cached_shards(const eredu_load_request* request, uint64_t* out,
                                                  eredu_error** error) {
  return request_value(request, out, error, [](const NormalizedLoadRequest& current) {
    return current.max_cached_shards();
  });
}

eredu_status eredu_load_request_quantization(const eredu_load_request* request,
                                             eredu_quantization_request* out, bool* present,
                                             eredu_error** error) {
  return request_getter(
      request, error,
      [&](const NormalizedLoadRequest& current) -> Result<void> {
        EREDU_TRY(sized_argument(out, "out"));
        EREDU_TRY(require(present, "present"));
        const std::optional<QuantizationRequest> quantization = current.quantization();
        if (quantization) {
          out->kind = static_cast<eredu_quantization_kind>(quantization->kind);
          out->group_size = quantization->group_size;
          out->bits = quantization->bits;
        }
        *present = quantization.has_value();
        return outcome::success();
      },
      out, present);
}

eredu_status eredu_load_request_parallel_execution(const eredu_load_request* request,
                                                   eredu_parallel_load_desc* out, bool* present,
                                                   eredu_error** error) {
  return request_getter(
      request, error,
      [&](const NormalizedLoadRequest& current) -> Result<void> {
        EREDU_TRY(sized_argument(out, "out"));
        EREDU_TRY(require(present, "present"));
        if (const auto& parallel = current.parallel_execution()) parallel_out(*parallel, out);
        *present = current.has_parallel_execution();
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

eredu_status eredu_load_request_realtime_completion_policy(const eredu_load_request* request,
                                                           uint64_t* timeout_millis,
                                                           eredu_cancellation_mode* cancellation,
                                                           eredu_error** error) {
  return request_getter(
      request, error,
      [&](const NormalizedLoadRequest& current) -> Result<void> {
        EREDU_TRY(require(timeout_millis, "timeout_millis"));
        EREDU_TRY(require(cancellation, "cancellation"));
        EREDU_TRY(policy, current.realtime_completion_policy());
        completion_out(policy, timeout_millis, cancellation);
        return outcome::success();
      },
      timeout_millis, cancellation);
}

eredu_status eredu_load_request_drafting(const eredu_load_request* request,
                                         eredu_drafting_kind* kind, uint64_t* max_draft_tokens,
                                         eredu_error** error) {
  return request_getter(
      request, error,
      [&](const NormalizedLoadRequest& current) -> Result<void> {
        EREDU_TRY(require(kind, "kind"));
        EREDU_TRY(require(max_draft_tokens, "max_draft_tokens"));
        *kind = static_cast<eredu_drafting_kind>(current.drafting().kind());
        *max_draft_tokens = current.drafting().embedded_capacity().value_or(0);
        return outcome::success();
      },
      kind, max_draft_tokens);
}

eredu_status eredu_load_request_weight_residency(const eredu_load_request* request,
                                                 uint64_t unit_count, eredu_residency_summary* out,
                                                 eredu_error** error) {
  return request_getter(
      request, error,
      [&](const NormalizedLoadRequest& current) -> Result<void> {
        EREDU_TRY(sized_argument(out, "out"));
        return summary_out(current.weight_residency(), unit_count, out);
      },
      out);
}

eredu_status eredu_load_request_required_session_capabilities(const eredu_load_request* request,
                                                              uint32_t* out, eredu_error** error) {
  return request_value(request, out, error, [](const NormalizedLoadRequest& current) {
    return current.required_session_capabilities().bits();
  });
}

eredu_status eredu_load_request_state_residency(const eredu_load_request* request,
                                                eredu_cache_residency* out, eredu_error** error) {
  return request_value(request, out, error, [](const NormalizedLoadRequest& current) {
    return static_cast<eredu_cache_residency>(current.state_residency().kind());
  });
}

eredu_status eredu_load_request_prompt_cache_persistence(const eredu_load_request* request,
                                                         bool* out, eredu_error** error) {
  return request_value(request, out, error, [](const NormalizedLoadRequest& current) {
    return current.prompt_cache_persistence();
  });
}

eredu_status eredu_load_request_validate_model_preparation(const eredu_load_request* request,
                                                           eredu_preparation_policy* out,
                                                           eredu_error** error) {
  return request_getter(
      request, error,
      [&](const NormalizedLoadRequest& current) -> Result<void> {
        EREDU_TRY(sized_argument(out, "out"));
        EREDU_TRY(policy, current.preparation_policy());
        policy_out(policy, out);
        return outcome::success();
      },
      out);
}

}  // extern "C"
