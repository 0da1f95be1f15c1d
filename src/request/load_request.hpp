// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Seed `NormalizedLoadRequest`: one backend-neutral request for cold model
// preparation, its cross-field rules (docs/residency.md, "Load requests") and
// its projection into core's PreparationPolicy.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>

#include "core/result.hpp"
#include "format/linear_format.hpp"
#include "request/cache_residency.hpp"
#include "request/completion.hpp"
#include "request/drafting.hpp"
#include "request/parallel_request.hpp"
#include "request/preparation.hpp"
#include "request/wire.hpp"
#include "residency/weight_residency.hpp"
#include "topology/topology.hpp"

namespace eredu {

/// The portable residency a weight residency asks a preparation for:
/// AddressableParameterBanks with an independent parameter-bank cache, else
/// FullyResident / LayerwiseHost / DenseDiskStream after its ordinary
/// layers.
ResidencyRequest preparation_residency(const WeightResidency& residency);

class ValidatedModelLoadRequest;

/// The builders return a new request and leave this one unchanged, so a
/// failed call changes nothing. Immutable value apart from
/// set_communication_completion_policy; not synchronized.
class NormalizedLoadRequest {
 public:
  /// No quantization, no cache override, no parallel execution, no local
  /// completion, fully resident weights, Device state, no required session
  /// capabilities, no prompt-cache persistence, ArchitectureDefault drafting.
  NormalizedLoadRequest() = default;

  /// Seed constructor: the default request quantizing eligible dense
  /// weights on load. The request is lowered (and may fail) on validation.
  static NormalizedLoadRequest with_quantization(QuantizationRequest quantization);

  NormalizedLoadRequest with_prompt_cache_persistence(bool required) const;
  bool prompt_cache_persistence() const { return prompt_cache_persistence_; }

  /// The exact reader-cache bound, overriding the weight residency's. The
  /// seed takes a NonZeroUsize; here 0 is ZeroCachedShards (600).
  Result<NormalizedLoadRequest> with_max_cached_shards(std::uint64_t maximum) const;
  /// The explicit override, else weight_residency().max_cached_shards()
  /// (which may be 0 through the residency's options).
  std::uint64_t max_cached_shards() const;

  /// Errors: ConflictingCompletionPolicy (603) when a local completion
  /// policy was set before.
  Result<NormalizedLoadRequest> with_parallel_execution(const ParallelLoadRequest& parallel) const;

  NormalizedLoadRequest with_communication_completion_policy(
      CommunicationCompletionPolicy policy) const;
  /// Writes into the parallel request when one is attached, else into the
  /// local slot.
  void set_communication_completion_policy(CommunicationCompletionPolicy policy);

  NormalizedLoadRequest with_weight_residency(const WeightResidency& residency) const;
  NormalizedLoadRequest with_state_residency(CacheResidencyPolicy residency) const;
  NormalizedLoadRequest with_required_session_capabilities(SessionCapabilities capabilities) const;
  NormalizedLoadRequest with_drafting(DraftingLoadRequest drafting) const;
  /// Disabled -> Disabled; Embedded{n} -> embedded(n) (n = 0:
  /// ZeroEmbeddedDraftCapacity, 605); External -> ExternalTarget; any other
  /// kind -> UnsupportedDraftingPlan (606).
  Result<NormalizedLoadRequest> with_drafting_plan(const DraftingPlan& plan) const;

  std::optional<QuantizationRequest> quantization() const { return quantization_; }
  const std::optional<ParallelLoadRequest>& parallel_execution() const { return parallel_; }
  std::optional<ParallelRankTopology> parallel_topology() const;
  std::optional<PipelineWireContract> pipeline_wire_contract() const;
  bool has_parallel_execution() const { return parallel_.has_value(); }
  /// (maximum batch size, maximum sequence length) of the parallel request.
  std::optional<std::pair<std::int32_t, std::int32_t>> partitioned_invocation_limits() const;

  /// The parallel request's policy; none without parallel execution. Errors:
  /// OrphanedModelCompletion (604) for a local policy without parallel
  /// execution; ConflictingCompletionPolicy (603) for both (unreachable
  /// through the builders).
  Result<std::optional<CommunicationCompletionPolicy>> communication_completion_policy() const;
  /// The parallel request's policy, else the local one, else 30000 ms
  /// QuarantineUntilComplete. Errors: Completion (607) if that default could
  /// not be built (unreachable: its deadline is positive).
  Result<CommunicationCompletionPolicy> realtime_completion_policy() const;

  const WeightResidency& weight_residency() const { return weight_residency_; }
  const CacheResidencyPolicy& state_residency() const { return state_residency_; }
  SessionCapabilities required_session_capabilities() const { return capabilities_; }
  DraftingLoadRequest drafting() const { return drafting_; }

  /// The requested transformation in checkpoint vocabulary: Affine lowers
  /// through AffineQuantization::create (group before bits), MxFp4 to MxFp4.
  /// Errors, all Quantization (608): `group_size must fit in i32, got G`;
  /// the AffineQuantization message; `unknown load-time transformation
  /// request` for a kind outside QuantizationKind.
  Result<std::optional<WeightQuantization>> weight_quantization() const;

  /// Checks in order: max_cached_shards() == 0 -> ZeroCachedShards (600);
  /// weight_quantization() errors (608); communication_completion_policy()
  /// errors (604, 603). Then projects the PreparationPolicy. The result
  /// refers to this request and must not outlive it.
  Result<ValidatedModelLoadRequest> validate_model_preparation() const;
  /// validate_model_preparation()'s policy.
  Result<PreparationPolicy> preparation_policy() const;

  friend bool operator==(const NormalizedLoadRequest&, const NormalizedLoadRequest&) = default;

 private:
  PreparationPolicy project_preparation_policy() const;

  std::optional<QuantizationRequest> quantization_;
  std::optional<std::uint64_t> max_cached_shards_;  // never 0
  std::optional<ParallelLoadRequest> parallel_;
  std::optional<CommunicationCompletionPolicy> communication_completion_;
  WeightResidency weight_residency_;
  CacheResidencyPolicy state_residency_;
  SessionCapabilities capabilities_;
  bool prompt_cache_persistence_ = false;
  DraftingLoadRequest drafting_;
};

/// Seed `ValidatedModelLoadRequest`: a request whose cross-field rules were
/// checked once, with the policy projected then. Refers to its request.
class ValidatedModelLoadRequest {
 public:
  PreparationPolicy preparation_policy() const { return policy_; }
  const NormalizedLoadRequest& request() const { return *request_; }

 private:
  friend class NormalizedLoadRequest;
  ValidatedModelLoadRequest(const NormalizedLoadRequest& request, PreparationPolicy policy)
      : request_(&request), policy_(std::move(policy)) {}

  const NormalizedLoadRequest* request_;
  PreparationPolicy policy_;
};

}  // namespace eredu
