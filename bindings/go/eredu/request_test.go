// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

package eredu

import (
	"errors"
	"reflect"
	"testing"
)

func completion() CommunicationCompletionPolicy {
	return CommunicationCompletionPolicy{TimeoutMillis: 1000, Cancellation: CancellationQuarantineUntilComplete}
}

func parallel(tp, rank uint64, batch, sequence int32) ParallelLoadRequest {
	p := DefaultParallelLoadRequest()
	p.Topology = NewParallelTopology(tp, 1, 1, 1)
	p.Rank = rank
	p.ActivationDtype = ActivationFloat32
	p.MaximumBatchSize, p.MaximumSequenceLength = batch, sequence
	p.Completion = completion()
	return p
}

func newRequest(t *testing.T) *NormalizedLoadRequest {
	t.Helper()
	r, err := NewNormalizedLoadRequest()
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// The seed test parallel_policy_is_atomic_and_exact.
func TestParallelPolicyIsAtomicAndExact(t *testing.T) {
	r, err := NewNormalizedLoadRequestWithQuantization(QuantizationRequest{Kind: QuantizationMXFP4})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	p := parallel(2, 1, 2, 128)
	if err := r.SetParallelExecution(p); err != nil {
		t.Fatal(err)
	}
	if err := r.SetRequiredSessionCapabilities(NewSessionCapabilities(true, false, true)); err != nil {
		t.Fatal(err)
	}
	policy, err := r.ValidateModelPreparation()
	if err != nil {
		t.Fatal(err)
	}
	want := PreparationPolicy{Quantization: &QuantizationRequest{Kind: QuantizationMXFP4},
		Residency: RequestFullyResident, Topology: &ParallelTopology{2, 1, 1, 1},
		RequiredSessionCapabilities: 5}
	if !reflect.DeepEqual(policy, want) {
		t.Errorf("policy = %+v", policy)
	}
	if got, ok, err := r.ParallelExecution(); err != nil || !ok || got != p {
		t.Errorf("ParallelExecution = %+v %v %v", got, ok, err)
	}
	if got, ok, err := r.CommunicationCompletionPolicy(); err != nil || !ok || got != completion() {
		t.Errorf("CommunicationCompletionPolicy = %+v %v %v", got, ok, err)
	}
	if q, ok, err := r.Quantization(); err != nil || !ok || q != (QuantizationRequest{Kind: QuantizationMXFP4}) {
		t.Errorf("Quantization = %+v %v %v", q, ok, err)
	}
}

// The seed tests invalid_parallel_geometry_fails_at_parallel_construction and
// replicated_topology_is_rejected_at_parallel_construction.
func TestInvalidParallelRequests(t *testing.T) {
	r := newRequest(t)
	defer r.Close()
	assertError(t, r.SetParallelExecution(parallel(2, 0, 0, 128)), ErrInvalidInvocationLimits,
		"partitioned invocation limits must be positive, got batch 0 and sequence 128")
	assertError(t, r.SetParallelExecution(parallel(2, 0, 1, -1)), ErrInvalidInvocationLimits,
		"partitioned invocation limits must be positive, got batch 1 and sequence -1")
	assertError(t, r.SetParallelExecution(parallel(1, 0, 1, 128)), ErrReplicatedParallelTopology,
		"explicit parallel execution requires a non-replicated topology")
	assertError(t, r.SetParallelExecution(parallel(2, 2, 1, 128)), ErrRankOutOfRange,
		"rank 2 is outside world size 2")
	if _, ok, err := r.ParallelExecution(); err != nil || ok {
		t.Errorf("a failed call attached a parallel request: %v %v", ok, err)
	}
}

// The seed tests local_completion_cannot_be_reinterpreted_as_parallel_completion
// and local_realtime_completion_does_not_become_valid_model_communication.
func TestLocalCompletionPolicy(t *testing.T) {
	r := newRequest(t)
	defer r.Close()
	if err := r.SetCommunicationCompletionPolicy(completion()); err != nil {
		t.Fatal(err)
	}
	assertError(t, r.SetParallelExecution(parallel(2, 0, 1, 128)), ErrConflictingCompletionPolicy,
		"parallel execution cannot replace an existing local completion policy")
	if got, err := r.RealtimeCompletionPolicy(); err != nil || got != completion() {
		t.Errorf("RealtimeCompletionPolicy = %+v, %v", got, err)
	}
	_, err := r.ValidateModelPreparation()
	assertError(t, err, ErrOrphanedModelCompletion, "a communication completion policy requires a parallel topology")
	assertError(t, CommunicationCompletionPolicy{}.Validate(), ErrInvalidCompletionPolicy,
		"communication completion policy must have a positive millisecond deadline")
	if err := completion().Validate(); err != nil {
		t.Error(err)
	}
}

// The seed test embedded_drafting_capacity_is_positive_by_construction, and the
// request's other settings.
func TestRequestSettings(t *testing.T) {
	r := newRequest(t)
	defer r.Close()
	if d, err := r.Drafting(); err != nil || d != (DraftingLoadRequest{Kind: DraftingArchitectureDefault}) {
		t.Errorf("default Drafting = %+v, %v", d, err)
	}
	assertError(t, r.SetDrafting(DraftingLoadRequest{Kind: DraftingEmbedded}), ErrZeroEmbeddedDraftCapacity,
		"embedded draft capacity must be positive")
	if err := r.SetDrafting(DraftingLoadRequest{Kind: DraftingEmbedded, MaxDraftTokens: 4}); err != nil {
		t.Fatal(err)
	}
	if d, err := r.Drafting(); err != nil || d.MaxDraftTokens != 4 || d.Kind != DraftingEmbedded {
		t.Errorf("Drafting = %+v, %v", d, err)
	}
	assertError(t, r.SetDraftingPlan(DraftingPlan{Kind: 7}), ErrUnsupportedDraftingPlan,
		"unsupported speculative drafting plan")
	if err := r.SetDraftingPlan(DraftingPlan{Kind: DraftingPlanExternal}); err != nil {
		t.Fatal(err)
	}
	if d, err := r.Drafting(); err != nil || d.Kind != DraftingExternalTarget {
		t.Errorf("Drafting after plan = %+v, %v", d, err)
	}

	if n, err := r.MaxCachedShards(); err != nil || n != DefaultMaxCachedShards {
		t.Errorf("MaxCachedShards = %d, %v", n, err)
	}
	assertError(t, r.SetMaxCachedShards(0), ErrZeroCachedShards, "source reader-cache limit must be positive")
	if err := r.SetMaxCachedShards(9); err != nil {
		t.Fatal(err)
	}
	if n, err := r.MaxCachedShards(); err != nil || n != 9 {
		t.Errorf("MaxCachedShards = %d, %v", n, err)
	}
	if err := r.SetStateResidency(CacheResidencyPaged); err != nil {
		t.Fatal(err)
	}
	if s, err := r.StateResidency(); err != nil || s != CacheResidencyPaged {
		t.Errorf("StateResidency = %v, %v", s, err)
	}
	if err := r.SetPromptCachePersistence(true); err != nil {
		t.Fatal(err)
	}
	if b, err := r.PromptCachePersistence(); err != nil || !b {
		t.Errorf("PromptCachePersistence = %v, %v", b, err)
	}
	if err := r.SetRequiredSessionCapabilities(8); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("capability bit 3: %v", err)
	}
	if c, err := r.RequiredSessionCapabilities(); err != nil || c != 0 {
		t.Errorf("RequiredSessionCapabilities = %v, %v", c, err)
	}
	dense := DefaultDenseDiskStreamLoadOptions()
	if err := r.SetWeightResidency(DenseDiskStream(dense)); err != nil {
		t.Fatal(err)
	}
	if s, err := r.WeightResidency(8); err != nil || s.ExecutionResidency != ExecutionDenseDiskStream || s.DeviceDepth != 2 {
		t.Errorf("WeightResidency = %+v, %v", s, err)
	}
	policy, err := r.ValidateModelPreparation()
	if err != nil || policy.Residency != RequestDenseDiskStream || policy.Topology != nil || policy.Quantization != nil {
		t.Errorf("policy = %+v, %v", policy, err)
	}

	bad, err := NewNormalizedLoadRequestWithQuantization(QuantizationRequest{Kind: QuantizationAffine, GroupSize: 64, Bits: 7})
	if err != nil {
		t.Fatal(err)
	}
	defer bad.Close()
	_, err = bad.ValidateModelPreparation()
	assertError(t, err, ErrQuantization, "bits must be one of 2, 3, 4, 5, 6, or 8, got 7")
	r.Close()
	if err := r.SetMaxCachedShards(1); !errors.Is(err, ErrClosed) {
		t.Errorf("closed request: %v", err)
	}
}
