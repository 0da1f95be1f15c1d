// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

package eredu

import (
	"errors"
	"testing"
)

// Every violation in one run: a planning failure lists each problem in
// Error.Problems (the groups in document order, then the topology
// preflight), while Code and Message stay the first problem a stopping
// planner reported.
func TestPlanningFailureListsEveryProblem(t *testing.T) {
	m := tinyMoE(t)
	_, err := m.PlanRank(NewParallelTopology(16, 8, 1, 1), 0, PlanOptions{Policy: PolicyRequire})
	const preflight = "4 decoder layers cannot be split over 8 pipeline stages; pipeline sizes from 1 to 4 work"
	assertError(t, err, ErrEmptyPartition, preflight)
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("%v is not an *Error", err)
	}
	if len(e.Problems) != 21 {
		t.Fatalf("%d problems, want 21: %+v", len(e.Problems), e.Problems)
	}
	first := Problem{
		Code:  StatusInvalidTensor,
		Name:  "EREDU_E_INVALID_TENSOR",
		Group: "layers.0.self_attn",
		Message: `logical parameter "layers.0.self_attn": 2 partition units — declared by the group — ` +
			"cannot be split 16 ways; tensor sizes up to 64 that work for this group: 1, 2",
	}
	if e.Problems[0] != first {
		t.Errorf("problem 0 = %+v, want %+v", e.Problems[0], first)
	}
	if got := e.Problems[1].Group; got != "layers.0.experts.0.mlp" {
		t.Errorf("problem 1 group = %q", got)
	}
	for i, p := range e.Problems[:20] {
		if p.Code != StatusInvalidTensor || p.Group == "" || p.Tensor != "" {
			t.Errorf("problem %d = %+v, want a group's INVALID_TENSOR", i, p)
		}
	}
	last := Problem{Code: StatusEmptyPartition, Name: "EREDU_E_EMPTY_PARTITION", Message: e.Message}
	if got := e.Problems[20]; got != last {
		t.Errorf("last problem = %+v, want %+v", got, last)
	}
}

// Any other error holds one problem equal to the error.
func TestSingleProblemEqualsTheError(t *testing.T) {
	m := tinyMoE(t)
	_, rankErr := m.PlanRank(NewParallelTopology(2, 1, 1, 1), 2, PlanOptions{Policy: PolicyRequire})
	assertError(t, rankErr, ErrRankOutOfRange, "rank 2 is outside world size 2")
	_, parseErr := ModelFromJSON([]byte("{"))
	_, nulErr := NewParameterGroupSpec("a\x00b", RoleReplicated, nil)
	for name, err := range map[string]error{"rank": rankErr, "parse": parseErr, "binding": nulErr} {
		var e *Error
		if !errors.As(err, &e) {
			t.Fatalf("%s: %v is not an *Error", name, err)
		}
		want := []Problem{{Code: e.Code, Name: e.Name, Message: e.Message}}
		if len(e.Problems) != 1 || e.Problems[0] != want[0] {
			t.Errorf("%s: problems %+v, want %+v", name, e.Problems, want)
		}
	}
}
