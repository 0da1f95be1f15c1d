// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

package eredu

import (
	"errors"
	"reflect"
	"testing"
)

// The seed test static_unit_bindings_are_runtime_owned_and_decomposable.
func TestStaticUnitBindings(t *testing.T) {
	binding := WeightBinding{Name: "embedding", CheckpointKey: "model.embedding.weight", ExpectedBytes: 16}
	if err := binding.Validate(); err != nil {
		t.Fatal(err)
	}
	unit, err := NewStaticUnitBindings("static.embedding", []WeightBinding{binding})
	if err != nil {
		t.Fatal(err)
	}
	defer unit.Close()
	if id, err := unit.ID(); err != nil || id != "static.embedding" {
		t.Errorf("ID = %q, %v", id, err)
	}
	if got, err := unit.Bindings(); err != nil || !reflect.DeepEqual(got, []WeightBinding{binding}) {
		t.Errorf("Bindings = %+v, %v", got, err)
	}
	ranged := WeightBinding{Name: "q", CheckpointKey: "q.weight", ExpectedBytes: 8, LogicalTarget: "attn.q",
		Selection: TensorSelection{Kind: SelectionIndices, Axis: 1, Indices: []uint64{3, 1}}}
	unit2, err := NewStaticUnitBindings("static.q", []WeightBinding{ranged})
	if err != nil {
		t.Fatal(err)
	}
	defer unit2.Close()
	if got, err := unit2.Bindings(); err != nil || !reflect.DeepEqual(got, []WeightBinding{ranged}) {
		t.Errorf("indexed Bindings = %+v, %v", got, err)
	}
	assertError(t, WeightBinding{Name: " ", CheckpointKey: "k", ExpectedBytes: 1}.Validate(),
		ErrInvalidBindingName, "weight binding names must not be empty")
	assertError(t, WeightBinding{Name: "w", CheckpointKey: "k"}.Validate(), ErrZeroSizedBinding,
		`weight binding "w" must contain at least one byte`)
	_, err = NewStaticUnitBindings(" ", []WeightBinding{binding})
	assertError(t, err, ErrEmptyUnitID, "offload unit identifiers must not be empty")
	bad := binding
	bad.Selection.Start = 1
	if err := bad.Validate(); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("FULL selection with a start: %v", err)
	}
}

// The seed test layerwise_metadata_is_runtime_owned_and_updateable.
func TestLayerwiseModelMetadata(t *testing.T) {
	m, err := NewLayerwiseModelMetadata(LayerwiseModelMetadataDesc{EffectiveModelType: "generic",
		LayerCount: 4, StaticDeviceBytes: 10, Residency: ExecutionLayerwiseHost, LayerParameterBytes: 20,
		MaximumDeviceLayerBytes: 8, MaximumHostLayerBytes: 6, DeviceLayerCapacity: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if err := m.SetEffectiveModelType("llama"); err != nil {
		t.Fatal(err)
	}
	affine := AffineFormat(64, 4)
	if err := m.SetQuantization(&affine); err != nil {
		t.Fatal(err)
	}
	got, err := m.Desc()
	if err != nil {
		t.Fatal(err)
	}
	want := LayerwiseModelMetadataDesc{EffectiveModelType: "llama",
		Quantization: &LinearFormat{Kind: LinearFormatAffine, AffineGroupSize: 64, AffineBits: 4},
		LayerCount:   4, StaticDeviceBytes: 10, Residency: ExecutionLayerwiseHost, LayerParameterBytes: 20,
		MaximumDeviceLayerBytes: 8, MaximumHostLayerBytes: 6, DeviceLayerCapacity: 2}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Desc = %+v", got)
	}
	fp8 := BlockFp8Format(128, 128, BlockFp8ScaleFloat)
	if err := m.SetQuantization(&fp8); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("block-FP8 quantization: %v", err)
	}
	if err := m.SetQuantization(nil); err != nil {
		t.Fatal(err)
	}
	if got, err := m.Desc(); err != nil || got.Quantization != nil {
		t.Errorf("Desc after clearing = %+v, %v", got, err)
	}
}

// The seed test parallel_model_info_preserves_opaque_topology_and_accounting.
func TestParallelModelInfo(t *testing.T) {
	info, err := NewParallelModelInfo(NewParallelTopology(2, 1, 1, 1), "generic", []string{"layer.weight"}, 10, 20, 4, 8)
	want := ParallelModelInfo{Topology: ParallelTopology{2, 1, 1, 1}, EffectiveModelType: "generic",
		OwnedTensors: []string{"layer.weight"}, LocalParameterBytes: 10, GlobalParameterBytes: 20,
		PinnedDeviceParameterBytes: 4, MaximumDeviceParameterBytes: 8}
	if err != nil || !reflect.DeepEqual(info, want) {
		t.Errorf("ParallelModelInfo = %+v, %v", info, err)
	}
	_, err = NewParallelModelInfo(NewParallelTopology(0, 1, 1, 1), "generic", nil, 0, 0, 0, 0)
	assertError(t, err, ErrZeroAxis, "parallel topology axis sizes must be positive")
}

func TestProjectionGroups(t *testing.T) {
	weight := ModuleParameter{ID: "up.weight", Shape: []uint64{8, 4}, DType: DTypeF32, HasDType: true}
	bias := ModuleParameter{ID: "up.bias", Shape: []uint64{8}}
	g, err := ProjectionParameterGroup("up", RoleColumnProjection, GroupScope{}, []ModuleParameter{weight, bias}, ProjectionColumn)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	members, err := g.Members()
	want := []ParameterMemberSpec{
		NewParameterMemberSpec("up.weight", []uint64{8, 4}, ShardingEqual(0)).WithDType(DTypeF32),
		NewParameterMemberSpec("up.bias", []uint64{8}, ShardingEqual(0)),
	}
	if err != nil || !reflect.DeepEqual(members, want) {
		t.Errorf("column members = %+v, %v", members, err)
	}

	down := ModuleParameter{ID: "down.weight", Shape: []uint64{4, 8}}
	p, err := PartitionedProjectionGroup("mlp", RoleFeedForwardIntermediate, GroupScope{}, []Projection{
		{Parameters: []ModuleParameter{weight, bias}, Placement: ProjectionColumn},
		{Parameters: []ModuleParameter{down}, Placement: ProjectionRow},
	}, 8)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if u, ok, err := p.PartitionUnits(); err != nil || !ok || u != 8 {
		t.Errorf("partitioned units = %d %v %v", u, ok, err)
	}

	fused := []ModuleParameter{{ID: "qkv.weight", Shape: []uint64{12, 8}}}
	row := []ModuleParameter{{ID: "o.weight", Shape: []uint64{8, 4}}}
	segments := []Range{{0, 4}, {4, 8}, {8, 12}}
	s, err := SegmentedProjectionGroup("attn", RoleAttentionHeads, GroupScope{}, fused, row, segments, 2)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	members, err = s.Members()
	want = []ParameterMemberSpec{
		NewParameterMemberSpec("qkv.weight", []uint64{12, 8}, ShardingPartitionedSegments(0, segments)),
		NewParameterMemberSpec("o.weight", []uint64{8, 4}, ShardingPartitioned(1)),
	}
	if err != nil || !reflect.DeepEqual(members, want) {
		t.Errorf("segmented members = %+v, %v", members, err)
	}
	_, err = SegmentedProjectionGroup("attn", RoleAttentionHeads, GroupScope{}, fused, row, []Range{{0, 4}, {5, 12}}, 2)
	assertError(t, err, ErrInvalidGroup, "segmented projection ranges must be positive, contiguous, and ordered, got [0..4, 5..12]")
}
