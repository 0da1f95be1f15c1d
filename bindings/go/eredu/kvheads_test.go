// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

package eredu

import (
	"reflect"
	"strings"
	"testing"
)

// kvAttentionDesc is a grouped-query group of 2 KV heads and 8 query heads
// (head width 2): q [16, 4] follows the query heads, k [4, 4] is per KV
// head.
func kvAttentionDesc() GroupDesc {
	return GroupDesc{Name: "attn", Role: RoleAttentionHeads, PartitionUnits: 2, Partitioned: true,
		QueryUnits: 8, HasQueryUnits: true, Members: []ParameterMemberSpec{
			NewParameterMemberSpec("q", []uint64{16, 4}, ShardingPartitioned(0)),
			NewParameterMemberSpec("k", []uint64{4, 4}, ShardingPartitioned(0)).WithPerKVHead(),
		}}
}

func TestKVHeadsReadBack(t *testing.T) {
	g, err := BuildParameterGroupSpec(kvAttentionDesc())
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	info, err := g.Info()
	if err != nil {
		t.Fatal(err)
	}
	if info.QueryUnits != 8 || !info.HasQueryUnits || info.PartitionUnits != 2 || !info.Partitioned {
		t.Errorf("Info = %+v", info)
	}
	if units, ok, err := g.QueryUnits(); err != nil || !ok || units != 8 {
		t.Errorf("QueryUnits = %d %v %v", units, ok, err)
	}
	members, err := g.Members()
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(members, kvAttentionDesc().Members) {
		t.Errorf("Members = %+v", members)
	}
	if members[0].PerKVHead || !members[1].PerKVHead {
		t.Errorf("PerKVHead = %v, %v", members[0].PerKVHead, members[1].PerKVHead)
	}

	plain, err := NewPartitionedParameterGroupSpec("attn", RoleAttentionHeads, 2,
		[]ParameterMemberSpec{NewParameterMemberSpec("q", []uint64{16, 4}, ShardingPartitioned(0))})
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()
	if units, ok, err := plain.QueryUnits(); err != nil || ok || units != 0 {
		t.Errorf("plain QueryUnits = %d %v %v", units, ok, err)
	}
}

func TestKVHeadsReplicatedAtTP4(t *testing.T) {
	g, err := BuildParameterGroupSpec(kvAttentionDesc())
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	m, err := ModelFromGroups(nil, []*ParameterGroupSpec{g})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	for _, rank := range []uint64{1, 2} {
		l, err := m.PlanRank(NewParallelTopology(4, 1, 1, 1), rank, PlanOptions{Policy: PolicyRequire})
		if err != nil {
			t.Fatalf("rank %d: %v", rank, err)
		}
		head := rank / 2
		k, err := l.Tensor("k")
		if err != nil {
			t.Fatal(err)
		}
		wantK := TensorPlacement{Kind: PlacementRange, Axis: 0, Start: 2 * head, End: 2*head + 2}
		if !reflect.DeepEqual(k.Placement(), wantK) || !reflect.DeepEqual(k.LocalShape(), []uint64{2, 4}) {
			t.Errorf("rank %d k: %+v %v", rank, k.Placement(), k.LocalShape())
		}
		if c := k.KVHeadCopies(); c != 2 {
			t.Errorf("rank %d k: KVHeadCopies = %d, want 2", rank, c)
		}
		if r, ok := k.LogicalRange(); !ok || r != (Range{head, head + 1}) {
			t.Errorf("rank %d k: LogicalRange = %v %v", rank, r, ok)
		}
		q, err := l.Tensor("q")
		if err != nil {
			t.Fatal(err)
		}
		wantQ := TensorPlacement{Kind: PlacementRange, Axis: 0, Start: 4 * rank, End: 4*rank + 4}
		if !reflect.DeepEqual(q.Placement(), wantQ) || !reflect.DeepEqual(q.LocalShape(), []uint64{4, 4}) {
			t.Errorf("rank %d q: %+v %v", rank, q.Placement(), q.LocalShape())
		}
		if c := q.KVHeadCopies(); c != 1 {
			t.Errorf("rank %d q: KVHeadCopies = %d, want 1", rank, c)
		}
		text, err := l.JSON()
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(text, `"fell_back_to_replication":false,"kv_head_copies":2`) ||
			strings.Count(text, "kv_head_copies") != 1 {
			t.Errorf("rank %d JSON = %s", rank, text)
		}
		l.Close()
	}

	_, err = m.PlanRank(NewParallelTopology(3, 1, 1, 1), 0, PlanOptions{Policy: PolicyRequire})
	assertError(t, err, ErrInvalidTensor,
		`logical parameter "attn": 2 KV heads and 8 query heads cannot be split 3 ways: KV heads are replicated only at a multiple of 2 that divides 8; tensor sizes up to 64 that work for this group: 1, 2, 4, 8`)
}

func TestKVHeadsMisuse(t *testing.T) {
	noPartition := kvAttentionDesc()
	noPartition.Partitioned, noPartition.PartitionUnits = false, 0
	noPartition.Members = []ParameterMemberSpec{
		NewParameterMemberSpec("q", []uint64{16, 4}, ShardingEqual(0)),
		NewParameterMemberSpec("k", []uint64{4, 4}, ShardingEqual(0)),
	}
	_, err := BuildParameterGroupSpec(noPartition)
	assertError(t, err, ErrInvalidGroup, `parallel parameter group "attn": query_units needs partition_units`)

	noQuery := kvAttentionDesc()
	noQuery.HasQueryUnits, noQuery.QueryUnits = false, 0
	_, err = BuildParameterGroupSpec(noQuery)
	assertError(t, err, ErrInvalidGroup, `parallel parameter group "attn": per_kv_head member "k" needs the group's query_units`)
}
