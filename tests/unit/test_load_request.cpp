// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The normalized load request seed: the seed's tests (docs/seeds.md) and
// every NormalizedLoadRequestError variant with its code and text.
#include <doctest/doctest.h>

#include <cstdint>

#include "request/load_request.hpp"
#include "request/load_request_error.hpp"

using namespace eredu;

namespace {

CommunicationCompletionPolicy completion() {
  return CommunicationCompletionPolicy::create(1000,
                                               CompletionCancellationMode::QuarantineUntilComplete)
      .value();
}

ParallelRankTopology rank_of(std::uint64_t tensor, std::uint64_t rank) {
  return ParallelRankTopology::create(ParallelTopology::create(tensor, 1, 1, 1).value(), rank)
      .value();
}

PipelineWireContract float32_wire() {
  return PipelineWireContract(PipelineActivationDtype::Float32);
}

ParallelLoadRequest parallel(std::uint64_t rank, std::int32_t batch = 1,
                             std::int32_t sequence = 128) {
  return ParallelLoadRequest::create(rank_of(2, rank), float32_wire(), batch, sequence,
                                     completion())
      .value();
}

}  // namespace

TEST_CASE("parallel policy is atomic and exact") {
  const ParallelRankTopology rank = rank_of(2, 1);
  const ParallelLoadRequest request_parallel =
      ParallelLoadRequest::create(rank, float32_wire(), 2, 128, completion()).value();
  const NormalizedLoadRequest request =
      NormalizedLoadRequest::with_quantization(QuantizationRequest::mxfp4())
          .with_parallel_execution(request_parallel)
          .value()
          .with_required_session_capabilities(SessionCapabilities(true, false, true));

  REQUIRE(request.validate_model_preparation());
  CHECK(request.parallel_execution() == request_parallel);
  REQUIRE(request.parallel_topology().has_value());
  CHECK(request.parallel_topology()->topology() == rank.topology());
  CHECK(request.parallel_topology()->global_rank() == 1);
  CHECK(request.partitioned_invocation_limits() == std::pair<std::int32_t, std::int32_t>{2, 128});
  CHECK(request.communication_completion_policy().value() == completion());
  const PreparationPolicy policy = request.preparation_policy().value();
  CHECK(policy.topology() == ParallelTopology::create(2, 1, 1, 1).value());
  CHECK(policy.quantization() == QuantizationRequest::mxfp4());
  CHECK(policy.residency() == ResidencyRequest::FullyResident);
  CHECK(policy.required_session_capabilities().bits() == 0b101);
  CHECK(request.pipeline_wire_contract() == float32_wire());
  CHECK(request.has_parallel_execution());
}

TEST_CASE("invalid parallel geometry fails at parallel construction") {
  const ParallelRankTopology rank = rank_of(2, 0);
  auto zero_batch = ParallelLoadRequest::create(rank, float32_wire(), 0, 128, completion());
  REQUIRE(!zero_batch);
  CHECK(zero_batch.error().code == Status::InvalidInvocationLimits);
  CHECK(zero_batch.error().message ==
        "partitioned invocation limits must be positive, got batch 0 and sequence 128");

  auto negative_sequence = ParallelLoadRequest::create(rank, float32_wire(), 1, -1, completion());
  REQUIRE(!negative_sequence);
  CHECK(negative_sequence.error().code == Status::InvalidInvocationLimits);
  CHECK(negative_sequence.error().message ==
        "partitioned invocation limits must be positive, got batch 1 and sequence -1");
}

TEST_CASE("replicated topology is rejected at parallel construction") {
  auto replicated =
      ParallelLoadRequest::create(rank_of(1, 0), float32_wire(), 1, 128, completion());
  REQUIRE(!replicated);
  CHECK(replicated.error().code == Status::ReplicatedParallelTopology);
  CHECK(replicated.error().message ==
        "explicit parallel execution requires a non-replicated topology");

  // The topology is checked before the limits.
  auto both = ParallelLoadRequest::create(rank_of(1, 0), float32_wire(), 0, 0, completion());
  CHECK(both.error().code == Status::ReplicatedParallelTopology);
}

TEST_CASE("local completion cannot be reinterpreted as parallel completion") {
  const NormalizedLoadRequest request =
      NormalizedLoadRequest().with_communication_completion_policy(completion());
  auto attached = request.with_parallel_execution(parallel(0));
  REQUIRE(!attached);
  CHECK(attached.error().code == Status::ConflictingCompletionPolicy);
  CHECK(attached.error().message ==
        "parallel execution cannot replace an existing local completion policy");
}

TEST_CASE("embedded drafting capacity is positive by construction") {
  auto zero = DraftingLoadRequest::embedded(0);
  REQUIRE(!zero);
  CHECK(zero.error().code == Status::ZeroEmbeddedDraftCapacity);
  CHECK(zero.error().message == "embedded draft capacity must be positive");
  CHECK(DraftingLoadRequest::embedded(4).value().embedded_capacity() == 4u);
  CHECK(DraftingLoadRequest::embedded(4).value().kind() == DraftingLoadKind::Embedded);
  CHECK(DraftingLoadRequest().kind() == DraftingLoadKind::ArchitectureDefault);
  CHECK(!DraftingLoadRequest::disabled().embedded_capacity().has_value());
  CHECK(!DraftingLoadRequest::external_target().embedded_capacity().has_value());
}

TEST_CASE("local realtime completion does not become valid model communication") {
  const NormalizedLoadRequest request =
      NormalizedLoadRequest().with_communication_completion_policy(completion());
  CHECK(request.realtime_completion_policy().value() == completion());
  auto validated = request.validate_model_preparation();
  REQUIRE(!validated);
  CHECK(validated.error().code == Status::OrphanedModelCompletion);
  CHECK(validated.error().message ==
        "a communication completion policy requires a parallel topology");
  CHECK(request.communication_completion_policy().error().code == Status::OrphanedModelCompletion);
}

TEST_CASE("completion policies need a positive millisecond deadline") {
  auto zero = CommunicationCompletionPolicy::create(0, CompletionCancellationMode::NativeCancel);
  REQUIRE(!zero);
  CHECK(zero.error().code == Status::InvalidCompletionPolicy);
  CHECK(zero.error().message ==
        "communication completion policy must have a positive millisecond deadline");
  const auto longest =
      CommunicationCompletionPolicy::create(UINT64_MAX, CompletionCancellationMode::NativeCancel)
          .value();
  CHECK(longest.timeout_millis() == UINT64_MAX);
  CHECK(longest.cancellation() == CompletionCancellationMode::NativeCancel);
  CHECK(longest != CommunicationCompletionPolicy::create(
                       UINT64_MAX, CompletionCancellationMode::QuarantineUntilComplete)
                       .value());
  CHECK(cancellation_mode_from_value(1) == CompletionCancellationMode::QuarantineUntilComplete);
  CHECK(!cancellation_mode_from_value(2).has_value());
}

TEST_CASE("realtime completion falls back to 30 s quarantined") {
  const auto fallback = NormalizedLoadRequest().realtime_completion_policy().value();
  CHECK(fallback.timeout_millis() == 30000);
  CHECK(fallback.cancellation() == CompletionCancellationMode::QuarantineUntilComplete);
  CHECK(NormalizedLoadRequest().communication_completion_policy().value() == std::nullopt);
}

TEST_CASE("a completion set after parallel execution goes into the parallel request") {
  const auto later =
      CommunicationCompletionPolicy::create(250, CompletionCancellationMode::NativeCancel).value();
  NormalizedLoadRequest request =
      NormalizedLoadRequest().with_parallel_execution(parallel(1)).value();
  request.set_communication_completion_policy(later);
  CHECK(request.parallel_execution()->completion() == later);
  CHECK(request.communication_completion_policy().value() == later);
  CHECK(request.realtime_completion_policy().value() == later);
  CHECK(request.validate_model_preparation());
  CHECK(request.with_communication_completion_policy(completion())
            .parallel_execution()
            ->completion() == completion());
}

TEST_CASE("failed builder calls leave the request unchanged") {
  const NormalizedLoadRequest request =
      NormalizedLoadRequest().with_communication_completion_policy(completion());
  const NormalizedLoadRequest copy = request;
  CHECK(!request.with_parallel_execution(parallel(0)));
  CHECK(!request.with_max_cached_shards(0));
  CHECK(!request.with_drafting_plan(DraftingPlan{DraftingPlanKind::Embedded, 0}));
  CHECK(request == copy);
}

TEST_CASE("max cached shards: explicit override, else the weight residency's bound") {
  CHECK(NormalizedLoadRequest().max_cached_shards() == DEFAULT_MAX_CACHED_SHARDS);
  CHECK(NormalizedLoadRequest().max_cached_shards() == 4);
  const auto layerwise =
      WeightResidency::layerwise_host(LayerwiseLoadOptions().with_max_cached_shards(9));
  const auto with_layerwise = NormalizedLoadRequest().with_weight_residency(layerwise);
  CHECK(with_layerwise.max_cached_shards() == 9);
  CHECK(with_layerwise.with_max_cached_shards(3).value().max_cached_shards() == 3);

  auto zero = NormalizedLoadRequest().with_max_cached_shards(0);
  REQUIRE(!zero);
  CHECK(zero.error().code == Status::ZeroCachedShards);
  CHECK(zero.error().message == "source reader-cache limit must be positive");

  // A zero bound reachable through the residency fails validation first.
  const auto zero_layerwise =
      NormalizedLoadRequest::with_quantization(QuantizationRequest::affine(7, 4))
          .with_weight_residency(
              WeightResidency::layerwise_host(LayerwiseLoadOptions().with_max_cached_shards(0)))
          .with_communication_completion_policy(completion());
  auto validated = zero_layerwise.validate_model_preparation();
  REQUIRE(!validated);
  CHECK(validated.error().code == Status::ZeroCachedShards);
  CHECK(validated.error().message == "source reader-cache limit must be positive");
  // An explicit override repairs it; the quantization is checked next.
  auto repaired = zero_layerwise.with_max_cached_shards(1).value().validate_model_preparation();
  CHECK(repaired.error().code == Status::Quantization);
}

TEST_CASE("quantization lowers through AffineQuantization, group before bits") {
  auto lowered = NormalizedLoadRequest::with_quantization(QuantizationRequest::affine(64, 4))
                     .weight_quantization()
                     .value();
  REQUIRE(lowered.has_value());
  CHECK(*lowered == WeightQuantization(AffineQuantization{64, 4}));
  CHECK(NormalizedLoadRequest::with_quantization(QuantizationRequest::mxfp4())
            .weight_quantization()
            .value() == WeightQuantization(MxFp4Format{}));
  CHECK(NormalizedLoadRequest().weight_quantization().value() == std::nullopt);

  const auto error_of = [](QuantizationRequest quantization) {
    return NormalizedLoadRequest::with_quantization(quantization)
        .validate_model_preparation()
        .error();
  };
  const Error too_wide = error_of(QuantizationRequest::affine(UINT32_MAX, 4));
  CHECK(too_wide.code == Status::Quantization);
  CHECK(too_wide.message == "group_size must fit in i32, got 4294967295");
  const Error group = error_of(QuantizationRequest::affine(48, 7));
  CHECK(group.code == Status::Quantization);
  CHECK(group.message == "group_size must be 16 or a positive multiple of 32, got 48");
  const Error bits = error_of(QuantizationRequest::affine(32, 7));
  CHECK(bits.code == Status::Quantization);
  CHECK(bits.message == "bits must be one of 2, 3, 4, 5, 6, or 8, got 7");
  const Error unknown = error_of(QuantizationRequest::from_kind(9, 64, 4));
  CHECK(unknown.code == Status::Quantization);
  CHECK(unknown.message == "unknown load-time transformation request");

  CHECK(QuantizationRequest::from_kind(0, 64, 4) == QuantizationRequest::affine(64, 4));
  CHECK(QuantizationRequest::from_kind(1, 64, 4) == QuantizationRequest::mxfp4());
  CHECK(QuantizationRequest::from_kind(2147483648u, 64, 4).group_size == 0);
  // The largest i32 group passes the width check and reaches AffineQuantization.
  CHECK(error_of(QuantizationRequest::affine(2147483647u, 4)).message ==
        "group_size must be 16 or a positive multiple of 32, got 2147483647");
}

TEST_CASE("drafting plans map to drafting intent") {
  const NormalizedLoadRequest request;
  CHECK(request.drafting() == DraftingLoadRequest::architecture_default());
  CHECK(
      request.with_drafting_plan(DraftingPlan{DraftingPlanKind::Disabled, 0}).value().drafting() ==
      DraftingLoadRequest::disabled());
  CHECK(request.with_drafting_plan(DraftingPlan{DraftingPlanKind::Embedded, 3})
            .value()
            .drafting()
            .embedded_capacity() == 3u);
  CHECK(
      request.with_drafting_plan(DraftingPlan{DraftingPlanKind::External, 0}).value().drafting() ==
      DraftingLoadRequest::external_target());

  auto zero = request.with_drafting_plan(DraftingPlan{DraftingPlanKind::Embedded, 0});
  CHECK(zero.error().code == Status::ZeroEmbeddedDraftCapacity);
  auto unknown = request.with_drafting_plan(DraftingPlan{static_cast<DraftingPlanKind>(7), 4});
  REQUIRE(!unknown);
  CHECK(unknown.error().code == Status::UnsupportedDraftingPlan);
  CHECK(unknown.error().message == "unsupported speculative drafting plan");
  CHECK(request.with_drafting(DraftingLoadRequest::disabled()).drafting().kind() ==
        DraftingLoadKind::Disabled);
}

TEST_CASE("the preparation residency follows the weight residency") {
  const auto residency_of = [](const WeightResidency& residency) {
    return NormalizedLoadRequest()
        .with_weight_residency(residency)
        .preparation_policy()
        .value()
        .residency();
  };
  CHECK(residency_of(WeightResidency()) == ResidencyRequest::FullyResident);
  CHECK(residency_of(WeightResidency::layerwise_host(LayerwiseLoadOptions())) ==
        ResidencyRequest::LayerwiseHost);
  CHECK(residency_of(WeightResidency::dense_disk_stream(DenseDiskStreamLoadOptions())) ==
        ResidencyRequest::DenseDiskStream);
  const auto banks = WeightResidency::with_independent_parameter_banks(
      OrdinaryWeightResidency::dense_disk_stream(DenseDiskStreamLoadOptions()),
      ParameterBankLoadOptions());
  CHECK(residency_of(banks) == ResidencyRequest::AddressableParameterBanks);
  CHECK(preparation_residency(banks) == ResidencyRequest::AddressableParameterBanks);
}

TEST_CASE("the default request validates into the default policy") {
  const NormalizedLoadRequest request;
  auto validated = request.validate_model_preparation();
  REQUIRE(validated);
  CHECK(&validated.value().request() == &request);
  CHECK(validated.value().preparation_policy() == PreparationPolicy());
  CHECK(PreparationPolicy().quantization() == std::nullopt);
  CHECK(PreparationPolicy().topology() == std::nullopt);
  CHECK(PreparationPolicy().required_session_capabilities() == SessionCapabilities());
  CHECK(request.quantization() == std::nullopt);
  CHECK(!request.has_parallel_execution());
  CHECK(request.parallel_topology() == std::nullopt);
  CHECK(request.pipeline_wire_contract() == std::nullopt);
  CHECK(request.partitioned_invocation_limits() == std::nullopt);
  CHECK(!request.prompt_cache_persistence());
  CHECK(request.with_prompt_cache_persistence(true).prompt_cache_persistence());
  CHECK(request.state_residency().kind() == CacheResidencyKind::Device);
  CHECK(request.with_state_residency(CacheResidencyPolicy(CacheResidencyKind::Paged))
            .state_residency()
            .kind() == CacheResidencyKind::Paged);
  CHECK(request.weight_residency() == WeightResidency::fully_resident());
}

TEST_CASE("session capabilities are a three-bit set") {
  CHECK(SessionCapabilities().bits() == 0);
  CHECK(SessionCapabilities(true, false, false).bits() == 1);
  CHECK(SessionCapabilities(false, true, false).bits() == 2);
  CHECK(SessionCapabilities(false, false, true).bits() == 4);
  CHECK(SessionCapabilities::from_bits(7) == SessionCapabilities(true, true, true));
  CHECK(!SessionCapabilities::from_bits(8).has_value());
}

TEST_CASE("every NormalizedLoadRequestError has its own code") {
  CHECK(load_request_error::zero_cached_shards().code == Status::ZeroCachedShards);
  CHECK(load_request_error::invalid_invocation_limits(0, 0).code ==
        Status::InvalidInvocationLimits);
  CHECK(load_request_error::replicated_parallel_topology().code ==
        Status::ReplicatedParallelTopology);
  CHECK(load_request_error::conflicting_completion_policy().code ==
        Status::ConflictingCompletionPolicy);
  CHECK(load_request_error::orphaned_model_completion().code == Status::OrphanedModelCompletion);
  CHECK(load_request_error::zero_embedded_draft_capacity().code ==
        Status::ZeroEmbeddedDraftCapacity);
  CHECK(load_request_error::unsupported_drafting_plan().code == Status::UnsupportedDraftingPlan);
  const Error completion_error = load_request_error::completion("deadline");
  CHECK(completion_error.code == Status::Completion);
  CHECK(completion_error.message == "deadline");
  const Error quantization_error = load_request_error::quantization("bits");
  CHECK(quantization_error.code == Status::Quantization);
  CHECK(quantization_error.message == "bits");
  CHECK(static_cast<int>(Status::ZeroCachedShards) == 600);
  CHECK(static_cast<int>(Status::Quantization) == 608);
}
