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
// ErrInvalidArgument (unknown policy, more than 2^20 ranks,
// options.PipelineLayers that do not fit the topology or the model, as for
// PlanRank); the planning errors of PlanRank for the lowest failing rank; ErrCancelled when
// options.Progress returned false or panicked; ErrOutOfMemory.
func (m *ModelDescription) PlanWorldJSON(topology ParallelTopology, options PlanOptions) (string, error) {
	h, err := m.handle()
	if err != nil {
		return "", err
	}
	var mem cMemory
	defer mem.free()
	ctopology, coptions := topology.c(), options.c()
	if err := mem.withPipelineLayers(&coptions, options.PipelineLayers); err != nil {
		return "", err
	}
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

// CheckOptions are the residency options of CheckJSON and FitJSON
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

// checkOptions builds check as a sized eredu_check_options in C memory
// (eredu_check_options_init, then the fields), the document copied into m;
// m must outlive the call.
func (m *cMemory) checkOptions(check CheckOptions) (*C.eredu_check_options, error) {
	p, err := m.alloc(C.sizeof_eredu_check_options)
	if err != nil {
		return nil, err
	}
	ccheck := (*C.eredu_check_options)(p)
	var cerr *C.eredu_error
	if err := takeError(C.eredu_check_options_init(ccheck, C.sizeof_eredu_check_options, &cerr), cerr); err != nil {
		return nil, err
	}
	if ccheck.residency_json, err = m.bytes(check.ResidencyJSON); err != nil {
		return nil, err
	}
	ccheck.residency_json_length = C.size_t(len(check.ResidencyJSON))
	ccheck.has_device_budget = cbool(check.HasDeviceBudget)
	ccheck.device_budget_bytes = C.uint64_t(check.DeviceBudgetBytes)
	return ccheck, nil
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
	ccheck, err := mem.checkOptions(check)
	if err != nil {
		return "", err
	}
	ctopology, coptions := topology.c(), options.c()
	if err := mem.withPipelineLayers(&coptions, options.PipelineLayers); err != nil {
		return "", err
	}
	progress, err := mem.withProgress(&coptions, options.Progress)
	if err != nil {
		return "", err
	}
	var text *C.char
	var n C.size_t
	var cerr *C.eredu_error
	status := C.eredu_check_json(h, &ctopology, &coptions, ccheck, &text, &n, &cerr)
	runtime.KeepAlive(m)
	if err := progress.finish(takeError(status, cerr)); err != nil {
		return "", err
	}
	return takeText(text, n), nil
}

// DefaultMaxWorld is the largest world FitJSON searches by default
// (EREDU_FIT_OPTIONS_INIT).
const DefaultMaxWorld = 64

// FitOptions are what FitJSON searches (eredu_fit_options).
// DefaultFitOptions gives the defaults; the zero value has MaxWorld 0,
// which the library refuses (ErrInvalidArgument).
type FitOptions struct {
	// MaxWorld is the largest world T * P * E searched, from 1 to 1024.
	MaxWorld uint64
}

// DefaultFitOptions returns the library's defaults (eredu_fit_options_init):
// worlds of up to DefaultMaxWorld ranks.
func DefaultFitOptions() FitOptions {
	if checkVersion() != nil {
		return FitOptions{}
	}
	var o C.eredu_fit_options
	C.eredu_fit_options_init(&o, C.sizeof_eredu_fit_options, nil)
	return FitOptions{MaxWorld: uint64(o.max_world)}
}

// FitJSON answers which sizes work (eredu_fit_json): it plans and admits
// every topology T x P x E x 1 with T * P * E <= fit.MaxWorld, as CheckJSON
// would under check, and returns canonical eredu.fit.v1 text: per topology
// (ordered by world size, then T, then P) whether it plans (else its first
// error's status name and message), the largest device peak of its ranks
// and whether every rank fits; then the smallest world with a topology that
// fits (absent when none does). A topology that does not plan or fit is
// reported in the text, not as an error. options.Threads plans each
// topology as for PlanWorldJSON; options.Progress is called after each
// topology with the topologies searched so far and their number;
// options.PipelineLayers must be empty, as the search varies the pipeline
// size. Errors: ErrInvalidArgument (unknown policy, pipeline layers given,
// fit.MaxWorld 0 or above 1024; after the document: a device budget with a
// residency kind other than fully resident); the residency document's
// errors, as for CheckJSON; ErrCancelled when options.Progress returned
// false or panicked; ErrOutOfMemory.
func (m *ModelDescription) FitJSON(options PlanOptions, check CheckOptions, fit FitOptions) (string, error) {
	h, err := m.handle()
	if err != nil {
		return "", err
	}
	var mem cMemory
	defer mem.free()
	ccheck, err := mem.checkOptions(check)
	if err != nil {
		return "", err
	}
	cfit := C.eredu_fit_options{struct_size: C.sizeof_eredu_fit_options,
		max_world: C.uint64_t(fit.MaxWorld)}
	coptions := options.c()
	if err := mem.withPipelineLayers(&coptions, options.PipelineLayers); err != nil {
		return "", err
	}
	progress, err := mem.withProgress(&coptions, options.Progress)
	if err != nil {
		return "", err
	}
	var text *C.char
	var n C.size_t
	var cerr *C.eredu_error
	status := C.eredu_fit_json(h, &coptions, ccheck, &cfit, &text, &n, &cerr)
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

// FitJSON is the free-function spelling of ModelDescription.FitJSON.
func FitJSON(model *ModelDescription, options PlanOptions, check CheckOptions, fit FitOptions) (string, error) {
	return model.FitJSON(options, check, fit)
}
