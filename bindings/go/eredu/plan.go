// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

package eredu

/*
#include <eredu/eredu.h>
*/
import "C"

import "runtime"

// ParallelTopology holds the axis sizes of a tensor x pipeline x expert x
// data parallel world (seed ParallelTopology; argument order T, P, E, D;
// eredu_topology). The library validates it when planning: a zero size is
// ErrZeroAxis, a product above 64 bits ErrWorldSizeOverflow.
type ParallelTopology struct {
	Tensor, Pipeline, Expert, Data uint64
}

// NewParallelTopology mirrors the seed's ParallelTopology::new(tensor,
// pipeline, expert, data); validation happens in the library.
func NewParallelTopology(tensor, pipeline, expert, data uint64) ParallelTopology {
	return ParallelTopology{Tensor: tensor, Pipeline: pipeline, Expert: expert, Data: data}
}

// c returns t as a sized eredu_topology (struct_size = the C sizeof).
func (t ParallelTopology) c() C.eredu_topology {
	return C.eredu_topology{struct_size: C.sizeof_eredu_topology, tensor: C.uint64_t(t.Tensor),
		pipeline: C.uint64_t(t.Pipeline), expert: C.uint64_t(t.Expert), data: C.uint64_t(t.Data)}
}

// topologyFromC copies an eredu_topology.
func topologyFromC(t *C.eredu_topology) ParallelTopology {
	return ParallelTopology{uint64(t.tensor), uint64(t.pipeline), uint64(t.expert), uint64(t.data)}
}

// topology copies t into C memory, for a descriptor that points to it.
func (m *cMemory) topology(t ParallelTopology) (*C.eredu_topology, error) {
	p, err := m.alloc(C.sizeof_eredu_topology)
	if err != nil {
		return nil, err
	}
	ct := (*C.eredu_topology)(p)
	*ct = t.c()
	return ct, nil
}

// ParallelCoordinates is a rank's coordinate on every axis.
type ParallelCoordinates struct {
	Tensor, Pipeline, Expert, Data uint64
}

// PlanOptions is how a call plans (eredu_plan_options). The zero value is
// the library's default: PolicyRequire, Threads 0, no progress function,
// balanced pipeline stages.
type PlanOptions struct {
	Policy ShardingPolicy
	// Threads is the number of threads a call may use, the calling one
	// included. 1 plans on the calling thread only and starts no helper
	// thread. 0 lets the library choose: for PlanRank two threads from
	// 16384 tensors on and one below, for PlanWorldJSON, CheckJSON and
	// FitJSON one per hardware thread. Results never depend on it.
	Threads uint32
	// Progress, when not nil, is called by PlanWorldJSON and CheckJSON
	// after each planned rank with the ranks planned so far and the world
	// size, and by FitJSON after each topology with the topologies searched
	// so far and their number; returning false cancels the call, which then
	// returns an *Error matching ErrCancelled. PlanRank never calls it.
	//
	// Calls are serialized but may come from any of the library's threads
	// while the calling goroutine waits inside the library; the planning
	// threads wait for each call, so Progress should return quickly. A
	// panic inside Progress is recovered and cancels the call; the
	// returned error's message then names the panic value. Progress is not
	// called again once it has cancelled.
	Progress func(done, total uint64) bool
	// PipelineLayers, when not empty, chooses the pipeline stages' sizes:
	// stage s owns PipelineLayers[s] consecutive decoder layers (one count
	// per pipeline stage, each at least 1, summing to the model's layers;
	// docs/planning.md, "Pipeline stages of chosen sizes"). Empty (the
	// default) is the balanced split. The layout, world and check JSON then
	// carry the counts as topology.pipeline_layers. Counts other than one
	// per stage, a 0 count, a sum that overflows or a sum other than the
	// model's decoder layers fail the call with ErrInvalidArgument; FitJSON,
	// which searches every pipeline size, refuses any. The counts are
	// copied for the call; the slice is not retained.
	PipelineLayers []uint64
}

// c returns the options without their progress function and pipeline
// layers as a sized eredu_plan_options (struct_size = the C sizeof).
func (o PlanOptions) c() C.eredu_plan_options {
	return C.eredu_plan_options{struct_size: C.sizeof_eredu_plan_options,
		policy: C.eredu_policy(o.Policy), threads: C.uint32_t(o.Threads)}
}

// withPipelineLayers copies layers into mem and points options at the
// copy (NULL and 0 when layers is empty), so the options handed to the
// library hold no Go pointer; mem must outlive the call.
func (m *cMemory) withPipelineLayers(options *C.eredu_plan_options, layers []uint64) error {
	p, err := m.uint64s(layers)
	if err != nil {
		return err
	}
	options.pipeline_layers = p
	options.pipeline_layer_count = C.size_t(len(layers))
	return nil
}

// PlanRank plans global rank `rank` of topology for the model
// (eredu_plan_rank): which slice of every tensor the rank materializes
// (seed LocalModelLayout). Ranks enumerate expert fastest, then tensor,
// then pipeline, data outermost. options.Progress is not called. Errors,
// in order: ErrInvalidArgument (unknown policy); ErrZeroAxis,
// ErrWorldSizeOverflow; ErrInvalidArgument (options.PipelineLayers not one
// count per stage, a 0 count, a sum that overflows); ErrRankOutOfRange;
// ErrMissingLayerCount, ErrMissingExpertCount, ErrEmptyPartition,
// ErrInvalidArgument (options.PipelineLayers not summing to the model's
// decoder layers); ErrInvalidTensor; ErrOutOfMemory. Safe to call
// concurrently.
func (m *ModelDescription) PlanRank(topology ParallelTopology, rank uint64, options PlanOptions) (*LocalModelLayout, error) {
	h, err := m.handle()
	if err != nil {
		return nil, err
	}
	var mem cMemory
	defer mem.free()
	ctopology, coptions := topology.c(), options.c()
	if err := mem.withPipelineLayers(&coptions, options.PipelineLayers); err != nil {
		return nil, err
	}
	var out *C.eredu_layout
	var cerr *C.eredu_error
	status := C.eredu_plan_rank(h, &ctopology, C.uint64_t(rank), &coptions, &out, &cerr)
	runtime.KeepAlive(m)
	if err := takeError(status, cerr); err != nil {
		return nil, err
	}
	return newLayout(out), nil
}

// PlanRank is the free-function spelling of ModelDescription.PlanRank.
func PlanRank(model *ModelDescription, topology ParallelTopology, rank uint64, options PlanOptions) (*LocalModelLayout, error) {
	return model.PlanRank(topology, rank, options)
}
