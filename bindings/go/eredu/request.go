// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

package eredu

/*
#include <eredu/eredu.h>
*/
import "C"

import "runtime"

// CompletionCancellationMode is how a backend handles overdue work (seed
// CompletionCancellationMode; EREDU_CANCELLATION_*).
type CompletionCancellationMode uint32

// CompletionCancellationMode values.
const (
	CancellationNativeCancel            CompletionCancellationMode = C.EREDU_CANCELLATION_NATIVE_CANCEL
	CancellationQuarantineUntilComplete CompletionCancellationMode = C.EREDU_CANCELLATION_QUARANTINE_UNTIL_COMPLETE
)

// CommunicationCompletionPolicy is a bounded completion deadline (seed
// CommunicationCompletionPolicy, in whole milliseconds).
type CommunicationCompletionPolicy struct {
	TimeoutMillis uint64
	Cancellation  CompletionCancellationMode
}

// Validate checks the policy (eredu_completion_policy_validate):
// ErrInvalidCompletionPolicy for a 0 ms deadline, ErrInvalidArgument for an
// unknown cancellation mode.
func (p CommunicationCompletionPolicy) Validate() error {
	if err := checkVersion(); err != nil {
		return err
	}
	var cerr *C.eredu_error
	status := C.eredu_completion_policy_validate(C.uint64_t(p.TimeoutMillis),
		C.eredu_cancellation_mode(p.Cancellation), &cerr)
	return takeError(status, cerr)
}

// PipelineActivationDtype is the pipeline activation wire type (seed
// PipelineActivationDtype; EREDU_ACTIVATION_DTYPE_*).
type PipelineActivationDtype uint32

// PipelineActivationDtype values.
const (
	ActivationFloat16  PipelineActivationDtype = C.EREDU_ACTIVATION_DTYPE_FLOAT16
	ActivationBFloat16 PipelineActivationDtype = C.EREDU_ACTIVATION_DTYPE_BFLOAT16
	ActivationFloat32  PipelineActivationDtype = C.EREDU_ACTIVATION_DTYPE_FLOAT32
)

// ParallelLoadRequest is one complete parallel-execution request (seed
// ParallelLoadRequest: rank topology, wire contract, invocation limits and
// completion policy). DefaultParallelLoadRequest gives the C defaults.
type ParallelLoadRequest struct {
	Topology              ParallelTopology
	Rank                  uint64
	ActivationDtype       PipelineActivationDtype
	MaximumBatchSize      int32
	MaximumSequenceLength int32
	Completion            CommunicationCompletionPolicy
}

// DefaultParallelLoadRequest returns eredu_parallel_load_desc_init's values
// with eredu_topology_init's sizes: sizes 1, rank 0, Float32, limits 0 (to
// be set), 30000 ms quarantine-until-complete.
func DefaultParallelLoadRequest() ParallelLoadRequest {
	if checkVersion() != nil {
		return ParallelLoadRequest{}
	}
	var d C.eredu_parallel_load_desc
	C.eredu_parallel_load_desc_init(&d, C.sizeof_eredu_parallel_load_desc, nil)
	return parallelFromC(&d)
}

// parallelFromC copies a parallel request; a NULL topology (the
// descriptor's default) reads as eredu_topology_init's.
func parallelFromC(d *C.eredu_parallel_load_desc) ParallelLoadRequest {
	var topology ParallelTopology
	if d.topology != nil {
		topology = topologyFromC(d.topology)
	} else {
		var t C.eredu_topology
		C.eredu_topology_init(&t, C.sizeof_eredu_topology, nil)
		topology = topologyFromC(&t)
	}
	return ParallelLoadRequest{
		Topology:              topology,
		Rank:                  uint64(d.rank),
		ActivationDtype:       PipelineActivationDtype(d.activation_dtype),
		MaximumBatchSize:      int32(d.maximum_batch_size),
		MaximumSequenceLength: int32(d.maximum_sequence_length),
		Completion: CommunicationCompletionPolicy{uint64(d.completion_timeout_millis),
			CompletionCancellationMode(d.completion_cancellation)},
	}
}

// QuantizationKind selects a load-time quantization (seed
// QuantizationRequest variants; EREDU_QUANTIZATION_*).
type QuantizationKind uint32

// QuantizationKind values.
const (
	QuantizationAffine QuantizationKind = C.EREDU_QUANTIZATION_AFFINE
	QuantizationMXFP4  QuantizationKind = C.EREDU_QUANTIZATION_MXFP4
)

// QuantizationRequest is a load-time quantization (seed
// QuantizationRequest); GroupSize and Bits are for Affine only.
type QuantizationRequest struct {
	Kind      QuantizationKind
	GroupSize uint32
	Bits      uint8
}

// DraftingPlanKind is a portable execution plan's drafting mode (seed
// DraftingPlan; EREDU_DRAFTING_PLAN_*).
type DraftingPlanKind uint32

// DraftingPlanKind values.
const (
	DraftingPlanDisabled DraftingPlanKind = C.EREDU_DRAFTING_PLAN_DISABLED
	DraftingPlanEmbedded DraftingPlanKind = C.EREDU_DRAFTING_PLAN_EMBEDDED
	DraftingPlanExternal DraftingPlanKind = C.EREDU_DRAFTING_PLAN_EXTERNAL
)

// DraftingPlan is the drafting part of an execution plan (seed
// DraftingPlan); MaxDraftTokens is for Embedded only.
type DraftingPlan struct {
	Kind           DraftingPlanKind
	MaxDraftTokens uint64
}

// DraftingKind is a load-time drafting intent (seed DraftingLoadRequest;
// EREDU_DRAFTING_*).
type DraftingKind uint32

// DraftingKind values.
const (
	DraftingArchitectureDefault DraftingKind = C.EREDU_DRAFTING_ARCHITECTURE_DEFAULT
	DraftingDisabled            DraftingKind = C.EREDU_DRAFTING_DISABLED
	DraftingEmbedded            DraftingKind = C.EREDU_DRAFTING_EMBEDDED
	DraftingExternalTarget      DraftingKind = C.EREDU_DRAFTING_EXTERNAL_TARGET
)

// DraftingLoadRequest is a drafting intent (seed DraftingLoadRequest);
// MaxDraftTokens is the embedded capacity (0 for the other kinds).
type DraftingLoadRequest struct {
	Kind           DraftingKind
	MaxDraftTokens uint64
}

// CacheResidencyPolicy is the mutable-state residency (seed
// CacheResidencyPolicy kinds; EREDU_CACHE_RESIDENCY_*).
type CacheResidencyPolicy uint32

// CacheResidencyPolicy values.
const (
	CacheResidencyDevice CacheResidencyPolicy = C.EREDU_CACHE_RESIDENCY_DEVICE
	CacheResidencyPaged  CacheResidencyPolicy = C.EREDU_CACHE_RESIDENCY_PAGED
)

// SessionCapabilities is a set of required session capabilities: bit i is
// the seed's i-th positional boolean of SessionCapabilities::new.
type SessionCapabilities uint32

// SessionCapabilitiesMask holds every defined bit.
const SessionCapabilitiesMask SessionCapabilities = C.EREDU_SESSION_CAPABILITIES_MASK

// NewSessionCapabilities mirrors the seed's SessionCapabilities::new(a, b, c).
func NewSessionCapabilities(first, second, third bool) SessionCapabilities {
	var c SessionCapabilities
	for i, b := range []bool{first, second, third} {
		if b {
			c |= 1 << i
		}
	}
	return c
}

// PreparationPolicy is the portable policy of a validated request (seed
// PreparationPolicy).
type PreparationPolicy struct {
	// Quantization is nil when the request does not quantize on load.
	Quantization *QuantizationRequest
	Residency    ResidencyRequest
	// Topology is nil without parallel execution.
	Topology                    *ParallelTopology
	RequiredSessionCapabilities SessionCapabilities
}

// NormalizedLoadRequest is the seed's normalized cold-load request, owning
// an eredu_load_request. Its Set* methods mirror the seed's with_* methods
// and apply in place, atomically (a failed call changes nothing). It is a
// single-threaded object: a Set* call must not overlap any other call on
// the same request. Close releases it.
type NormalizedLoadRequest struct {
	ptr *C.eredu_load_request
}

// NewNormalizedLoadRequest returns the seed's NormalizedLoadRequest::default().
func NewNormalizedLoadRequest() (*NormalizedLoadRequest, error) {
	return newLoadRequest(nil)
}

// NewNormalizedLoadRequestWithQuantization mirrors the seed's
// NormalizedLoadRequest::with_quantization; the quantization is checked by
// ValidateModelPreparation.
func NewNormalizedLoadRequestWithQuantization(q QuantizationRequest) (*NormalizedLoadRequest, error) {
	return newLoadRequest(&q)
}

func newLoadRequest(q *QuantizationRequest) (*NormalizedLoadRequest, error) {
	if err := checkVersion(); err != nil {
		return nil, err
	}
	var mem cMemory
	defer mem.free()
	var cq *C.eredu_quantization_request
	if q != nil {
		p, err := mem.alloc(C.sizeof_eredu_quantization_request)
		if err != nil {
			return nil, err
		}
		cq = (*C.eredu_quantization_request)(p)
		C.eredu_quantization_request_init(cq, C.sizeof_eredu_quantization_request, nil)
		cq.kind = C.eredu_quantization_kind(q.Kind)
		cq.group_size = C.uint32_t(q.GroupSize)
		cq.bits = C.uint8_t(q.Bits)
	}
	var out *C.eredu_load_request
	var cerr *C.eredu_error
	if err := takeError(C.eredu_load_request_new(cq, &out, &cerr), cerr); err != nil {
		return nil, err
	}
	r := &NormalizedLoadRequest{ptr: out}
	runtime.SetFinalizer(r, (*NormalizedLoadRequest).Close)
	return r, nil
}

// Close releases the request. Idempotent; always returns nil.
func (r *NormalizedLoadRequest) Close() error {
	if r == nil || r.ptr == nil {
		return nil
	}
	runtime.SetFinalizer(r, nil)
	C.eredu_load_request_free(r.ptr)
	r.ptr = nil
	return nil
}

func (r *NormalizedLoadRequest) handle() (*C.eredu_load_request, error) {
	if r == nil || r.ptr == nil {
		return nil, closedError("NormalizedLoadRequest")
	}
	return r.ptr, nil
}

// SetParallelExecution attaches a parallel request (seed
// ParallelLoadRequest::new, then with_parallel_execution). Errors, in
// order: ErrInvalidArgument; ErrZeroAxis, ErrWorldSizeOverflow,
// ErrRankOutOfRange; ErrInvalidCompletionPolicy;
// ErrReplicatedParallelTopology; ErrInvalidInvocationLimits;
// ErrConflictingCompletionPolicy (a local completion policy was set first).
func (r *NormalizedLoadRequest) SetParallelExecution(p ParallelLoadRequest) error {
	h, err := r.handle()
	if err != nil {
		return err
	}
	var mem cMemory
	defer mem.free()
	q, err := mem.alloc(C.sizeof_eredu_parallel_load_desc)
	if err != nil {
		return err
	}
	d := (*C.eredu_parallel_load_desc)(q)
	C.eredu_parallel_load_desc_init(d, C.sizeof_eredu_parallel_load_desc, nil)
	if d.topology, err = mem.topology(p.Topology); err != nil {
		return err
	}
	d.rank = C.uint64_t(p.Rank)
	d.activation_dtype = C.eredu_activation_dtype(p.ActivationDtype)
	d.maximum_batch_size = C.int32_t(p.MaximumBatchSize)
	d.maximum_sequence_length = C.int32_t(p.MaximumSequenceLength)
	d.completion_timeout_millis = C.uint64_t(p.Completion.TimeoutMillis)
	d.completion_cancellation = C.eredu_cancellation_mode(p.Completion.Cancellation)
	var cerr *C.eredu_error
	status := C.eredu_load_request_set_parallel_execution(h, d, &cerr)
	runtime.KeepAlive(r)
	return takeError(status, cerr)
}

// SetCommunicationCompletionPolicy sets the completion policy: into the
// parallel request when one is attached, else the local slot (seed
// set_communication_completion_policy / with_communication_completion_policy).
func (r *NormalizedLoadRequest) SetCommunicationCompletionPolicy(p CommunicationCompletionPolicy) error {
	h, err := r.handle()
	if err != nil {
		return err
	}
	var cerr *C.eredu_error
	status := C.eredu_load_request_set_communication_completion_policy(h, C.uint64_t(p.TimeoutMillis),
		C.eredu_cancellation_mode(p.Cancellation), &cerr)
	runtime.KeepAlive(r)
	return takeError(status, cerr)
}

// SetDraftingPlan applies an execution plan's drafting mode (seed
// with_drafting_plan): ErrUnsupportedDraftingPlan,
// ErrZeroEmbeddedDraftCapacity.
func (r *NormalizedLoadRequest) SetDraftingPlan(p DraftingPlan) error {
	h, err := r.handle()
	if err != nil {
		return err
	}
	var mem cMemory
	defer mem.free()
	q, err := mem.alloc(C.sizeof_eredu_drafting_plan)
	if err != nil {
		return err
	}
	d := (*C.eredu_drafting_plan)(q)
	C.eredu_drafting_plan_init(d, C.sizeof_eredu_drafting_plan, nil)
	d.kind = C.eredu_drafting_plan_kind(p.Kind)
	d.max_draft_tokens = C.uint64_t(p.MaxDraftTokens)
	var cerr *C.eredu_error
	status := C.eredu_load_request_set_drafting_plan(h, d, &cerr)
	runtime.KeepAlive(r)
	return takeError(status, cerr)
}

// SetDrafting sets the drafting intent (seed with_drafting,
// DraftingLoadRequest::embedded): ErrZeroEmbeddedDraftCapacity for
// Embedded with 0 tokens.
func (r *NormalizedLoadRequest) SetDrafting(d DraftingLoadRequest) error {
	h, err := r.handle()
	if err != nil {
		return err
	}
	var cerr *C.eredu_error
	status := C.eredu_load_request_set_drafting(h, C.eredu_drafting_kind(d.Kind),
		C.uint64_t(d.MaxDraftTokens), &cerr)
	runtime.KeepAlive(r)
	return takeError(status, cerr)
}

// SetMaxCachedShards overrides the reader-cache bound (seed
// with_max_cached_shards): ErrZeroCachedShards for 0.
func (r *NormalizedLoadRequest) SetMaxCachedShards(maximum uint64) error {
	h, err := r.handle()
	if err != nil {
		return err
	}
	var cerr *C.eredu_error
	status := C.eredu_load_request_set_max_cached_shards(h, C.uint64_t(maximum), &cerr)
	runtime.KeepAlive(r)
	return takeError(status, cerr)
}

// SetWeightResidency selects the weight residency (seed
// with_weight_residency), with WeightResidency.Validate's checks.
func (r *NormalizedLoadRequest) SetWeightResidency(w WeightResidency) error {
	h, err := r.handle()
	if err != nil {
		return err
	}
	var mem cMemory
	defer mem.free()
	desc, err := mem.weightResidency(w)
	if err != nil {
		return err
	}
	var cerr *C.eredu_error
	status := C.eredu_load_request_set_weight_residency(h, desc, &cerr)
	runtime.KeepAlive(r)
	return takeError(status, cerr)
}

// SetRequiredSessionCapabilities requires capabilities (seed
// with_required_session_capabilities): ErrInvalidArgument for a bit outside
// SessionCapabilitiesMask.
func (r *NormalizedLoadRequest) SetRequiredSessionCapabilities(c SessionCapabilities) error {
	h, err := r.handle()
	if err != nil {
		return err
	}
	var cerr *C.eredu_error
	status := C.eredu_load_request_set_required_session_capabilities(h, C.uint32_t(c), &cerr)
	runtime.KeepAlive(r)
	return takeError(status, cerr)
}

// SetStateResidency selects the mutable-state residency (seed
// with_state_residency).
func (r *NormalizedLoadRequest) SetStateResidency(p CacheResidencyPolicy) error {
	h, err := r.handle()
	if err != nil {
		return err
	}
	var cerr *C.eredu_error
	status := C.eredu_load_request_set_state_residency(h, C.eredu_cache_residency(p), &cerr)
	runtime.KeepAlive(r)
	return takeError(status, cerr)
}

// SetPromptCachePersistence requires persisted prompt-prefix import/export
// or not (seed with_prompt_cache_persistence).
func (r *NormalizedLoadRequest) SetPromptCachePersistence(required bool) error {
	h, err := r.handle()
	if err != nil {
		return err
	}
	var cerr *C.eredu_error
	status := C.eredu_load_request_set_prompt_cache_persistence(h, cbool(required), &cerr)
	runtime.KeepAlive(r)
	return takeError(status, cerr)
}

// LoadRequestInfo holds the plain fields of a request
// (eredu_load_request_info).
type LoadRequestInfo struct {
	// MaxCachedShards is the reader-cache bound: the explicit override,
	// else the weight residency's (seed max_cached_shards).
	MaxCachedShards             uint64
	RequiredSessionCapabilities SessionCapabilities
	StateResidency              CacheResidencyPolicy
	PromptCachePersistence      bool
	Drafting                    DraftingLoadRequest
	// RealtimeCompletionPolicy is the parallel request's, else the local
	// one, else 30000 ms quarantine-until-complete (seed
	// realtime_completion_policy).
	RealtimeCompletionPolicy CommunicationCompletionPolicy
	// HasQuantization and HasParallelExecution say whether Quantization and
	// ParallelExecution have a value.
	HasQuantization      bool
	HasParallelExecution bool
}

// Info returns the request's plain fields in one call
// (eredu_load_request_get_info).
func (r *NormalizedLoadRequest) Info() (LoadRequestInfo, error) {
	h, err := r.handle()
	if err != nil {
		return LoadRequestInfo{}, err
	}
	i := C.eredu_load_request_info{struct_size: C.sizeof_eredu_load_request_info}
	var cerr *C.eredu_error
	status := C.eredu_load_request_get_info(h, &i, &cerr)
	runtime.KeepAlive(r)
	if err := takeError(status, cerr); err != nil {
		return LoadRequestInfo{}, err
	}
	return LoadRequestInfo{
		MaxCachedShards:             uint64(i.max_cached_shards),
		RequiredSessionCapabilities: SessionCapabilities(i.required_session_capabilities),
		StateResidency:              CacheResidencyPolicy(i.state_residency),
		PromptCachePersistence:      i.prompt_cache_persistence != 0,
		Drafting:                    DraftingLoadRequest{DraftingKind(i.drafting), uint64(i.max_draft_tokens)},
		RealtimeCompletionPolicy: CommunicationCompletionPolicy{uint64(i.realtime_completion_timeout_millis),
			CompletionCancellationMode(i.realtime_completion_cancellation)},
		HasQuantization:      i.has_quantization != 0,
		HasParallelExecution: i.has_parallel_execution != 0,
	}, nil
}

// MaxCachedShards returns the reader-cache bound (seed max_cached_shards;
// Info().MaxCachedShards).
func (r *NormalizedLoadRequest) MaxCachedShards() (uint64, error) {
	i, err := r.Info()
	return i.MaxCachedShards, err
}

// Quantization returns the requested quantization as given; ok is false
// without one (seed quantization).
func (r *NormalizedLoadRequest) Quantization() (q QuantizationRequest, ok bool, err error) {
	h, err := r.handle()
	if err != nil {
		return QuantizationRequest{}, false, err
	}
	cq := C.eredu_quantization_request{struct_size: C.sizeof_eredu_quantization_request}
	var present C.bool
	var cerr *C.eredu_error
	status := C.eredu_load_request_quantization(h, &cq, &present, &cerr)
	runtime.KeepAlive(r)
	return QuantizationRequest{QuantizationKind(cq.kind), uint32(cq.group_size), uint8(cq.bits)},
		bool(present), takeError(status, cerr)
}

// ParallelExecution returns the attached parallel request; ok is false
// without one (seed parallel_execution).
func (r *NormalizedLoadRequest) ParallelExecution() (p ParallelLoadRequest, ok bool, err error) {
	h, err := r.handle()
	if err != nil {
		return ParallelLoadRequest{}, false, err
	}
	d := C.eredu_parallel_load_desc{struct_size: C.sizeof_eredu_parallel_load_desc}
	var present C.bool
	var cerr *C.eredu_error
	status := C.eredu_load_request_parallel_execution(h, &d, &present, &cerr)
	if status == C.EREDU_OK && bool(present) {
		p, ok = parallelFromC(&d), true // copies the borrowed topology
	}
	runtime.KeepAlive(r)
	if err := takeError(status, cerr); err != nil {
		return ParallelLoadRequest{}, false, err
	}
	return p, ok, nil
}

// CommunicationCompletionPolicy returns the model-preparation completion
// policy; ok is false without parallel execution. ErrOrphanedModelCompletion
// for a local policy without parallel execution.
func (r *NormalizedLoadRequest) CommunicationCompletionPolicy() (p CommunicationCompletionPolicy, ok bool, err error) {
	h, err := r.handle()
	if err != nil {
		return CommunicationCompletionPolicy{}, false, err
	}
	var ms C.uint64_t
	var mode C.eredu_cancellation_mode
	var present C.bool
	var cerr *C.eredu_error
	status := C.eredu_load_request_communication_completion_policy(h, &ms, &mode, &present, &cerr)
	runtime.KeepAlive(r)
	return CommunicationCompletionPolicy{uint64(ms), CompletionCancellationMode(mode)}, bool(present),
		takeError(status, cerr)
}

// RealtimeCompletionPolicy returns the realtime completion policy: the
// parallel request's, else the local one, else 30000 ms
// quarantine-until-complete (seed realtime_completion_policy;
// Info().RealtimeCompletionPolicy).
func (r *NormalizedLoadRequest) RealtimeCompletionPolicy() (CommunicationCompletionPolicy, error) {
	i, err := r.Info()
	return i.RealtimeCompletionPolicy, err
}

// Drafting returns the drafting intent (seed drafting; Info().Drafting).
func (r *NormalizedLoadRequest) Drafting() (DraftingLoadRequest, error) {
	i, err := r.Info()
	return i.Drafting, err
}

// WeightResidency summarizes the weight residency for unitCount ordinary
// units, as WeightResidency.Validate does (seed weight_residency).
func (r *NormalizedLoadRequest) WeightResidency(unitCount uint64) (ResidencySummary, error) {
	h, err := r.handle()
	if err != nil {
		return ResidencySummary{}, err
	}
	s := C.eredu_residency_summary{struct_size: C.sizeof_eredu_residency_summary}
	var cerr *C.eredu_error
	status := C.eredu_load_request_weight_residency(h, C.uint64_t(unitCount), &s, &cerr)
	runtime.KeepAlive(r)
	if err := takeError(status, cerr); err != nil {
		return ResidencySummary{}, err
	}
	return summaryFromC(&s), nil
}

// RequiredSessionCapabilities returns the required capabilities
// (Info().RequiredSessionCapabilities).
func (r *NormalizedLoadRequest) RequiredSessionCapabilities() (SessionCapabilities, error) {
	i, err := r.Info()
	return i.RequiredSessionCapabilities, err
}

// StateResidency returns the mutable-state residency
// (Info().StateResidency).
func (r *NormalizedLoadRequest) StateResidency() (CacheResidencyPolicy, error) {
	i, err := r.Info()
	return i.StateResidency, err
}

// PromptCachePersistence reports whether prompt-prefix persistence is
// required (Info().PromptCachePersistence).
func (r *NormalizedLoadRequest) PromptCachePersistence() (bool, error) {
	i, err := r.Info()
	return i.PromptCachePersistence, err
}

// ValidateModelPreparation validates the request and returns its portable
// preparation policy (seed validate_model_preparation, preparation_policy).
// Errors, in order: ErrZeroCachedShards; ErrQuantization;
// ErrOrphanedModelCompletion.
func (r *NormalizedLoadRequest) ValidateModelPreparation() (PreparationPolicy, error) {
	h, err := r.handle()
	if err != nil {
		return PreparationPolicy{}, err
	}
	p := C.eredu_preparation_policy{struct_size: C.sizeof_eredu_preparation_policy}
	var cerr *C.eredu_error
	status := C.eredu_load_request_validate_model_preparation(h, &p, &cerr)
	var topology *ParallelTopology
	if status == C.EREDU_OK && p.topology != nil {
		t := topologyFromC(p.topology) // a copy of the request's
		topology = &t
	}
	runtime.KeepAlive(r)
	if err := takeError(status, cerr); err != nil {
		return PreparationPolicy{}, err
	}
	out := PreparationPolicy{Residency: ResidencyRequest(p.residency), Topology: topology,
		RequiredSessionCapabilities: SessionCapabilities(p.required_session_capabilities)}
	if p.has_quantization != 0 {
		out.Quantization = &QuantizationRequest{QuantizationKind(p.quantization_kind),
			uint32(p.quantization_group_size), uint8(p.quantization_bits)}
	}
	return out, nil
}
