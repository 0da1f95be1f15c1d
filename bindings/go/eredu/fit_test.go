// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

package eredu

import (
	"errors"
	"strings"
	"testing"
)

// fitTwoLayers is the two-layer model of tests/capi/test_fit.cpp: two
// layers of 64 F32 bytes each and an embedding of 32 bytes.
const fitTwoLayers = `{"schema":"eredu.groups.v1","model":{"name":"two","layers":2},"groups":[` +
	`{"name":"embed","role":"vocabulary","scope":"embedding","members":[` +
	`{"target":"embed","shape":[8,1],"dtype":"F32","sharding":{"kind":"balanced","axis":0}}]},` +
	`{"name":"l0","role":"replicated","scope":{"layer":0},"members":[` +
	`{"target":"l0","shape":[16],"dtype":"F32","sharding":{"kind":"replicated"}}]},` +
	`{"name":"l1","role":"replicated","scope":{"layer":1},"members":[` +
	`{"target":"l1","shape":[16],"dtype":"F32","sharding":{"kind":"replicated"}}]}]}`

// fitTwoBudget100 is its eredu.fit.v1 text up to world 2 with a 100-byte
// device budget (tests/capi/test_fit.cpp).
const fitTwoBudget100 = `{"schema":"eredu.fit.v1","model":{"name":"two","tensors":3,"global_bytes":160},` +
	`"policy":"require","residency":{"kind":"fully_resident","device_budget_bytes":100,` +
	`"host_budget_bytes":null,"prefetch_depth":1,"host_lookahead":0},"max_world":2,` +
	`"topologies":[` +
	`{"tp":1,"pp":1,"ep":1,"world":1,"plans":true,"fits":false,"device_peak_bytes":160},` +
	`{"tp":1,"pp":1,"ep":2,"world":2,"plans":false,"fits":false,` +
	`"error":"EREDU_E_MISSING_EXPERT_COUNT",` +
	`"message":"expert topology preflight requires the routed-expert count"},` +
	`{"tp":1,"pp":2,"ep":1,"world":2,"plans":true,"fits":true,"device_peak_bytes":96},` +
	`{"tp":2,"pp":1,"ep":1,"world":2,"plans":true,"fits":false,"device_peak_bytes":144}],` +
	`"smallest_fitting_world":2}` + "\n"

func fitModel(t *testing.T) *ModelDescription {
	t.Helper()
	m, err := ModelFromJSON([]byte(fitTwoLayers))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return m
}

var fitBudget100 = CheckOptions{HasDeviceBudget: true, DeviceBudgetBytes: 100}

func TestFitJSONText(t *testing.T) {
	m := fitModel(t)
	text, err := m.FitJSON(PlanOptions{}, fitBudget100, FitOptions{MaxWorld: 2})
	if err != nil || text != fitTwoBudget100 {
		t.Fatalf("FitJSON = %q, %v\nwant %q", text, err, fitTwoBudget100)
	}
	// The free-function spelling, and the same bytes on one thread.
	text, err = FitJSON(m, PlanOptions{Threads: 1}, fitBudget100, FitOptions{MaxWorld: 2})
	if err != nil || text != fitTwoBudget100 {
		t.Fatalf("FitJSON(Threads 1) = %q, %v", text, err)
	}
	// Unbounded, the single rank fits.
	text, err = m.FitJSON(PlanOptions{}, CheckOptions{}, FitOptions{MaxWorld: 1})
	want := `"topologies":[{"tp":1,"pp":1,"ep":1,"world":1,"plans":true,"fits":true,` +
		`"device_peak_bytes":160}],"smallest_fitting_world":1}` + "\n"
	if err != nil || !strings.HasSuffix(text, want) {
		t.Fatalf("FitJSON(unbounded) = %q, %v", text, err)
	}
}

func TestFitJSONRefusals(t *testing.T) {
	m := fitModel(t)
	_, err := m.FitJSON(PlanOptions{PipelineLayers: []uint64{2}}, CheckOptions{}, DefaultFitOptions())
	assertError(t, err, ErrInvalidArgument,
		"options->pipeline_layers must be empty: fit searches every pipeline size")
	_, err = m.FitJSON(PlanOptions{}, CheckOptions{}, FitOptions{})
	assertError(t, err, ErrInvalidArgument, "the largest world must be from 1 to 1024, got 0")
	_, err = m.FitJSON(PlanOptions{}, CheckOptions{}, FitOptions{MaxWorld: 1025})
	assertError(t, err, ErrInvalidArgument, "the largest world must be from 1 to 1024, got 1025")
	// The residency document is judged as by CheckJSON.
	_, err = m.FitJSON(PlanOptions{}, CheckOptions{ResidencyJSON: []byte("{")}, DefaultFitOptions())
	if !errors.Is(err, ErrParse) {
		t.Errorf("a broken residency document: %v", err)
	}
}

func TestFitJSONProgressCancels(t *testing.T) {
	m := fitModel(t)
	var total, calls uint64
	text, err := m.FitJSON(PlanOptions{Progress: func(done, all uint64) bool {
		calls++
		total = all
		return done < 2
	}}, CheckOptions{}, FitOptions{MaxWorld: 4})
	assertError(t, err, ErrCancelled, "cancelled by the progress callback after 2 of 13 topologies")
	if text != "" || total != 1+3+3+6 || calls != 2 {
		t.Errorf("text %q, total %d, calls %d", text, total, calls)
	}
}

func TestDefaultFitOptions(t *testing.T) {
	if o := DefaultFitOptions(); o != (FitOptions{MaxWorld: DefaultMaxWorld}) || DefaultMaxWorld != 64 {
		t.Errorf("DefaultFitOptions = %+v", o)
	}
}
