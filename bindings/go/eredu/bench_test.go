package eredu

import "testing"

// BenchmarkLayoutLen measures the per-call overhead of one cheap handle
// accessor (cgo call, error slot, KeepAlive).
func BenchmarkLayoutLen(b *testing.B) {
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
	l, err := m.PlanRank(NewParallelTopology(2, 1, 1, 1), 0, PolicyRequire)
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := l.Len(); err != nil {
			b.Fatal(err)
		}
	}
}
