// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

package eredu

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// stackedExpertsDesc is one layer's 4 experts stacked on axis 0 of up
// [4, 8, 2] (partitioned on upAxis by 8 units) and bias [4, 2] (replicated).
func stackedExpertsDesc(upAxis uint64) GroupDesc {
	return GroupDesc{Name: "experts", Role: RoleExpertIntermediate, PartitionUnits: 8,
		Partitioned: true, Members: []ParameterMemberSpec{
			NewParameterMemberSpec("experts.up", []uint64{4, 8, 2}, ShardingPartitioned(1)).
				WithDType(DTypeF32).WithExpertAxis(upAxis),
			NewParameterMemberSpec("experts.bias", []uint64{4, 2}, ShardingReplicated()).
				WithDType(DTypeF32).WithExpertAxis(0),
		}}
}

func stackedExpertsModel(t *testing.T, experts uint64) *ModelDescription {
	t.Helper()
	g, err := BuildParameterGroupSpec(stackedExpertsDesc(0))
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	m, err := ModelFromGroups(&ModelInfo{Experts: experts, HasExperts: true},
		[]*ParameterGroupSpec{g})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestExpertAxisReadsBack(t *testing.T) {
	g, err := BuildParameterGroupSpec(stackedExpertsDesc(0))
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	members, err := g.Members()
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(members, stackedExpertsDesc(0).Members) {
		t.Errorf("Members = %+v", members)
	}
	if !members[0].HasExpertAxis || members[0].ExpertAxis != 0 {
		t.Errorf("up expert axis = %d %v", members[0].ExpertAxis, members[0].HasExpertAxis)
	}
}

// At T = 2, E = 2, rank r has tensor coordinate r/2 and expert coordinate
// r%2: up holds rows [4t, 4t+4) of axis 1 and experts [2e, 2e+2).
func TestStackedExpertsAtTP2EP2(t *testing.T) {
	m := stackedExpertsModel(t, 4)
	defer m.Close()
	for rank := uint64(0); rank < 4; rank++ {
		tensor, expert := rank/2, rank%2
		l, err := m.PlanRank(NewParallelTopology(2, 1, 2, 1), rank, PlanOptions{Policy: PolicyRequire})
		if err != nil {
			t.Fatalf("rank %d: %v", rank, err)
		}
		up, err := l.Tensor("experts.up")
		if err != nil {
			t.Fatal(err)
		}
		want := TensorPlacement{Kind: PlacementRange, Axis: 1, Start: 4 * tensor, End: 4*tensor + 4}
		if !reflect.DeepEqual(up.Placement(), want) || !reflect.DeepEqual(up.LocalShape(), []uint64{2, 4, 2}) {
			t.Errorf("rank %d up: %+v %v", rank, up.Placement(), up.LocalShape())
		}
		if r, ok := up.ExpertRange(); !ok || r != (ExpertRange{Axis: 0, Start: 2 * expert, End: 2*expert + 2}) {
			t.Errorf("rank %d up: ExpertRange = %+v %v", rank, r, ok)
		}
		if b, ok := up.LocalBytes(); !ok || b != 64 {
			t.Errorf("rank %d up: LocalBytes = %d %v, want 64", rank, b, ok)
		}
		bias, err := l.Tensor("experts.bias")
		if err != nil {
			t.Fatal(err)
		}
		want = TensorPlacement{Kind: PlacementRange, Axis: 0, Start: 2 * expert, End: 2*expert + 2}
		if !reflect.DeepEqual(bias.Placement(), want) {
			t.Errorf("rank %d bias: %+v", rank, bias.Placement())
		}
		if b, ok := bias.LocalBytes(); !ok || b != 16 {
			t.Errorf("rank %d bias: LocalBytes = %d %v, want 16", rank, b, ok)
		}
		l.Close()
	}
}

func TestStackedExpertsMisuse(t *testing.T) {
	_, err := BuildParameterGroupSpec(stackedExpertsDesc(1))
	if !errors.Is(err, ErrInvalidGroup) || !strings.Contains(err.Error(),
		`member "experts.up" stacks experts on axis 1, its tensor-parallel axis`) {
		t.Errorf("expert axis = tensor-parallel axis: %v", err)
	}
	m := stackedExpertsModel(t, 8)
	defer m.Close()
	_, err = m.PlanRank(NewParallelTopology(1, 1, 2, 1), 0, PlanOptions{Policy: PolicyRequire})
	if !errors.Is(err, ErrInvalidTensor) || !strings.Contains(err.Error(),
		`tensor "experts.up" expert axis 0 extent 4 does not match the model's 8 routed experts`) {
		t.Errorf("extent 4 of 8 experts: %v", err)
	}
}
