// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

package eredu

import (
	"errors"
	"reflect"
	"testing"
)

// The seed test preferred_partition_units_follow_every_physical_companion.
func TestPreferredPartitionUnitsFollowEveryCompanion(t *testing.T) {
	g, err := PartitionedGroupWithPreferredUnits("experts.intermediate", RoleExpertIntermediate, 64, GroupScope{},
		[]ParameterMemberSpec{
			NewParameterMemberSpec("experts.up_proj", []uint64{4, 64, 16}, ShardingPartitioned(1)),
			NewParameterMemberSpec("experts.down_proj", []uint64{4, 16, 8}, ShardingPartitioned(2)),
			NewParameterMemberSpec("experts.down_proj_scales", []uint64{4, 16, 2}, ShardingPartitioned(2)),
		})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if u, ok, err := g.PartitionUnits(); err != nil || !ok || u != 2 {
		t.Errorf("PartitionUnits = %d %v %v", u, ok, err)
	}
	if u, err := AlignedPartitionUnits("heads", 32, 128, 256); err != nil || u != 16 {
		t.Errorf("AlignedPartitionUnits = %d, %v", u, err)
	}
	_, err = AlignedPartitionUnits("heads", 0, 128, 256)
	assertError(t, err, ErrInvalidGroup,
		"heads aligned partition dimensions must be positive, got units=0, width=128, alignment=256")
}

// The seed test fp8_expansion_uses_architecture_declared_companion_identity.
func TestFp8ExpansionUsesDeclaredCompanionIdentity(t *testing.T) {
	g, err := NewPartitionedParameterGroupSpec("query", RoleAttentionHeads, 8, []ParameterMemberSpec{
		NewParameterMemberSpec("opaque_matrix", []uint64{256, 256}, ShardingPartitioned(0)),
	})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	spec := &LinearFormatSpec{Format: BlockFp8Format(128, 128, BlockFp8ScaleUE8M0), Scale: "opaque_scale"}
	expanded, err := g.ExpandLinearFormat([]*LinearFormatSpec{spec})
	if err != nil {
		t.Fatal(err)
	}
	defer expanded.Close()
	if u, ok, err := expanded.PartitionUnits(); err != nil || !ok || u != 2 {
		t.Errorf("PartitionUnits = %d %v %v", u, ok, err)
	}
	members, err := expanded.Members()
	if err != nil {
		t.Fatal(err)
	}
	want := []ParameterMemberSpec{
		NewParameterMemberSpec("opaque_matrix", []uint64{256, 256}, ShardingPartitioned(0)),
		NewParameterMemberSpec("opaque_scale", []uint64{2, 2}, ShardingPartitioned(0)).WithDType(DTypeF8E8M0),
	}
	if !reflect.DeepEqual(members, want) {
		t.Errorf("members = %+v", members)
	}

	m, err := ModelFromGroups(nil, []*ParameterGroupSpec{g})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	em, err := m.ExpandLinearFormat([]*LinearFormatSpec{spec})
	if err != nil {
		t.Fatal(err)
	}
	defer em.Close()
	if n := em.TensorCount(); n != 2 {
		t.Errorf("expanded model TensorCount = %d", n)
	}
	_, err = m.ExpandLinearFormat(nil)
	if !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("spec count mismatch: %v", err)
	}
}

func TestLinearFormats(t *testing.T) {
	if err := AffineFormat(64, 4).Validate(); err != nil {
		t.Error(err)
	}
	assertError(t, AffineFormat(48, 4).Validate(), ErrInvalidFormat,
		"group_size must be 16 or a positive multiple of 32, got 48")
	assertError(t, AffineFormat(64, 7).Validate(), ErrInvalidFormat, "bits must be one of 2, 3, 4, 5, 6, or 8, got 7")
	assertError(t, BlockFp8Format(0, 128, BlockFp8ScaleFloat).Validate(), ErrInvalidFormat,
		"block-FP8 geometry must be positive, got [0, 128]")
	assertError(t, GGUFFormat(4).Validate(), ErrInvalidFormat, "unsupported GGML tensor type 4")

	q4k, err := GgmlTypeByName("Q4_K")
	if err != nil {
		t.Fatal(err)
	}
	byCode, err := GgmlTypeByCode(q4k.Code)
	if err != nil || byCode != q4k || q4k.BlockValues != 256 || q4k.BlockBytes != 144 {
		t.Errorf("Q4_K = %+v / %+v, %v", q4k, byCode, err)
	}
	if _, err := GgmlTypeByName("Q9_Z"); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown GGML name: %v", err)
	}

	affine := LinearFormatSpec{Format: AffineFormat(64, 4), Scale: "w.scales", AffineBias: "w.biases"}
	if err := affine.Validate(); err != nil {
		t.Fatal(err)
	}
	members, err := ExpandLinearFormatMember(
		NewParameterMemberSpec("w", []uint64{8, 128}, ShardingEqual(0)).WithDType(DTypeBF16), affine)
	if err != nil {
		t.Fatal(err)
	}
	want := []ParameterMemberSpec{
		NewParameterMemberSpec("w", []uint64{8, 16}, ShardingEqual(0)).WithDType(DTypeU32),
		NewParameterMemberSpec("w.scales", []uint64{8, 2}, ShardingEqual(0)).WithDType(DTypeBF16),
		NewParameterMemberSpec("w.biases", []uint64{8, 2}, ShardingEqual(0)).WithDType(DTypeBF16),
	}
	if !reflect.DeepEqual(members, want) {
		t.Errorf("affine expansion = %+v", members)
	}
	noScale := LinearFormatSpec{Format: AffineFormat(64, 4)}
	if err := noScale.Validate(); !errors.Is(err, ErrInvalidFormat) {
		t.Errorf("affine without companions: %v", err)
	}
}
