// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

package eredu

/*
#include <eredu/eredu.h>
*/
import "C"

import "runtime"

// PlanWorldJSON plans every rank of topology and proves coverage
// (eredu_plan_world_json): canonical eredu.world.v1 text, as `eredu plan
// --all-ranks --format json`. The text does not depend on options.Threads.
// Coverage problems are in the text, not an error. Errors:
// ErrInvalidArgument (unknown policy, more than 2^20 ranks); the planning
// errors of PlanRank for the lowest failing rank; ErrCancelled when
// options.Progress returned false or panicked; ErrOutOfMemory.
func (m *ModelDescription) PlanWorldJSON(topology ParallelTopology, options PlanOptions) (string, error) {
	h, err := m.handle()
	if err != nil {
		return "", err
	}
	var mem cMemory
	defer mem.free()
	ctopology, coptions := topology.c(), options.c()
	progress, err := mem.withProgress(&coptions, options.Progress)
	if err != nil {
		return "", err
	}
	var text *C.char
	var n C.size_t
	var cerr *C.eredu_error
	status := C.eredu_plan_world_json(h, &ctopology, &coptions, &text, &n, &cerr)
	runtime.KeepAlive(m)
	if err := progress.finish(takeError(status, cerr)); err != nil {
		return "", err
	}
	return takeText(text, n), nil
}

// CheckOptions are the residency options of CheckJSON
// (eredu_check_options); the zero value admits every rank fully resident
// with an unbounded device budget.
type CheckOptions struct {
	// ResidencyJSON is an eredu.residency.v1 policy document; empty for
	// fully resident.
	ResidencyJSON []byte
	// DeviceBudgetBytes is the fully resident admission device budget when
	// HasDeviceBudget.
	DeviceBudgetBytes uint64
	HasDeviceBudget   bool
}

// CheckJSON plans every rank, proves coverage and admits each rank's bytes
// under a residency policy (eredu_check_json): canonical eredu.check.v1
// text. A rank that does not fit is reported in the text, not as an error.
// Threads and progress are those of PlanWorldJSON. Errors:
// ErrInvalidArgument; the residency document's errors (ErrParse,
// ErrUnsupportedVersion, ErrZeroPrefetchDepth, ErrHostDisabledControls,
// ...) before planning; then PlanWorldJSON's planning errors and
// ErrCancelled; ErrOutOfMemory.
func (m *ModelDescription) CheckJSON(topology ParallelTopology, options PlanOptions, check CheckOptions) (string, error) {
	h, err := m.handle()
	if err != nil {
		return "", err
	}
	var mem cMemory
	defer mem.free()
	p, err := mem.alloc(C.sizeof_eredu_check_options)
	if err != nil {
		return "", err
	}
	ccheck := (*C.eredu_check_options)(p)
	var cerr *C.eredu_error
	if err := takeError(C.eredu_check_options_init(ccheck, C.sizeof_eredu_check_options, &cerr), cerr); err != nil {
		return "", err
	}
	if ccheck.residency_json, err = mem.bytes(check.ResidencyJSON); err != nil {
		return "", err
	}
	ccheck.residency_json_length = C.size_t(len(check.ResidencyJSON))
	ccheck.has_device_budget = cbool(check.HasDeviceBudget)
	ccheck.device_budget_bytes = C.uint64_t(check.DeviceBudgetBytes)
	ctopology, coptions := topology.c(), options.c()
	progress, err := mem.withProgress(&coptions, options.Progress)
	if err != nil {
		return "", err
	}
	var text *C.char
	var n C.size_t
	status := C.eredu_check_json(h, &ctopology, &coptions, ccheck, &text, &n, &cerr)
	runtime.KeepAlive(m)
	if err := progress.finish(takeError(status, cerr)); err != nil {
		return "", err
	}
	return takeText(text, n), nil
}

// PlanWorldJSON is the free-function spelling of
// ModelDescription.PlanWorldJSON.
func PlanWorldJSON(model *ModelDescription, topology ParallelTopology, options PlanOptions) (string, error) {
	return model.PlanWorldJSON(topology, options)
}

// CheckJSON is the free-function spelling of ModelDescription.CheckJSON.
func CheckJSON(model *ModelDescription, topology ParallelTopology, options PlanOptions, check CheckOptions) (string, error) {
	return model.CheckJSON(topology, options, check)
}
