// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "request/load_request.hpp"

#include <limits>

#include "request/load_request_error.hpp"

namespace eredu {
namespace {

// The seed's default for local realtime work: 30 s, quarantined.
constexpr std::uint64_t kDefaultRealtimeTimeoutMillis = 30'000;

}  // namespace

ResidencyRequest preparation_residency(const WeightResidency& residency) {
  if (residency.parameter_bank_cache().has_value()) {
    return ResidencyRequest::AddressableParameterBanks;
  }
  switch (residency.layers().execution_residency()) {
    case ExecutionResidency::FullyResident:
      return ResidencyRequest::FullyResident;
    case ExecutionResidency::LayerwiseHost:
      return ResidencyRequest::LayerwiseHost;
    case ExecutionResidency::DenseDiskStream:
      return ResidencyRequest::DenseDiskStream;
  }
  return ResidencyRequest::FullyResident;
}

NormalizedLoadRequest NormalizedLoadRequest::with_quantization(QuantizationRequest quantization) {
  NormalizedLoadRequest request;
  request.quantization_ = quantization;
  return request;
}

NormalizedLoadRequest NormalizedLoadRequest::with_prompt_cache_persistence(bool required) const {
  NormalizedLoadRequest request = *this;
  request.prompt_cache_persistence_ = required;
  return request;
}

Result<NormalizedLoadRequest> NormalizedLoadRequest::with_max_cached_shards(
    std::uint64_t maximum) const {
  if (maximum == 0) return outcome::failure(load_request_error::zero_cached_shards());
  NormalizedLoadRequest request = *this;
  request.max_cached_shards_ = maximum;
  return request;
}

std::uint64_t NormalizedLoadRequest::max_cached_shards() const {
  return max_cached_shards_.value_or(weight_residency_.max_cached_shards());
}

Result<NormalizedLoadRequest> NormalizedLoadRequest::with_parallel_execution(
    const ParallelLoadRequest& parallel) const {
  if (communication_completion_.has_value()) {
    return outcome::failure(load_request_error::conflicting_completion_policy());
  }
  NormalizedLoadRequest request = *this;
  request.parallel_ = parallel;
  return request;
}

NormalizedLoadRequest NormalizedLoadRequest::with_communication_completion_policy(
    CommunicationCompletionPolicy policy) const {
  NormalizedLoadRequest request = *this;
  request.set_communication_completion_policy(policy);
  return request;
}

void NormalizedLoadRequest::set_communication_completion_policy(
    CommunicationCompletionPolicy policy) {
  if (parallel_.has_value()) {
    parallel_ = parallel_->with_completion(policy);
  } else {
    communication_completion_ = policy;
  }
}

NormalizedLoadRequest NormalizedLoadRequest::with_weight_residency(
    const WeightResidency& residency) const {
  NormalizedLoadRequest request = *this;
  request.weight_residency_ = residency;
  return request;
}

NormalizedLoadRequest NormalizedLoadRequest::with_state_residency(
    CacheResidencyPolicy residency) const {
  NormalizedLoadRequest request = *this;
  request.state_residency_ = residency;
  return request;
}

NormalizedLoadRequest NormalizedLoadRequest::with_required_session_capabilities(
    SessionCapabilities capabilities) const {
  NormalizedLoadRequest request = *this;
  request.capabilities_ = capabilities;
  return request;
}

NormalizedLoadRequest NormalizedLoadRequest::with_drafting(DraftingLoadRequest drafting) const {
  NormalizedLoadRequest request = *this;
  request.drafting_ = drafting;
  return request;
}

Result<NormalizedLoadRequest> NormalizedLoadRequest::with_drafting_plan(
    const DraftingPlan& plan) const {
  switch (plan.kind) {
    case DraftingPlanKind::Disabled:
      return with_drafting(DraftingLoadRequest::disabled());
    case DraftingPlanKind::Embedded: {
      EREDU_TRY(drafting, DraftingLoadRequest::embedded(plan.max_draft_tokens));
      return with_drafting(drafting);
    }
    case DraftingPlanKind::External:
      return with_drafting(DraftingLoadRequest::external_target());
  }
  // The seed's DraftingPlan is non-exhaustive: a kind this library does not
  // know reaches its catch-all arm.
  return outcome::failure(load_request_error::unsupported_drafting_plan());
}

std::optional<ParallelRankTopology> NormalizedLoadRequest::parallel_topology() const {
  if (!parallel_.has_value()) return std::nullopt;
  return parallel_->rank();
}

std::optional<PipelineWireContract> NormalizedLoadRequest::pipeline_wire_contract() const {
  if (!parallel_.has_value()) return std::nullopt;
  return parallel_->wire();
}

std::optional<std::pair<std::int32_t, std::int32_t>>
NormalizedLoadRequest::partitioned_invocation_limits() const {
  if (!parallel_.has_value()) return std::nullopt;
  return parallel_->invocation_limits();
}

Result<std::optional<CommunicationCompletionPolicy>>
NormalizedLoadRequest::communication_completion_policy() const {
  if (parallel_.has_value()) {
    if (communication_completion_.has_value()) {
      return outcome::failure(load_request_error::conflicting_completion_policy());
    }
    return std::optional(parallel_->completion());
  }
  if (communication_completion_.has_value()) {
    return outcome::failure(load_request_error::orphaned_model_completion());
  }
  return std::optional<CommunicationCompletionPolicy>();
}

Result<CommunicationCompletionPolicy> NormalizedLoadRequest::realtime_completion_policy() const {
  if (parallel_.has_value()) return parallel_->completion();
  if (communication_completion_.has_value()) return *communication_completion_;
  auto policy = CommunicationCompletionPolicy::create(
      kDefaultRealtimeTimeoutMillis, CompletionCancellationMode::QuarantineUntilComplete);
  if (!policy) return outcome::failure(load_request_error::completion(policy.error().message));
  return policy.value();
}

Result<std::optional<WeightQuantization>> NormalizedLoadRequest::weight_quantization() const {
  if (!quantization_.has_value()) return std::optional<WeightQuantization>();
  switch (quantization_->kind) {
    case QuantizationKind::Affine: {
      const std::uint32_t group_size = quantization_->group_size;
      if (group_size > static_cast<std::uint32_t>(std::numeric_limits<std::int32_t>::max())) {
        return outcome::failure(load_request_error::quantization(
            fmt::format("group_size must fit in i32, got {}", group_size)));
      }
      auto affine = AffineQuantization::create(static_cast<std::int32_t>(group_size),
                                               static_cast<std::int32_t>(quantization_->bits));
      if (!affine)
        return outcome::failure(load_request_error::quantization(affine.error().message));
      return std::optional(WeightQuantization(affine.value()));
    }
    case QuantizationKind::MxFp4:
      return std::optional(WeightQuantization(MxFp4Format{}));
  }
  // The seed's QuantizationRequest is non-exhaustive: its catch-all arm.
  return outcome::failure(
      load_request_error::quantization("unknown load-time transformation request"));
}

Result<ValidatedModelLoadRequest> NormalizedLoadRequest::validate_model_preparation() const {
  if (max_cached_shards() == 0) return outcome::failure(load_request_error::zero_cached_shards());
  EREDU_TRY(weight_quantization());
  EREDU_TRY(communication_completion_policy());
  return ValidatedModelLoadRequest(*this, project_preparation_policy());
}

Result<PreparationPolicy> NormalizedLoadRequest::preparation_policy() const {
  EREDU_TRY(validated, validate_model_preparation());
  return validated.preparation_policy();
}

PreparationPolicy NormalizedLoadRequest::project_preparation_policy() const {
  PreparationPolicy policy =
      PreparationPolicy(quantization_, preparation_residency(weight_residency_))
          .with_required_session_capabilities(capabilities_);
  if (parallel_.has_value()) policy = policy.with_topology(parallel_->rank().topology());
  return policy;
}

}  // namespace eredu
