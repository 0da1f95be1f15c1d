package eredu

/*
#include <eredu/eredu.h>
*/
import "C"

import (
	"runtime"
	"unsafe"
)

// PlanWorldJSON plans every rank of topology and proves coverage
// (eredu_plan_world_json): canonical eredu.world.v1 text, as `eredu plan
// --all-ranks --format json`. threads 0 uses the hardware's concurrency; the
// text does not depend on it. Coverage problems are in the text, not an
// error. Errors: ErrInvalidArgument (unknown policy, more than 2^20 ranks);
// the planning errors of PlanRank for the lowest failing rank;
// ErrOutOfMemory.
func (m *ModelDescription) PlanWorldJSON(topology ParallelTopology, policy ShardingPolicy, threads uint32) (string, error) {
	h, err := m.handle()
	if err != nil {
		return "", err
	}
	var text *C.char
	var n C.size_t
	var cerr *C.eredu_error
	status := C.eredu_plan_world_json(h, C.uint64_t(topology.Tensor), C.uint64_t(topology.Pipeline),
		C.uint64_t(topology.Expert), C.uint64_t(topology.Data), C.eredu_policy(policy),
		C.uint32_t(threads), &text, &n, &cerr)
	runtime.KeepAlive(m)
	if err := takeError(status, cerr); err != nil {
		return "", err
	}
	return takeText(text, n), nil
}

// CheckOptions are the options of CheckJSON; the zero value admits every
// rank fully resident with an unbounded device budget.
type CheckOptions struct {
	// ResidencyJSON is an eredu.residency.v1 policy document; empty for
	// fully resident.
	ResidencyJSON []byte
	// DeviceBudgetBytes is the fully resident admission device budget when
	// HasDeviceBudget.
	DeviceBudgetBytes uint64
	HasDeviceBudget   bool
	// Threads plans the ranks on this many threads; 0 uses the hardware's.
	Threads uint32
}

// CheckJSON plans every rank, proves coverage and admits each rank's bytes
// under a residency policy (eredu_check_json): canonical eredu.check.v1
// text. A rank that does not fit is reported in the text, not as an error.
// Errors: ErrInvalidArgument; the residency document's errors (ErrParse,
// ErrUnsupportedVersion, ErrZeroPrefetchDepth, ErrHostDisabledControls, ...)
// before planning; then PlanWorldJSON's planning errors; ErrOutOfMemory.
func (m *ModelDescription) CheckJSON(topology ParallelTopology, policy ShardingPolicy, options CheckOptions) (string, error) {
	h, err := m.handle()
	if err != nil {
		return "", err
	}
	var mem cMemory
	defer mem.free()
	p, err := mem.alloc(unsafe.Sizeof(C.eredu_check_options{}))
	if err != nil {
		return "", err
	}
	copts := (*C.eredu_check_options)(p)
	var cerr *C.eredu_error
	if err := takeError(C.eredu_check_options_init(copts, &cerr), cerr); err != nil {
		return "", err
	}
	if copts.residency_json, err = mem.bytes(options.ResidencyJSON); err != nil {
		return "", err
	}
	copts.residency_json_length = C.size_t(len(options.ResidencyJSON))
	copts.has_device_budget = cbool(options.HasDeviceBudget)
	copts.device_budget_bytes = C.uint64_t(options.DeviceBudgetBytes)
	copts.threads = C.uint32_t(options.Threads)
	var text *C.char
	var n C.size_t
	status := C.eredu_check_json(h, C.uint64_t(topology.Tensor), C.uint64_t(topology.Pipeline),
		C.uint64_t(topology.Expert), C.uint64_t(topology.Data), C.eredu_policy(policy), copts,
		&text, &n, &cerr)
	runtime.KeepAlive(m)
	if err := takeError(status, cerr); err != nil {
		return "", err
	}
	return takeText(text, n), nil
}

// PlanWorldJSON is the free-function spelling of
// ModelDescription.PlanWorldJSON.
func PlanWorldJSON(model *ModelDescription, topology ParallelTopology, policy ShardingPolicy, threads uint32) (string, error) {
	return model.PlanWorldJSON(topology, policy, threads)
}

// CheckJSON is the free-function spelling of ModelDescription.CheckJSON.
func CheckJSON(model *ModelDescription, topology ParallelTopology, policy ShardingPolicy, options CheckOptions) (string, error) {
	return model.CheckJSON(topology, policy, options)
}
