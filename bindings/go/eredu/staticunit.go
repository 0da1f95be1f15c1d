// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

package eredu

/*
#include <eredu/eredu.h>
*/
import "C"

import "runtime"

// SelectionKind selects a TensorSelection variant (EREDU_SELECTION_*).
type SelectionKind uint32

// SelectionKind values.
const (
	SelectionFull       SelectionKind = C.EREDU_SELECTION_FULL
	SelectionRange      SelectionKind = C.EREDU_SELECTION_RANGE
	SelectionIndices    SelectionKind = C.EREDU_SELECTION_INDICES
	SelectionContiguous SelectionKind = C.EREDU_SELECTION_CONTIGUOUS
)

// TensorSelection is which elements of a checkpoint tensor a binding reads;
// the zero value is the whole tensor. Fields a kind does not use must stay
// zero.
type TensorSelection struct {
	Kind SelectionKind
	// Axis, Start and End: Range [Start, End) of Axis; Indices of Axis.
	Axis, Start, End uint64
	Indices          []uint64
	// OffsetElements and Shape: a Contiguous row-major span.
	OffsetElements uint64
	Shape          []uint64
}

// WeightBinding is a named weight read from one checkpoint key (seed
// WeightBinding, direct binding).
type WeightBinding struct {
	Name          string
	CheckpointKey string
	Selection     TensorSelection
	ExpectedBytes uint64
	// LogicalTarget is the optional logical target, "" for none.
	LogicalTarget string
}

func (m *cMemory) weightBinding(b WeightBinding) (*C.eredu_weight_binding_desc, error) {
	p, err := m.alloc(C.sizeof_eredu_weight_binding_desc)
	if err != nil {
		return nil, err
	}
	d := (*C.eredu_weight_binding_desc)(p)
	C.eredu_weight_binding_desc_init(d, C.sizeof_eredu_weight_binding_desc, nil)
	if d.name, err = m.cstring(b.Name, "weight binding name"); err != nil {
		return nil, err
	}
	if d.checkpoint_key, err = m.cstring(b.CheckpointKey, "checkpoint key"); err != nil {
		return nil, err
	}
	if b.LogicalTarget != "" {
		if d.logical_target, err = m.cstring(b.LogicalTarget, "logical target"); err != nil {
			return nil, err
		}
	}
	d.expected_bytes = C.uint64_t(b.ExpectedBytes)
	q, err := m.alloc(C.sizeof_eredu_tensor_selection)
	if err != nil {
		return nil, err
	}
	s := (*C.eredu_tensor_selection)(q)
	C.eredu_tensor_selection_init(s, C.sizeof_eredu_tensor_selection, nil)
	s.kind = C.eredu_selection_kind(b.Selection.Kind)
	s.axis = C.uint64_t(b.Selection.Axis)
	s.start = C.uint64_t(b.Selection.Start)
	s.end = C.uint64_t(b.Selection.End)
	if s.indices, err = m.uint64s(b.Selection.Indices); err != nil {
		return nil, err
	}
	s.index_count = C.size_t(len(b.Selection.Indices))
	s.offset_elements = C.uint64_t(b.Selection.OffsetElements)
	if s.shape, err = m.uint64s(b.Selection.Shape); err != nil {
		return nil, err
	}
	s.ndim = C.size_t(len(b.Selection.Shape))
	d.selection = s
	return d, nil
}

// Validate checks the binding as WeightBinding::new (and
// with_logical_target) would: ErrInvalidBindingName,
// ErrInvalidCheckpointKey, ErrZeroSizedBinding; ErrInvalidArgument for a
// selection field its kind does not use.
func (b WeightBinding) Validate() error {
	if err := checkVersion(); err != nil {
		return err
	}
	var mem cMemory
	defer mem.free()
	d, err := mem.weightBinding(b)
	if err != nil {
		return err
	}
	var cerr *C.eredu_error
	return takeError(C.eredu_weight_binding_validate(d, &cerr), cerr)
}

// StaticUnitBindings is a pinned static unit and its weight bindings (seed
// StaticUnitBindings), owning an eredu_static_unit_bindings. Immutable;
// Close releases it.
type StaticUnitBindings struct {
	ptr *C.eredu_static_unit_bindings
}

// NewStaticUnitBindings validates the bindings, then the unit id (seed
// StaticUnitBindings::new): the binding errors of WeightBinding.Validate,
// then ErrEmptyUnitID.
func NewStaticUnitBindings(id string, bindings []WeightBinding) (*StaticUnitBindings, error) {
	if err := checkVersion(); err != nil {
		return nil, err
	}
	var mem cMemory
	defer mem.free()
	cid, err := mem.cstring(id, "unit id")
	if err != nil {
		return nil, err
	}
	array, err := pointerArray(&mem, len(bindings), func(i int) (*C.eredu_weight_binding_desc, error) {
		return mem.weightBinding(bindings[i])
	})
	if err != nil {
		return nil, err
	}
	var out *C.eredu_static_unit_bindings
	var cerr *C.eredu_error
	status := C.eredu_static_unit_bindings_new(cid, array, C.size_t(len(bindings)), &out, &cerr)
	if err := takeError(status, cerr); err != nil {
		return nil, err
	}
	u := &StaticUnitBindings{ptr: out}
	runtime.SetFinalizer(u, (*StaticUnitBindings).Close)
	return u, nil
}

// Close releases the unit. Idempotent; always returns nil.
func (u *StaticUnitBindings) Close() error {
	if u == nil || u.ptr == nil {
		return nil
	}
	runtime.SetFinalizer(u, nil)
	C.eredu_static_unit_bindings_free(u.ptr)
	u.ptr = nil
	return nil
}

func (u *StaticUnitBindings) handle() (*C.eredu_static_unit_bindings, error) {
	if u == nil || u.ptr == nil {
		return nil, closedError("StaticUnitBindings")
	}
	return u.ptr, nil
}

// ID returns the unit id as given (seed StaticUnitBindings::id).
func (u *StaticUnitBindings) ID() (string, error) {
	h, err := u.handle()
	if err != nil {
		return "", err
	}
	var s *C.char
	var n C.size_t
	var cerr *C.eredu_error
	status := C.eredu_static_unit_bindings_id(h, &s, &n, &cerr)
	id := borrowedString(s, n)
	runtime.KeepAlive(u)
	return id, takeError(status, cerr)
}

// Bindings returns copies of the bindings, in order (seed
// StaticUnitBindings::bindings).
func (u *StaticUnitBindings) Bindings() ([]WeightBinding, error) {
	h, err := u.handle()
	if err != nil {
		return nil, err
	}
	count := C.eredu_static_unit_bindings_count(h)
	runtime.KeepAlive(u)
	out := make([]WeightBinding, 0, int(count))
	var cerr *C.eredu_error
	for i := C.size_t(0); i < count; i++ {
		d := C.eredu_weight_binding_desc{struct_size: C.sizeof_eredu_weight_binding_desc}
		status := C.eredu_static_unit_bindings_binding(h, i, &d, &cerr)
		if err := takeError(status, cerr); err != nil {
			runtime.KeepAlive(u)
			return nil, err
		}
		b := WeightBinding{Name: C.GoString(d.name), CheckpointKey: C.GoString(d.checkpoint_key),
			ExpectedBytes: uint64(d.expected_bytes)}
		if d.logical_target != nil {
			b.LogicalTarget = C.GoString(d.logical_target)
		}
		if s := d.selection; s != nil {
			b.Selection = TensorSelection{Kind: SelectionKind(s.kind), Axis: uint64(s.axis),
				Start: uint64(s.start), End: uint64(s.end),
				Indices:        borrowedUint64s(s.indices, s.index_count),
				OffsetElements: uint64(s.offset_elements), Shape: borrowedUint64s(s.shape, s.ndim)}
		}
		runtime.KeepAlive(u)
		out = append(out, b)
	}
	return out, nil
}
