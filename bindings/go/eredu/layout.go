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

// Len returns the number of tensors (every member of the model).
func (l *LocalModelLayout) Len() (int, error) {
	h, err := l.handle()
	if err != nil {
		return 0, err
	}
	var n C.size_t
	var cerr *C.eredu_error
	status := C.eredu_layout_tensor_count(h, &n, &cerr)
	runtime.KeepAlive(l)
	return int(n), takeError(status, cerr)
}

// Topology returns the topology the layout was planned for.
func (l *LocalModelLayout) Topology() (ParallelTopology, error) {
	h, err := l.handle()
	if err != nil {
		return ParallelTopology{}, err
	}
	var t, p, e, d C.uint64_t
	var cerr *C.eredu_error
	status := C.eredu_layout_topology(h, &t, &p, &e, &d, &cerr)
	runtime.KeepAlive(l)
	return ParallelTopology{uint64(t), uint64(p), uint64(e), uint64(d)}, takeError(status, cerr)
}

// Rank returns the global rank the layout was planned for.
func (l *LocalModelLayout) Rank() (uint64, error) {
	h, err := l.handle()
	if err != nil {
		return 0, err
	}
	var r C.uint64_t
	var cerr *C.eredu_error
	status := C.eredu_layout_rank(h, &r, &cerr)
	runtime.KeepAlive(l)
	return uint64(r), takeError(status, cerr)
}

// Coordinates returns the rank's coordinate on every axis.
func (l *LocalModelLayout) Coordinates() (ParallelCoordinates, error) {
	h, err := l.handle()
	if err != nil {
		return ParallelCoordinates{}, err
	}
	var t, p, e, d C.uint64_t
	var cerr *C.eredu_error
	status := C.eredu_layout_coordinates(h, &t, &p, &e, &d, &cerr)
	runtime.KeepAlive(l)
	return ParallelCoordinates{uint64(t), uint64(p), uint64(e), uint64(d)}, takeError(status, cerr)
}

// Policy returns the policy the layout was planned with.
func (l *LocalModelLayout) Policy() (ShardingPolicy, error) {
	h, err := l.handle()
	if err != nil {
		return 0, err
	}
	var p C.eredu_policy
	var cerr *C.eredu_error
	status := C.eredu_layout_policy(h, &p, &cerr)
	runtime.KeepAlive(l)
	return ShardingPolicy(p), takeError(status, cerr)
}

// Totals returns the layout's byte and tensor totals.
func (l *LocalModelLayout) Totals() (LayoutTotals, error) {
	h, err := l.handle()
	if err != nil {
		return LayoutTotals{}, err
	}
	var t C.eredu_layout_totals
	var cerr *C.eredu_error
	if err := takeError(C.eredu_layout_totals_init(&t, &cerr), cerr); err != nil {
		return LayoutTotals{}, err
	}
	status := C.eredu_layout_get_totals(h, &t, &cerr)
	runtime.KeepAlive(l)
	return LayoutTotals{
		LocalBytes:          uint64(t.local_bytes),
		GlobalBytes:         uint64(t.global_bytes),
		MaterializedTensors: uint64(t.materialized_tensors),
		OmittedTensors:      uint64(t.omitted_tensors),
		UnknownBytesTensors: uint64(t.unknown_bytes_tensors),
	}, takeError(status, cerr)
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
	n, err := l.Len()
	if err != nil {
		return nil, err
	}
	out := make([]LocalTensorLayout, n)
	for i := range out {
		if out[i], err = l.TensorAt(i); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// TensorAt returns a copy of entry i (ErrInvalidArgument for i out of
// range).
func (l *LocalModelLayout) TensorAt(i int) (LocalTensorLayout, error) {
	var t LocalTensorLayout
	var err error
	if t.target, err = l.Target(i); err != nil {
		return LocalTensorLayout{}, err
	}
	if t.logicalName, err = l.LogicalName(i); err != nil {
		return LocalTensorLayout{}, err
	}
	if t.role, err = l.Role(i); err != nil {
		return LocalTensorLayout{}, err
	}
	if t.dtype, t.hasDType, err = l.DType(i); err != nil {
		return LocalTensorLayout{}, err
	}
	if t.globalShape, err = l.GlobalShape(i); err != nil {
		return LocalTensorLayout{}, err
	}
	if t.localShape, err = l.LocalShape(i); err != nil {
		return LocalTensorLayout{}, err
	}
	if t.placement, err = l.Placement(i); err != nil {
		return LocalTensorLayout{}, err
	}
	if t.logicalUnits, t.hasLogicalUnits, err = l.LogicalUnits(i); err != nil {
		return LocalTensorLayout{}, err
	}
	if t.logicalRange, t.hasLogicalRange, err = l.LogicalRange(i); err != nil {
		return LocalTensorLayout{}, err
	}
	if t.fellBackToReplication, err = l.FellBackToReplication(i); err != nil {
		return LocalTensorLayout{}, err
	}
	if t.localBytes, t.hasLocalBytes, err = l.LocalBytes(i); err != nil {
		return LocalTensorLayout{}, err
	}
	return t, nil
}

// index converts a Go index; a negative one becomes SIZE_MAX, which the
// library refuses as out of range.
func index(i int) C.size_t {
	if i < 0 {
		return ^C.size_t(0)
	}
	return C.size_t(i)
}

// Target returns the checkpoint tensor name of entry i.
func (l *LocalModelLayout) Target(i int) (string, error) {
	h, err := l.handle()
	if err != nil {
		return "", err
	}
	var s *C.char
	var n C.size_t
	var cerr *C.eredu_error
	status := C.eredu_layout_tensor_target(h, index(i), &s, &n, &cerr)
	out := borrowedString(s, n)
	runtime.KeepAlive(l)
	return out, takeError(status, cerr)
}

// LogicalName returns the group name of entry i.
func (l *LocalModelLayout) LogicalName(i int) (string, error) {
	h, err := l.handle()
	if err != nil {
		return "", err
	}
	var s *C.char
	var n C.size_t
	var cerr *C.eredu_error
	status := C.eredu_layout_tensor_logical_name(h, index(i), &s, &n, &cerr)
	out := borrowedString(s, n)
	runtime.KeepAlive(l)
	return out, takeError(status, cerr)
}

// Role returns the group role of entry i.
func (l *LocalModelLayout) Role(i int) (ParameterRole, error) {
	h, err := l.handle()
	if err != nil {
		return 0, err
	}
	var r C.eredu_role
	var cerr *C.eredu_error
	status := C.eredu_layout_tensor_role(h, index(i), &r, &cerr)
	runtime.KeepAlive(l)
	return ParameterRole(r), takeError(status, cerr)
}

// DType returns the element type of entry i; ok is false without one.
func (l *LocalModelLayout) DType(i int) (d DType, ok bool, err error) {
	h, err := l.handle()
	if err != nil {
		return 0, false, err
	}
	var v C.eredu_dtype
	var present C.bool
	var cerr *C.eredu_error
	status := C.eredu_layout_tensor_dtype(h, index(i), &v, &present, &cerr)
	runtime.KeepAlive(l)
	return DType(v), bool(present), takeError(status, cerr)
}

// GlobalShape returns the checkpoint shape of entry i.
func (l *LocalModelLayout) GlobalShape(i int) ([]uint64, error) {
	h, err := l.handle()
	if err != nil {
		return nil, err
	}
	var shape *C.uint64_t
	var ndim C.size_t
	var cerr *C.eredu_error
	status := C.eredu_layout_tensor_global_shape(h, index(i), &shape, &ndim, &cerr)
	out := borrowedUint64s(shape, ndim)
	runtime.KeepAlive(l)
	return out, takeError(status, cerr)
}

// LocalShape returns the shape of entry i on this rank (nil when omitted).
func (l *LocalModelLayout) LocalShape(i int) ([]uint64, error) {
	h, err := l.handle()
	if err != nil {
		return nil, err
	}
	var shape *C.uint64_t
	var ndim C.size_t
	var cerr *C.eredu_error
	status := C.eredu_layout_tensor_local_shape(h, index(i), &shape, &ndim, &cerr)
	out := borrowedUint64s(shape, ndim)
	runtime.KeepAlive(l)
	return out, takeError(status, cerr)
}

// Placement returns the placement of entry i.
func (l *LocalModelLayout) Placement(i int) (TensorPlacement, error) {
	h, err := l.handle()
	if err != nil {
		return TensorPlacement{}, err
	}
	var p C.eredu_placement
	var cerr *C.eredu_error
	if err := takeError(C.eredu_placement_init(&p, &cerr), cerr); err != nil {
		return TensorPlacement{}, err
	}
	status := C.eredu_layout_tensor_placement(h, index(i), &p, &cerr)
	var runs []Range
	if p.run_count > 0 {
		flat := unsafe.Slice((*uint64)(unsafe.Pointer(p.runs)), 2*int(p.run_count))
		runs = make([]Range, int(p.run_count))
		for j := range runs {
			runs[j] = Range{flat[2*j], flat[2*j+1]}
		}
	}
	runtime.KeepAlive(l)
	if err := takeError(status, cerr); err != nil {
		return TensorPlacement{}, err
	}
	return TensorPlacement{
		Kind:       PlacementKind(p.kind),
		Axis:       uint64(p.axis),
		Rank:       uint64(p.rank),
		Index:      uint64(p.index),
		Parts:      uint64(p.parts),
		Start:      uint64(p.start),
		End:        uint64(p.end),
		Runs:       runs,
		IndexCount: uint64(p.index_count),
	}, nil
}

// LogicalUnits returns the group's logical-unit count of entry i; ok is
// false when the group has no partition.
func (l *LocalModelLayout) LogicalUnits(i int) (units uint64, ok bool, err error) {
	h, err := l.handle()
	if err != nil {
		return 0, false, err
	}
	var u C.uint64_t
	var present C.bool
	var cerr *C.eredu_error
	status := C.eredu_layout_tensor_logical_units(h, index(i), &u, &present, &cerr)
	runtime.KeepAlive(l)
	return uint64(u), bool(present), takeError(status, cerr)
}

// LogicalRange returns the logical units entry i's rank owns; ok is false
// when the group has no partition or the tensor is omitted.
func (l *LocalModelLayout) LogicalRange(i int) (r Range, ok bool, err error) {
	h, err := l.handle()
	if err != nil {
		return Range{}, false, err
	}
	var start, end C.uint64_t
	var present C.bool
	var cerr *C.eredu_error
	status := C.eredu_layout_tensor_logical_range(h, index(i), &start, &end, &present, &cerr)
	runtime.KeepAlive(l)
	return Range{uint64(start), uint64(end)}, bool(present), takeError(status, cerr)
}

// FellBackToReplication reports whether entry i's group was replicated by
// PolicyReplicateUnsupported.
func (l *LocalModelLayout) FellBackToReplication(i int) (bool, error) {
	h, err := l.handle()
	if err != nil {
		return false, err
	}
	var b C.bool
	var cerr *C.eredu_error
	status := C.eredu_layout_tensor_fell_back(h, index(i), &b, &cerr)
	runtime.KeepAlive(l)
	return bool(b), takeError(status, cerr)
}

// LocalBytes returns the bytes of entry i on this rank; ok is false for a
// materialized tensor without a dtype.
func (l *LocalModelLayout) LocalBytes(i int) (bytes uint64, ok bool, err error) {
	h, err := l.handle()
	if err != nil {
		return 0, false, err
	}
	var b C.uint64_t
	var present C.bool
	var cerr *C.eredu_error
	status := C.eredu_layout_tensor_local_bytes(h, index(i), &b, &present, &cerr)
	runtime.KeepAlive(l)
	return uint64(b), bool(present), takeError(status, cerr)
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
