// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

package eredu

/*
#include <eredu/eredu.h>
*/
import "C"

import (
	"fmt"
	"runtime"
	"strings"
	"unsafe"
)

// TensorPlacement is how a rank selects one tensor (seed TensorPlacement).
// Fields a kind does not use are zero.
type TensorPlacement struct {
	Kind PlacementKind
	// Axis is the selected axis of Shard, Range and Indices.
	Axis uint64
	// Rank is the owning global rank of Rank.
	Rank uint64
	// Index and Parts are this rank's part and the part count of Shard.
	Index, Parts uint64
	// Start and End bound the element range [Start, End) of Range.
	Start, End uint64
	// Runs are the ordered half-open runs of Indices, adjacent runs merged;
	// their concatenation is the seed's index list.
	Runs []Range
	// IndexCount is the number of indices of Indices.
	IndexCount uint64
}

// Indices expands Runs into the seed's ordered index list (nil for kinds
// other than Indices).
func (p TensorPlacement) Indices() []uint64 {
	if p.Kind != PlacementIndices {
		return nil
	}
	out := make([]uint64, 0, p.IndexCount)
	for _, r := range p.Runs {
		for i := r.Start; i < r.End; i++ {
			out = append(out, i)
		}
	}
	return out
}

// String describes the placement in the words of eredu.layout.v1:
// "replicated", "local", "omit", "rank 3", "shard 1 of 4 on axis 0",
// "range axis 0 [1024, 2048)", "indices axis 0 [2, 4) [6, 8)".
func (p TensorPlacement) String() string {
	switch p.Kind {
	case PlacementRank:
		return fmt.Sprintf("rank %d", p.Rank)
	case PlacementShard:
		return fmt.Sprintf("shard %d of %d on axis %d", p.Index, p.Parts, p.Axis)
	case PlacementRange:
		return fmt.Sprintf("range axis %d [%d, %d)", p.Axis, p.Start, p.End)
	case PlacementIndices:
		var b strings.Builder
		fmt.Fprintf(&b, "indices axis %d", p.Axis)
		for _, r := range p.Runs {
			fmt.Fprintf(&b, " [%d, %d)", r.Start, r.End)
		}
		return b.String()
	default:
		return p.Kind.String()
	}
}

// LayoutTotals are the byte and tensor totals of a layout.
type LayoutTotals struct {
	// LocalBytes are the bytes this rank materializes (tensors with a dtype).
	LocalBytes uint64
	// GlobalBytes are the bytes of the whole model (tensors with a dtype).
	GlobalBytes         uint64
	MaterializedTensors uint64
	OmittedTensors      uint64
	UnknownBytesTensors uint64
}

// LocalTensorLayout is a copy of one tensor's entry in a layout (seed
// LocalTensorLayout, plus its target, dtype and bytes).
type LocalTensorLayout struct {
	target                string
	logicalName           string
	role                  ParameterRole
	dtype                 DType
	hasDType              bool
	globalShape           []uint64
	localShape            []uint64
	placement             TensorPlacement
	logicalUnits          uint64
	hasLogicalUnits       bool
	logicalRange          Range
	hasLogicalRange       bool
	fellBackToReplication bool
	localBytes            uint64
	hasLocalBytes         bool
	kvHeadCopies          uint64
	paddingRows           uint64
	expertRange           ExpertRange
	hasExpertRange        bool
}

// ExpertRange is the routed experts [Start, End) a rank holds on axis Axis
// of a member stacking them (eredu.layout.v1 `expert_range`, Stacked
// experts, docs/planning.md).
type ExpertRange struct {
	Axis, Start, End uint64
}

// Target returns the checkpoint tensor name.
func (t LocalTensorLayout) Target() string { return t.target }

// LogicalName returns the name of the tensor's group.
func (t LocalTensorLayout) LogicalName() string { return t.logicalName }

// Role returns the role of the tensor's group.
func (t LocalTensorLayout) Role() ParameterRole { return t.role }

// DType returns the element type; ok is false when the member has none.
func (t LocalTensorLayout) DType() (d DType, ok bool) { return t.dtype, t.hasDType }

// GlobalShape returns the checkpoint shape in elements.
func (t LocalTensorLayout) GlobalShape() []uint64 { return t.globalShape }

// LocalShape returns the shape on this rank (empty for an omitted tensor).
func (t LocalTensorLayout) LocalShape() []uint64 { return t.localShape }

// Placement returns the rank's selection.
func (t LocalTensorLayout) Placement() TensorPlacement { return t.placement }

// LogicalUnits returns the group's logical-unit count; ok is false when the
// group has no partition.
func (t LocalTensorLayout) LogicalUnits() (units uint64, ok bool) {
	return t.logicalUnits, t.hasLogicalUnits
}

// LogicalRange returns the logical units this rank owns; ok is false when
// the group has no partition or the tensor is omitted.
func (t LocalTensorLayout) LogicalRange() (r Range, ok bool) {
	return t.logicalRange, t.hasLogicalRange
}

// FellBackToReplication reports whether permissive planning replicated the
// group.
func (t LocalTensorLayout) FellBackToReplication() bool { return t.fellBackToReplication }

// LocalBytes returns the bytes on this rank (0 when omitted); ok is false
// for a materialized tensor without a dtype.
func (t LocalTensorLayout) LocalBytes() (bytes uint64, ok bool) {
	return t.localBytes, t.hasLocalBytes
}

// KVHeadCopies returns the tensor ranks holding this same selection
// (eredu.layout.v1 `kv_head_copies`): T/H for a PerKVHead member of a group
// with H KV heads planned at a tensor size T above H (KV-head replication),
// else 1.
func (t LocalTensorLayout) KVHeadCopies() uint64 { return t.kvHeadCopies }

// PaddingRows returns the rows of LocalShape past the checkpoint's under
// vocabulary padding (eredu.layout.v1 `padding_rows`, see
// GroupDesc.VocabPadMultiple): allocated on this rank, not read; the range
// is the rows read, empty on a rank holding only padding. Else 0.
func (t LocalTensorLayout) PaddingRows() uint64 { return t.paddingRows }

// ExpertRange returns the routed experts this rank holds of a member
// stacking them (ParameterMemberSpec.ExpertAxis), on top of Placement; a
// member the tensor ranks replicate has the range placement of the same
// experts. ok is false for other members and when the rank omits it.
func (t LocalTensorLayout) ExpertRange() (experts ExpertRange, ok bool) {
	return t.expertRange, t.hasExpertRange
}

// LocalModelLayout is the immutable plan of one rank (seed
// LocalModelLayout), owning an eredu_layout. Tensors are addressed by index
// 0..Len()-1 in byte-wise ascending target order. Safe for concurrent
// readers; Close releases it.
type LocalModelLayout struct {
	ptr *C.eredu_layout
}

func newLayout(p *C.eredu_layout) *LocalModelLayout {
	l := &LocalModelLayout{ptr: p}
	runtime.SetFinalizer(l, (*LocalModelLayout).Close)
	return l
}

// Close releases the layout. Idempotent; always returns nil.
func (l *LocalModelLayout) Close() error {
	if l == nil || l.ptr == nil {
		return nil
	}
	runtime.SetFinalizer(l, nil)
	C.eredu_layout_free(l.ptr)
	l.ptr = nil
	return nil
}

func (l *LocalModelLayout) handle() (*C.eredu_layout, error) {
	if l == nil || l.ptr == nil {
		return nil, closedError("LocalModelLayout")
	}
	return l.ptr, nil
}

// Len returns the number of tensors (every member of the model;
// eredu_layout_tensor_count, which cannot fail); 0 for a closed layout.
func (l *LocalModelLayout) Len() int {
	h, err := l.handle()
	if err != nil {
		return 0
	}
	n := C.eredu_layout_tensor_count(h)
	runtime.KeepAlive(l)
	return int(n)
}

// Topology returns the topology the layout was planned for.
func (l *LocalModelLayout) Topology() (ParallelTopology, error) {
	h, err := l.handle()
	if err != nil {
		return ParallelTopology{}, err
	}
	t := C.eredu_topology{struct_size: C.sizeof_eredu_topology}
	var cerr *C.eredu_error
	status := C.eredu_layout_topology(h, &t, &cerr)
	runtime.KeepAlive(l)
	if err := takeError(status, cerr); err != nil {
		return ParallelTopology{}, err
	}
	return topologyFromC(&t), nil
}

// LayoutInfo is what a layout is besides its tensors (eredu_layout_info).
type LayoutInfo struct {
	// Policy is the policy the layout was planned with.
	Policy ShardingPolicy
	// Rank is the global rank, Coordinates its coordinate on every axis.
	Rank        uint64
	Coordinates ParallelCoordinates
	// TensorCount is Len().
	TensorCount int
	Totals      LayoutTotals
}

// Info returns the layout's policy, rank, coordinates, tensor count and
// totals in one call (eredu_layout_get_info).
func (l *LocalModelLayout) Info() (LayoutInfo, error) {
	h, err := l.handle()
	if err != nil {
		return LayoutInfo{}, err
	}
	i := C.eredu_layout_info{struct_size: C.sizeof_eredu_layout_info}
	var cerr *C.eredu_error
	status := C.eredu_layout_get_info(h, &i, &cerr)
	runtime.KeepAlive(l)
	if err := takeError(status, cerr); err != nil {
		return LayoutInfo{}, err
	}
	return LayoutInfo{
		Policy: ShardingPolicy(i.policy),
		Rank:   uint64(i.rank),
		Coordinates: ParallelCoordinates{uint64(i.tensor_rank), uint64(i.pipeline_rank),
			uint64(i.expert_rank), uint64(i.data_rank)},
		TensorCount: int(i.tensor_count),
		Totals: LayoutTotals{
			LocalBytes:          uint64(i.local_bytes),
			GlobalBytes:         uint64(i.global_bytes),
			MaterializedTensors: uint64(i.materialized_tensors),
			OmittedTensors:      uint64(i.omitted_tensors),
			UnknownBytesTensors: uint64(i.unknown_bytes_tensors),
		},
	}, nil
}

// Rank returns the global rank the layout was planned for (Info().Rank).
func (l *LocalModelLayout) Rank() (uint64, error) {
	i, err := l.Info()
	return i.Rank, err
}

// Coordinates returns the rank's coordinate on every axis
// (Info().Coordinates).
func (l *LocalModelLayout) Coordinates() (ParallelCoordinates, error) {
	i, err := l.Info()
	return i.Coordinates, err
}

// Policy returns the policy the layout was planned with (Info().Policy).
func (l *LocalModelLayout) Policy() (ShardingPolicy, error) {
	i, err := l.Info()
	return i.Policy, err
}

// Totals returns the layout's byte and tensor totals (Info().Totals).
func (l *LocalModelLayout) Totals() (LayoutTotals, error) {
	i, err := l.Info()
	return i.Totals, err
}

// Find returns the index of the tensor named target (ErrNotFound when
// there is none; ErrInvalidArgument for invalid UTF-8 or a NUL byte).
func (l *LocalModelLayout) Find(target string) (int, error) {
	h, err := l.handle()
	if err != nil {
		return 0, err
	}
	var mem cMemory
	defer mem.free()
	ctarget, err := mem.cstring(target, "tensor target")
	if err != nil {
		return 0, err
	}
	var i C.size_t
	var cerr *C.eredu_error
	status := C.eredu_layout_find_tensor(h, ctarget, &i, &cerr)
	runtime.KeepAlive(l)
	return int(i), takeError(status, cerr)
}

// Tensor returns the entry of the tensor named target (seed
// LocalModelLayout::tensor); ErrNotFound when there is none.
func (l *LocalModelLayout) Tensor(target string) (LocalTensorLayout, error) {
	i, err := l.Find(target)
	if err != nil {
		return LocalTensorLayout{}, err
	}
	return l.TensorAt(i)
}

// Tensors returns every entry in target order (seed
// LocalModelLayout::tensors).
func (l *LocalModelLayout) Tensors() ([]LocalTensorLayout, error) {
	if _, err := l.handle(); err != nil {
		return nil, err
	}
	out := make([]LocalTensorLayout, l.Len())
	for i := range out {
		var err error
		if out[i], err = l.TensorAt(i); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// tensorInfoCall is the memory of one eredu_layout_get_tensor_info call:
// the output struct and the error slot, one allocation.
type tensorInfoCall struct {
	info C.eredu_layout_tensor_info
	cerr *C.eredu_error
}

// TensorAt returns a copy of entry i, every field read by one library call
// (eredu_layout_get_tensor_info); ErrInvalidArgument for i out of range.
func (l *LocalModelLayout) TensorAt(i int) (LocalTensorLayout, error) {
	h, err := l.handle()
	if err != nil {
		return LocalTensorLayout{}, err
	}
	call := &tensorInfoCall{info: C.eredu_layout_tensor_info{struct_size: C.sizeof_eredu_layout_tensor_info}}
	status := C.eredu_layout_get_tensor_info(h, index(i), &call.info, &call.cerr)
	var t LocalTensorLayout
	if status == C.EREDU_OK {
		t = tensorFromC(&call.info) // copies what the layout lends
	}
	runtime.KeepAlive(l)
	if err := takeError(status, call.cerr); err != nil {
		return LocalTensorLayout{}, err
	}
	return t, nil
}

// tensorFromC copies every field of a tensor info; its strings share one
// allocation, its shapes another.
func tensorFromC(info *C.eredu_layout_tensor_info) LocalTensorLayout {
	t := LocalTensorLayout{
		role:                  ParameterRole(info.role),
		dtype:                 DType(info.dtype),
		hasDType:              info.has_dtype != 0,
		logicalUnits:          uint64(info.logical_units),
		hasLogicalUnits:       info.has_logical_units != 0,
		logicalRange:          Range{uint64(info.logical_start), uint64(info.logical_end)},
		hasLogicalRange:       info.has_logical_range != 0,
		fellBackToReplication: info.fell_back_to_replication != 0,
		localBytes:            uint64(info.local_bytes),
		hasLocalBytes:         info.has_local_bytes != 0,
		kvHeadCopies:          uint64(info.kv_head_copies),
		paddingRows:           uint64(info.padding_rows),
		expertRange: ExpertRange{Axis: uint64(info.expert_axis), Start: uint64(info.expert_start),
			End: uint64(info.expert_end)},
		hasExpertRange: info.has_expert_range != 0,
		placement: TensorPlacement{
			Kind:       PlacementKind(info.placement),
			Axis:       uint64(info.axis),
			Rank:       uint64(info.owner_rank),
			Index:      uint64(info.shard_index),
			Parts:      uint64(info.shard_parts),
			Start:      uint64(info.start),
			End:        uint64(info.end),
			IndexCount: uint64(info.index_count),
		},
	}
	t.target, t.logicalName = borrowedStrings(info.target, info.target_length,
		info.logical_name, info.logical_name_length)
	t.globalShape, t.localShape = borrowedShapes(info.global_shape, info.global_ndim,
		info.local_shape, info.local_ndim)
	if info.run_count > 0 {
		flat := unsafe.Slice((*uint64)(unsafe.Pointer(info.runs)), 2*int(info.run_count))
		t.placement.Runs = make([]Range, int(info.run_count))
		for j := range t.placement.Runs {
			t.placement.Runs[j] = Range{flat[2*j], flat[2*j+1]}
		}
	}
	return t
}

// index converts a Go index; a negative one becomes SIZE_MAX, which the
// library refuses as out of range.
func index(i int) C.size_t {
	if i < 0 {
		return ^C.size_t(0)
	}
	return C.size_t(i)
}

// JSON returns the canonical eredu.layout.v1 text (compact, one trailing
// newline), byte-identical across bindings.
func (l *LocalModelLayout) JSON() (string, error) {
	h, err := l.handle()
	if err != nil {
		return "", err
	}
	var text *C.char
	var n C.size_t
	var cerr *C.eredu_error
	status := C.eredu_layout_to_json(h, &text, &n, &cerr)
	runtime.KeepAlive(l)
	if err := takeError(status, cerr); err != nil {
		return "", err
	}
	return takeText(text, n), nil
}
