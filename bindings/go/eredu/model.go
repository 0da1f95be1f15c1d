// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

package eredu

/*
#include <eredu/eredu.h>
*/
import "C"

import (
	"runtime"
	"unsafe"
)

// ModelInfo is the optional `model` object of eredu.groups.v1.
type ModelInfo struct {
	Name    string
	HasName bool
	// Layers is the decoder-layer count (at least 1), required to plan
	// pipeline size > 1.
	Layers    uint64
	HasLayers bool
	// Experts is the routed-expert count per layer, required to plan expert
	// size > 1; 0 means a dense model.
	Experts    uint64
	HasExperts bool
}

// ModelDescription is an immutable, validated model description: its groups
// in document order (an eredu_model). Safe for concurrent readers and
// planners; Close releases it (layouts planned from it stay valid).
type ModelDescription struct {
	ptr *C.eredu_model
}

// ModelFromGroups builds a description from groups in document order
// (eredu_model_new); the groups are copied, the caller still closes them.
// info may be nil. Errors: *VersionError; an error wrapping ErrClosed for a
// nil or closed group (refused before the call); ErrInvalidArgument,
// ErrInvalidGroup, ErrInvalidTensor, ErrOutOfMemory.
func ModelFromGroups(info *ModelInfo, groups []*ParameterGroupSpec) (*ModelDescription, error) {
	if err := checkVersion(); err != nil {
		return nil, err
	}
	var mem cMemory
	defer mem.free()
	var cinfo *C.eredu_model_info
	if info != nil {
		p, err := mem.alloc(C.sizeof_eredu_model_info)
		if err != nil {
			return nil, err
		}
		cinfo = (*C.eredu_model_info)(p)
		var cerr *C.eredu_error
		if err := takeError(C.eredu_model_info_init(cinfo, C.sizeof_eredu_model_info, &cerr), cerr); err != nil {
			return nil, err
		}
		if info.HasName {
			if cinfo.name, err = mem.cstring(info.Name, "model name"); err != nil {
				return nil, err
			}
		}
		cinfo.has_layers = cbool(info.HasLayers)
		cinfo.layers = C.uint64_t(info.Layers)
		cinfo.has_experts = cbool(info.HasExperts)
		cinfo.experts = C.uint64_t(info.Experts)
	}
	var array **C.eredu_group
	if len(groups) > 0 {
		p, err := mem.alloc(uintptr(len(groups)) * unsafe.Sizeof((*C.eredu_group)(nil)))
		if err != nil {
			return nil, err
		}
		handles := unsafe.Slice((**C.eredu_group)(p), len(groups))
		for i, g := range groups {
			if handles[i], err = g.handle(); err != nil {
				return nil, err
			}
		}
		array = (**C.eredu_group)(p)
	}
	var out *C.eredu_model
	var cerr *C.eredu_error
	status := C.eredu_model_new(cinfo, array, C.size_t(len(groups)), &out, &cerr)
	runtime.KeepAlive(groups)
	if err := takeError(status, cerr); err != nil {
		return nil, err
	}
	return newModel(out), nil
}

// ModelFromJSON loads an eredu.groups.v1 document (eredu_model_from_json),
// the bulk path. The bytes are read in place, not copied. Errors:
// *VersionError; ErrInvalidArgument (more than 4294967295 bytes), ErrParse,
// ErrUnsupportedVersion, ErrInvalidGroup, ErrInvalidFormat,
// ErrInvalidTensor, ErrOutOfMemory (in the order of docs/interchange.md,
// "Load errors, in this fixed order").
func ModelFromJSON(document []byte) (*ModelDescription, error) {
	if err := checkVersion(); err != nil {
		return nil, err
	}
	var text *C.char
	if len(document) > 0 {
		text = (*C.char)(unsafe.Pointer(&document[0]))
	}
	var out *C.eredu_model
	var cerr *C.eredu_error
	status := C.eredu_model_from_json(text, C.size_t(len(document)), &out, &cerr)
	runtime.KeepAlive(document)
	if err := takeError(status, cerr); err != nil {
		return nil, err
	}
	return newModel(out), nil
}

func newModel(p *C.eredu_model) *ModelDescription {
	m := &ModelDescription{ptr: p}
	runtime.SetFinalizer(m, (*ModelDescription).Close)
	return m
}

// Close releases the description. Idempotent; always returns nil.
func (m *ModelDescription) Close() error {
	if m == nil || m.ptr == nil {
		return nil
	}
	runtime.SetFinalizer(m, nil)
	C.eredu_model_free(m.ptr)
	m.ptr = nil
	return nil
}

func (m *ModelDescription) handle() (*C.eredu_model, error) {
	if m == nil || m.ptr == nil {
		return nil, closedError("ModelDescription")
	}
	return m.ptr, nil
}

// TensorCount returns the number of physical tensors, after any format
// expansion (eredu_model_tensor_count, which cannot fail); 0 for a closed
// description.
func (m *ModelDescription) TensorCount() int {
	h, err := m.handle()
	if err != nil {
		return 0
	}
	n := C.eredu_model_tensor_count(h)
	runtime.KeepAlive(m)
	return int(n)
}

// GroupCount returns the number of groups; 0 for a closed description.
func (m *ModelDescription) GroupCount() int {
	h, err := m.handle()
	if err != nil {
		return 0
	}
	n := C.eredu_model_group_count(h)
	runtime.KeepAlive(m)
	return int(n)
}

// GlobalBytes returns the bytes of every tensor with a dtype; 0 for a
// closed description.
func (m *ModelDescription) GlobalBytes() uint64 {
	h, err := m.handle()
	if err != nil {
		return 0
	}
	n := C.eredu_model_global_bytes(h)
	runtime.KeepAlive(m)
	return uint64(n)
}
