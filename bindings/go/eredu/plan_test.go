// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

package eredu

import (
	"errors"
	"reflect"
	"testing"
)

// gqaAttention is one GQA attention layer: 32 query heads and 8 KV heads of
// 128 channels, hidden size 4096, BF16; the group's logical units are the 8
// KV groups.
func gqaAttention(t *testing.T) *ParameterGroupSpec {
	t.Helper()
	g, err := NewPartitionedParameterGroupSpec("layers.0.self_attn", RoleAttentionHeads, 8,
		[]ParameterMemberSpec{
			NewParameterMemberSpec("q.weight", []uint64{4096, 4096}, ShardingPartitioned(0)).WithDType(DTypeBF16),
			NewParameterMemberSpec("k.weight", []uint64{1024, 4096}, ShardingPartitioned(0)).WithDType(DTypeBF16),
			NewParameterMemberSpec("v.weight", []uint64{1024, 4096}, ShardingPartitioned(0)).WithDType(DTypeBF16),
			NewParameterMemberSpec("o.weight", []uint64{4096, 4096}, ShardingPartitioned(1)).WithDType(DTypeBF16),
		})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func gqaModel(t *testing.T) *ModelDescription {
	t.Helper()
	g := gqaAttention(t)
	defer g.Close()
	m, err := ModelFromGroups(nil, []*ParameterGroupSpec{g})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

type wantTensor struct {
	target           string
	global, local    []uint64
	axis, start, end uint64
	bytes            uint64
}

func TestGQAAttentionAtTP2And4(t *testing.T) {
	m := gqaModel(t)
	defer m.Close()
	if n := m.TensorCount(); n != 4 {
		t.Fatalf("TensorCount = %d", n)
	}
	if n := m.GroupCount(); n != 1 {
		t.Fatalf("GroupCount = %d", n)
	}
	// (4096*4096*2 + 1024*4096*2) elements x 2 bytes.
	if b := m.GlobalBytes(); b != 83886080 {
		t.Fatalf("GlobalBytes = %d", b)
	}
	cases := []struct {
		tp, rank     uint64
		units        Range
		tensors      []wantTensor
		local, total uint64
	}{
		{tp: 2, rank: 1, units: Range{4, 8}, local: 41943040, tensors: []wantTensor{
			{"k.weight", []uint64{1024, 4096}, []uint64{512, 4096}, 0, 512, 1024, 4194304},
			{"o.weight", []uint64{4096, 4096}, []uint64{4096, 2048}, 1, 2048, 4096, 16777216},
			{"q.weight", []uint64{4096, 4096}, []uint64{2048, 4096}, 0, 2048, 4096, 16777216},
			{"v.weight", []uint64{1024, 4096}, []uint64{512, 4096}, 0, 512, 1024, 4194304},
		}},
		{tp: 4, rank: 1, units: Range{2, 4}, local: 20971520, tensors: []wantTensor{
			{"k.weight", []uint64{1024, 4096}, []uint64{256, 4096}, 0, 256, 512, 2097152},
			{"o.weight", []uint64{4096, 4096}, []uint64{4096, 1024}, 1, 1024, 2048, 8388608},
			{"q.weight", []uint64{4096, 4096}, []uint64{1024, 4096}, 0, 1024, 2048, 8388608},
			{"v.weight", []uint64{1024, 4096}, []uint64{256, 4096}, 0, 256, 512, 2097152},
		}},
	}
	for _, c := range cases {
		l, err := m.PlanRank(NewParallelTopology(c.tp, 1, 1, 1), c.rank, PlanOptions{Policy: PolicyRequire})
		if err != nil {
			t.Fatalf("TP %d: %v", c.tp, err)
		}
		if topo, err := l.Topology(); err != nil || topo != (ParallelTopology{c.tp, 1, 1, 1}) {
			t.Errorf("TP %d: Topology = %+v, %v", c.tp, topo, err)
		}
		if r, err := l.Rank(); err != nil || r != c.rank {
			t.Errorf("TP %d: Rank = %d, %v", c.tp, r, err)
		}
		if co, err := l.Coordinates(); err != nil || co != (ParallelCoordinates{Tensor: c.rank}) {
			t.Errorf("TP %d: Coordinates = %+v, %v", c.tp, co, err)
		}
		if p, err := l.Policy(); err != nil || p != PolicyRequire {
			t.Errorf("TP %d: Policy = %v, %v", c.tp, p, err)
		}
		want := LayoutTotals{LocalBytes: c.local, GlobalBytes: 83886080, MaterializedTensors: 4}
		if totals, err := l.Totals(); err != nil || totals != want {
			t.Errorf("TP %d: Totals = %+v, %v", c.tp, totals, err)
		}
		wantInfo := LayoutInfo{Policy: PolicyRequire, Rank: c.rank,
			Coordinates: ParallelCoordinates{Tensor: c.rank}, TensorCount: 4, Totals: want}
		if info, err := l.Info(); err != nil || info != wantInfo || l.Len() != 4 {
			t.Errorf("TP %d: Info = %+v, %v; Len = %d", c.tp, info, err, l.Len())
		}
		tensors, err := l.Tensors()
		if err != nil || len(tensors) != len(c.tensors) {
			t.Fatalf("TP %d: Tensors = %d, %v", c.tp, len(tensors), err)
		}
		for i, w := range c.tensors {
			got := tensors[i]
			if got.Target() != w.target || got.LogicalName() != "layers.0.self_attn" ||
				got.Role() != RoleAttentionHeads || got.FellBackToReplication() {
				t.Errorf("TP %d %s: identity %q %q %v", c.tp, w.target, got.Target(), got.LogicalName(), got.Role())
			}
			if d, ok := got.DType(); !ok || d != DTypeBF16 {
				t.Errorf("TP %d %s: DType = %v %v", c.tp, w.target, d, ok)
			}
			if !reflect.DeepEqual(got.GlobalShape(), w.global) || !reflect.DeepEqual(got.LocalShape(), w.local) {
				t.Errorf("TP %d %s: shapes %v %v", c.tp, w.target, got.GlobalShape(), got.LocalShape())
			}
			wantPlacement := TensorPlacement{Kind: PlacementRange, Axis: w.axis, Start: w.start, End: w.end}
			if p := got.Placement(); !reflect.DeepEqual(p, wantPlacement) {
				t.Errorf("TP %d %s: placement %+v", c.tp, w.target, p)
			}
			if u, ok := got.LogicalUnits(); !ok || u != 8 {
				t.Errorf("TP %d %s: LogicalUnits = %d %v", c.tp, w.target, u, ok)
			}
			if r, ok := got.LogicalRange(); !ok || r != c.units {
				t.Errorf("TP %d %s: LogicalRange = %+v %v", c.tp, w.target, r, ok)
			}
			if b, ok := got.LocalBytes(); !ok || b != w.bytes {
				t.Errorf("TP %d %s: LocalBytes = %d %v", c.tp, w.target, b, ok)
			}
			byName, err := l.Tensor(w.target)
			if err != nil || !reflect.DeepEqual(byName, got) {
				t.Errorf("TP %d %s: Tensor(target) = %+v, %v", c.tp, w.target, byName, err)
			}
		}
		l.Close()
	}
}

func TestLayoutJSONIsCanonical(t *testing.T) {
	m := gqaModel(t)
	defer m.Close()
	l, err := m.PlanRank(NewParallelTopology(4, 1, 1, 1), 3, PlanOptions{Policy: PolicyRequire})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	text, err := l.JSON()
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"schema":"eredu.layout.v1","topology":{"tensor":4,"pipeline":1,"expert":1,"data":1},"rank":3,"coordinates":{"tensor":3,"pipeline":0,"expert":0,"data":0},"policy":"require","tensors":[` +
		`{"target":"k.weight","logical_name":"layers.0.self_attn","role":"attention_heads","global_shape":[1024,4096],"local_shape":[256,4096],"placement":{"kind":"range","axis":0,"start":768,"end":1024},"logical_units":8,"logical_range":[6,8],"fell_back_to_replication":false,"local_bytes":2097152},` +
		`{"target":"o.weight","logical_name":"layers.0.self_attn","role":"attention_heads","global_shape":[4096,4096],"local_shape":[4096,1024],"placement":{"kind":"range","axis":1,"start":3072,"end":4096},"logical_units":8,"logical_range":[6,8],"fell_back_to_replication":false,"local_bytes":8388608},` +
		`{"target":"q.weight","logical_name":"layers.0.self_attn","role":"attention_heads","global_shape":[4096,4096],"local_shape":[1024,4096],"placement":{"kind":"range","axis":0,"start":3072,"end":4096},"logical_units":8,"logical_range":[6,8],"fell_back_to_replication":false,"local_bytes":8388608},` +
		`{"target":"v.weight","logical_name":"layers.0.self_attn","role":"attention_heads","global_shape":[1024,4096],"local_shape":[256,4096],"placement":{"kind":"range","axis":0,"start":768,"end":1024},"logical_units":8,"logical_range":[6,8],"fell_back_to_replication":false,"local_bytes":2097152}],` +
		`"totals":{"local_bytes":20971520,"global_bytes":83886080,"materialized_tensors":4,"omitted_tensors":0}}` + "\n"
	if text != want {
		t.Errorf("JSON =\n%s\nwant\n%s", text, want)
	}
	// The same description through the bulk path plans the same text.
	bulk, err := ModelFromJSON([]byte(`{"schema":"eredu.groups.v1","groups":[{"name":"layers.0.self_attn",` +
		`"role":"attention_heads","partition_units":8,"members":[` +
		`{"target":"q.weight","shape":[4096,4096],"dtype":"BF16","sharding":{"kind":"partitioned","axis":0}},` +
		`{"target":"k.weight","shape":[1024,4096],"dtype":"BF16","sharding":{"kind":"partitioned","axis":0}},` +
		`{"target":"v.weight","shape":[1024,4096],"dtype":"BF16","sharding":{"kind":"partitioned","axis":0}},` +
		`{"target":"o.weight","shape":[4096,4096],"dtype":"BF16","sharding":{"kind":"partitioned","axis":1}}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	defer bulk.Close()
	l2, err := PlanRank(bulk, NewParallelTopology(4, 1, 1, 1), 3, PlanOptions{Policy: PolicyRequire})
	if err != nil {
		t.Fatal(err)
	}
	defer l2.Close()
	if text2, err := l2.JSON(); err != nil || text2 != want {
		t.Errorf("bulk JSON = %q, %v", text2, err)
	}
}

func TestRequireEvenRefusesAnUnevenSplit(t *testing.T) {
	m := gqaModel(t)
	defer m.Close()
	_, err := m.PlanRank(NewParallelTopology(3, 1, 1, 1), 0, PlanOptions{Policy: PolicyRequireEven})
	assertError(t, err, ErrInvalidTensor,
		`logical parameter "layers.0.self_attn": the group's 8 partition units do not split evenly 3 ways under require_even; sizes up to 64 that divide it: 1, 2, 4, 8`)
	l, err := m.PlanRank(NewParallelTopology(4, 1, 1, 1), 3, PlanOptions{Policy: PolicyRequireEven})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if p, err := l.Policy(); err != nil || p != PolicyRequireEven || p.String() != "require_even" {
		t.Errorf("policy = %v, %v", p, err)
	}
}

func TestReplicateUnsupportedFallsBack(t *testing.T) {
	m := gqaModel(t)
	defer m.Close()
	_, err := m.PlanRank(NewParallelTopology(16, 1, 1, 1), 2, PlanOptions{Policy: PolicyRequire})
	assertError(t, err, ErrInvalidTensor,
		`logical parameter "layers.0.self_attn": 8 partition units — declared by the group — cannot be split 16 ways; tensor sizes up to 64 that work for this group: 1, 2, 3, 4, 5, 6, 7, 8`)
	l, err := m.PlanRank(NewParallelTopology(16, 1, 1, 1), 2, PlanOptions{Policy: PolicyReplicateUnsupported})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	q, err := l.Tensor("q.weight")
	if err != nil {
		t.Fatal(err)
	}
	if !q.FellBackToReplication() || q.Placement().Kind != PlacementReplicated ||
		!reflect.DeepEqual(q.LocalShape(), []uint64{4096, 4096}) {
		t.Errorf("fallback entry = %+v", q)
	}
	if r, ok := q.LogicalRange(); !ok || r != (Range{0, 8}) {
		t.Errorf("fallback range = %+v %v", r, ok)
	}
	if b, ok := q.LocalBytes(); !ok || b != 33554432 {
		t.Errorf("fallback bytes = %d %v", b, ok)
	}
}

func TestGroupAccessorsAndMembers(t *testing.T) {
	g := gqaAttention(t)
	defer g.Close()
	if name, err := g.LogicalName(); err != nil || name != "layers.0.self_attn" {
		t.Errorf("LogicalName = %q, %v", name, err)
	}
	if role, err := g.Role(); err != nil || role != RoleAttentionHeads {
		t.Errorf("Role = %v, %v", role, err)
	}
	if u, ok, err := g.PartitionUnits(); err != nil || !ok || u != 8 {
		t.Errorf("PartitionUnits = %d %v %v", u, ok, err)
	}
	wantInfo := GroupInfo{Name: "layers.0.self_attn", Role: RoleAttentionHeads, MemberCount: 4,
		PartitionUnits: 8, Partitioned: true}
	if info, err := g.Info(); err != nil || info != wantInfo {
		t.Errorf("Info = %+v, %v", info, err)
	}
	members, err := g.Members()
	if err != nil {
		t.Fatal(err)
	}
	want := []ParameterMemberSpec{
		NewParameterMemberSpec("q.weight", []uint64{4096, 4096}, ShardingPartitioned(0)).WithDType(DTypeBF16),
		NewParameterMemberSpec("k.weight", []uint64{1024, 4096}, ShardingPartitioned(0)).WithDType(DTypeBF16),
		NewParameterMemberSpec("v.weight", []uint64{1024, 4096}, ShardingPartitioned(0)).WithDType(DTypeBF16),
		NewParameterMemberSpec("o.weight", []uint64{4096, 4096}, ShardingPartitioned(1)).WithDType(DTypeBF16),
	}
	if !reflect.DeepEqual(members, want) {
		t.Errorf("Members = %+v", members)
	}
	seg, err := NewParameterGroupSpec("fused", RoleSegmented, []ParameterMemberSpec{
		NewParameterMemberSpec("qkv.weight", []uint64{12, 8}, ShardingSegmented(0, []Range{{0, 4}, {4, 8}, {8, 12}})),
	})
	if err != nil {
		t.Fatal(err)
	}
	defer seg.Close()
	got, err := seg.Members()
	if err != nil || len(got) != 1 || got[0].HasDType ||
		!reflect.DeepEqual(got[0].Sharding, ShardingSegmented(0, []Range{{0, 4}, {4, 8}, {8, 12}})) {
		t.Errorf("segmented Members = %+v, %v", got, err)
	}
	if u, ok, err := seg.PartitionUnits(); err != nil || ok || u != 0 {
		t.Errorf("unpartitioned PartitionUnits = %d %v %v", u, ok, err)
	}
}

// The seed tests groups_reject_duplicate_physical_targets and
// group_partition_contract_is_explicit, then the other construction errors.
func TestGroupConstructionErrors(t *testing.T) {
	q := NewParameterMemberSpec("q.weight", []uint64{8, 8}, ShardingReplicated())
	_, err := NewParameterGroupSpec("attention", RoleAttentionHeads, []ParameterMemberSpec{q, q})
	assertError(t, err, ErrInvalidGroup, `parallel parameter group "attention" repeats tensor target "q.weight"`)

	part := NewParameterMemberSpec("q.weight", []uint64{8, 8}, ShardingPartitioned(0))
	_, err = NewParameterGroupSpec("query", RoleAttentionHeads, []ParameterMemberSpec{part})
	assertError(t, err, ErrInvalidGroup, `parallel parameter group "query" must declare exactly one group-level logical partition for its partitioned members`)
	g, err := NewPartitionedParameterGroupSpec("query", RoleAttentionHeads, 4, []ParameterMemberSpec{part})
	if err != nil {
		t.Fatal(err)
	}
	g.Close()

	_, err = NewPartitionedParameterGroupSpec("query", RoleAttentionHeads, 0, []ParameterMemberSpec{part})
	assertError(t, err, ErrInvalidGroup, "parallel logical partition must contain at least one unit")
	_, err = NewParameterGroupSpec(" \t", RoleReplicated, []ParameterMemberSpec{q})
	assertError(t, err, ErrInvalidGroup, "parallel parameter logical name must not be empty")
	_, err = NewParameterGroupSpec("empty", RoleReplicated, nil)
	assertError(t, err, ErrInvalidGroup, `parallel parameter group "empty" must contain at least one tensor`)
	_, err = NewParameterGroupSpec("x", ParameterRole(99), []ParameterMemberSpec{q})
	assertError(t, err, ErrInvalidArgument, "unknown desc->role value 99")
	_, err = NewParameterGroupSpec("a\x00b", RoleReplicated, []ParameterMemberSpec{q})
	assertError(t, err, ErrInvalidArgument, `group name "a\x00b" contains a NUL byte`)
	_, err = BuildParameterGroupSpec(GroupDesc{Name: "scoped", Role: RoleReplicated,
		Scope: GroupScope{Kind: ScopeKindIndexed}, Members: []ParameterMemberSpec{q}})
	if !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("INDEXED scope without layer or expert: %v", err)
	}
}

func TestPlanningErrors(t *testing.T) {
	m := gqaModel(t)
	defer m.Close()
	_, err := m.PlanRank(NewParallelTopology(0, 1, 1, 1), 0, PlanOptions{Policy: PolicyRequire})
	assertError(t, err, ErrZeroAxis, "parallel topology axis sizes must be positive")
	_, err = m.PlanRank(NewParallelTopology(2, 1, 1, 1), 2, PlanOptions{Policy: PolicyRequire})
	assertError(t, err, ErrRankOutOfRange, "rank 2 is outside world size 2")
	_, err = m.PlanRank(NewParallelTopology(1, 2, 1, 1), 0, PlanOptions{Policy: PolicyRequire})
	assertError(t, err, ErrMissingLayerCount, "pipeline topology preflight requires the decoder-layer count")
	_, err = m.PlanRank(NewParallelTopology(1, 1, 1, 1), 0, PlanOptions{Policy: ShardingPolicy(7)})
	assertError(t, err, ErrInvalidArgument, "unknown options->policy value 7")
	_, err = ModelFromJSON([]byte(`{"schema":"eredu.groups.v2","groups":[]}`))
	assertError(t, err, ErrUnsupportedVersion, `unsupported schema "eredu.groups.v2"; this version reads "eredu.groups.v1"`)
	_, err = ModelFromJSON(nil)
	if !errors.Is(err, ErrParse) {
		t.Errorf("empty document: %v", err)
	}
	l, err := m.PlanRank(NewParallelTopology(1, 1, 1, 1), 0, PlanOptions{Policy: PolicyRequire})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	_, err = l.Tensor("nope")
	assertError(t, err, ErrNotFound, `the layout has no tensor "nope"`)
	_, err = l.TensorAt(4)
	assertError(t, err, ErrInvalidArgument, "tensor index 4 is out of range (count 4)")
	_, err = l.TensorAt(-1)
	if !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("negative index: %v", err)
	}
}

func TestModelInfoScopes(t *testing.T) {
	member := func(name string) []ParameterMemberSpec {
		return []ParameterMemberSpec{NewParameterMemberSpec(name, []uint64{4}, ShardingReplicated()).WithDType(DTypeF32)}
	}
	var groups []*ParameterGroupSpec
	for i, desc := range []GroupDesc{
		{Name: "embed", Scope: GroupScope{Kind: ScopeKindEmbedding}, Members: member("embed.weight")},
		{Name: "layer1", Scope: ScopeLayer(1), Members: member("layer1.weight")},
		{Name: "head", Scope: GroupScope{Kind: ScopeKindOutputHead}, Members: member("head.weight")},
	} {
		desc.Role = RoleReplicated
		g, err := BuildParameterGroupSpec(desc)
		if err != nil {
			t.Fatalf("group %d: %v", i, err)
		}
		defer g.Close()
		if info, err := g.Info(); err != nil || info.Scope != desc.Scope || info.Name != desc.Name {
			t.Errorf("group %d: Info = %+v, %v", i, info, err)
		}
		groups = append(groups, g)
	}
	m, err := ModelFromGroups(&ModelInfo{Name: "tiny", HasName: true, Layers: 2, HasLayers: true}, groups)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	// PP 2: stage 0 owns the embedding, stage 1 layer 1 and the head.
	for rank, want := range []map[string]PlacementKind{
		{"embed.weight": PlacementReplicated, "layer1.weight": PlacementOmit, "head.weight": PlacementOmit},
		{"embed.weight": PlacementOmit, "layer1.weight": PlacementReplicated, "head.weight": PlacementReplicated},
	} {
		l, err := m.PlanRank(NewParallelTopology(1, 2, 1, 1), uint64(rank), PlanOptions{Policy: PolicyRequire})
		if err != nil {
			t.Fatal(err)
		}
		for target, kind := range want {
			got, err := l.Tensor(target)
			if err != nil || got.Placement().Kind != kind {
				t.Errorf("rank %d %s: %v, %v", rank, target, got.Placement().Kind, err)
			}
		}
		l.Close()
	}
	_, err = ModelFromGroups(&ModelInfo{Layers: 1, HasLayers: true}, groups)
	if !errors.Is(err, ErrInvalidGroup) {
		t.Errorf("layer scope outside the model: %v", err)
	}
}

func assertError(t *testing.T, err error, sentinel *Error, message string) {
	t.Helper()
	if !errors.Is(err, sentinel) {
		t.Errorf("error = %v, want %s", err, sentinel.Name)
		return
	}
	var e *Error
	errors.As(err, &e)
	if e.Message != message || e.Name != sentinel.Name {
		t.Errorf("error = %s %q, want %s %q", e.Name, e.Message, sentinel.Name, message)
	}
}

func TestTensorPlacementString(t *testing.T) {
	cases := []struct {
		placement TensorPlacement
		want      string
	}{
		{TensorPlacement{Kind: PlacementReplicated}, "replicated"},
		{TensorPlacement{Kind: PlacementOmit}, "omit"},
		{TensorPlacement{Kind: PlacementRank, Rank: 3}, "rank 3"},
		{TensorPlacement{Kind: PlacementShard, Axis: 1, Index: 1, Parts: 4}, "shard 1 of 4 on axis 1"},
		{TensorPlacement{Kind: PlacementRange, Start: 1024, End: 2048}, "range axis 0 [1024, 2048)"},
		{TensorPlacement{Kind: PlacementIndices, Runs: []Range{{2, 4}, {6, 8}}, IndexCount: 4},
			"indices axis 0 [2, 4) [6, 8)"},
		{TensorPlacement{Kind: PlacementKind(9)}, "PlacementKind(9)"},
	}
	for _, c := range cases {
		if got := c.placement.String(); got != c.want {
			t.Errorf("%#v: %q, want %q", c.placement, got, c.want)
		}
	}
}
