package eredu

/*
#include <eredu/eredu.h>
*/
import "C"

import "runtime"

// ParallelTopology holds the axis sizes of a tensor x pipeline x expert x
// data parallel world (seed ParallelTopology; argument order T, P, E, D).
// The library validates it when planning: a zero size is ErrZeroAxis, a
// product above 64 bits ErrWorldSizeOverflow.
type ParallelTopology struct {
	Tensor, Pipeline, Expert, Data uint64
}

// NewParallelTopology mirrors the seed's ParallelTopology::new(tensor,
// pipeline, expert, data); validation happens in the library.
func NewParallelTopology(tensor, pipeline, expert, data uint64) ParallelTopology {
	return ParallelTopology{Tensor: tensor, Pipeline: pipeline, Expert: expert, Data: data}
}

// ParallelCoordinates is a rank's coordinate on every axis.
type ParallelCoordinates struct {
	Tensor, Pipeline, Expert, Data uint64
}

// PlanRank plans global rank `rank` of topology for the model (eredu_plan_rank):
// which slice of every tensor the rank materializes (seed
// LocalModelLayout). Ranks enumerate expert fastest, then tensor, then
// pipeline, data outermost. Errors, in order: ErrInvalidArgument (unknown
// policy); ErrZeroAxis, ErrWorldSizeOverflow, ErrRankOutOfRange;
// ErrMissingLayerCount, ErrMissingExpertCount, ErrEmptyPartition;
// ErrInvalidTensor; ErrOutOfMemory. Safe to call concurrently.
func (m *ModelDescription) PlanRank(topology ParallelTopology, rank uint64, policy ShardingPolicy) (*LocalModelLayout, error) {
	h, err := m.handle()
	if err != nil {
		return nil, err
	}
	var out *C.eredu_layout
	var cerr *C.eredu_error
	status := C.eredu_plan_rank(h, C.uint64_t(topology.Tensor), C.uint64_t(topology.Pipeline),
		C.uint64_t(topology.Expert), C.uint64_t(topology.Data), C.uint64_t(rank),
		C.eredu_policy(policy), &out, &cerr)
	runtime.KeepAlive(m)
	if err := takeError(status, cerr); err != nil {
		return nil, err
	}
	return newLayout(out), nil
}

// PlanRank is the free-function spelling of ModelDescription.PlanRank.
func PlanRank(model *ModelDescription, topology ParallelTopology, rank uint64, policy ShardingPolicy) (*LocalModelLayout, error) {
	return model.PlanRank(topology, rank, policy)
}
