// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

package eredu

import "testing"

// benchLayout plans rank 0 of one GQA layer at tensor parallel 2.
func benchLayout(b *testing.B) *LocalModelLayout {
	g, err := NewPartitionedParameterGroupSpec("layers.0.self_attn", RoleAttentionHeads, 8,
		[]ParameterMemberSpec{
			NewParameterMemberSpec("q.weight", []uint64{4096, 4096}, ShardingPartitioned(0)).WithDType(DTypeBF16),
		})
	if err != nil {
		b.Fatal(err)
	}
	defer g.Close()
	m, err := ModelFromGroups(nil, []*ParameterGroupSpec{g})
	if err != nil {
		b.Fatal(err)
	}
	defer m.Close()
	l, err := m.PlanRank(NewParallelTopology(2, 1, 1, 1), 0, PlanOptions{Policy: PolicyRequire})
	if err != nil {
		b.Fatal(err)
	}
	return l
}

// BenchmarkLayoutLen measures the per-call overhead of the cheapest handle
// accessor: one cgo call returning a plain value, and KeepAlive.
func BenchmarkLayoutLen(b *testing.B) {
	l := benchLayout(b)
	defer l.Close()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if l.Len() != 1 {
			b.Fatal("Len != 1")
		}
	}
}

// BenchmarkLayoutTensorAt measures reading one tensor with every field
// (target, logical name, role, dtype, both shapes, placement, logical
// units and range, fallback, bytes): one eredu_layout_get_tensor_info call
// and the copies into Go memory.
func BenchmarkLayoutTensorAt(b *testing.B) {
	l := benchLayout(b)
	defer l.Close()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t, err := l.TensorAt(0)
		if err != nil || t.Target() != "q.weight" {
			b.Fatal(t, err)
		}
	}
}

// BenchmarkLayoutInfo measures reading the rank, coordinates, policy and
// totals: one eredu_layout_get_info call.
func BenchmarkLayoutInfo(b *testing.B) {
	l := benchLayout(b)
	defer l.Close()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := l.Info(); err != nil {
			b.Fatal(err)
		}
	}
}
