// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

package eredu

/*
#include <eredu/eredu.h>
*/
import "C"

import "runtime"

// LayerwiseModelMetadata is the seed's runtime-owned parameter-residency
// snapshot of a layered model, owning an eredu_layerwise_model_metadata.
// Its setters must not overlap any other call on the same snapshot; getters
// may run concurrently. Close releases it.
type LayerwiseModelMetadata struct {
	ptr *C.eredu_layerwise_model_metadata
}

// LayerwiseModelMetadataDesc are the values of a new snapshot (seed
// LayerwiseModelMetadata::new), in bytes and units.
type LayerwiseModelMetadataDesc struct {
	EffectiveModelType string
	// Quantization is the checkpoint-native weight quantization (Affine,
	// MXFP4 or GGUF), nil for none.
	Quantization            *LinearFormat
	LayerCount              uint64
	StaticDeviceBytes       uint64
	Residency               ExecutionResidency
	LayerParameterBytes     uint64
	MaximumDeviceLayerBytes uint64
	MaximumHostLayerBytes   uint64
	DeviceLayerCapacity     uint64
}

// NewLayerwiseModelMetadata builds a snapshot; values are stored as given.
// Errors: ErrInvalidArgument (a Block-FP8 or unknown quantization kind, an
// unknown residency); ErrInvalidFormat (the quantization's rules).
func NewLayerwiseModelMetadata(d LayerwiseModelMetadataDesc) (*LayerwiseModelMetadata, error) {
	if err := checkVersion(); err != nil {
		return nil, err
	}
	var mem cMemory
	defer mem.free()
	ctype, err := mem.cstring(d.EffectiveModelType, "effective model type")
	if err != nil {
		return nil, err
	}
	var q *C.eredu_linear_format
	if d.Quantization != nil {
		if q, err = mem.linearFormat(*d.Quantization); err != nil {
			return nil, err
		}
	}
	var out *C.eredu_layerwise_model_metadata
	var cerr *C.eredu_error
	status := C.eredu_layerwise_model_metadata_new(ctype, q, C.uint64_t(d.LayerCount),
		C.uint64_t(d.StaticDeviceBytes), C.eredu_execution_residency(d.Residency),
		C.uint64_t(d.LayerParameterBytes), C.uint64_t(d.MaximumDeviceLayerBytes),
		C.uint64_t(d.MaximumHostLayerBytes), C.uint64_t(d.DeviceLayerCapacity), &out, &cerr)
	if err := takeError(status, cerr); err != nil {
		return nil, err
	}
	m := &LayerwiseModelMetadata{ptr: out}
	runtime.SetFinalizer(m, (*LayerwiseModelMetadata).Close)
	return m, nil
}

// Close releases the snapshot. Idempotent; always returns nil.
func (m *LayerwiseModelMetadata) Close() error {
	if m == nil || m.ptr == nil {
		return nil
	}
	runtime.SetFinalizer(m, nil)
	C.eredu_layerwise_model_metadata_free(m.ptr)
	m.ptr = nil
	return nil
}

func (m *LayerwiseModelMetadata) handle() (*C.eredu_layerwise_model_metadata, error) {
	if m == nil || m.ptr == nil {
		return nil, closedError("LayerwiseModelMetadata")
	}
	return m.ptr, nil
}

// SetEffectiveModelType replaces the model type (seed
// set_effective_model_type).
func (m *LayerwiseModelMetadata) SetEffectiveModelType(modelType string) error {
	h, err := m.handle()
	if err != nil {
		return err
	}
	var mem cMemory
	defer mem.free()
	ctype, err := mem.cstring(modelType, "effective model type")
	if err != nil {
		return err
	}
	var cerr *C.eredu_error
	status := C.eredu_layerwise_model_metadata_set_effective_model_type(h, ctype, &cerr)
	runtime.KeepAlive(m)
	return takeError(status, cerr)
}

// SetQuantization replaces the weight quantization, nil for none (seed
// set_quantization).
func (m *LayerwiseModelMetadata) SetQuantization(q *LinearFormat) error {
	h, err := m.handle()
	if err != nil {
		return err
	}
	var mem cMemory
	defer mem.free()
	var cq *C.eredu_linear_format
	if q != nil {
		if cq, err = mem.linearFormat(*q); err != nil {
			return err
		}
	}
	var cerr *C.eredu_error
	status := C.eredu_layerwise_model_metadata_set_quantization(h, cq, &cerr)
	runtime.KeepAlive(m)
	return takeError(status, cerr)
}

// Desc returns every value of the snapshot (seed effective_model_type,
// quantization, layer_count, static_device_bytes, residency,
// layer_parameter_bytes, maximum_device_layer_bytes,
// maximum_host_layer_bytes, device_layer_capacity): one call for the plain
// fields (eredu_layerwise_model_metadata_get_info), one more for the
// quantization when there is one.
func (m *LayerwiseModelMetadata) Desc() (LayerwiseModelMetadataDesc, error) {
	h, err := m.handle()
	if err != nil {
		return LayerwiseModelMetadataDesc{}, err
	}
	i := C.eredu_layerwise_model_metadata_info{struct_size: C.sizeof_eredu_layerwise_model_metadata_info}
	var cerr *C.eredu_error
	status := C.eredu_layerwise_model_metadata_get_info(h, &i, &cerr)
	var d LayerwiseModelMetadataDesc
	if status == C.EREDU_OK {
		d = LayerwiseModelMetadataDesc{
			EffectiveModelType:      borrowedString(i.effective_model_type, i.effective_model_type_length),
			LayerCount:              uint64(i.layer_count),
			StaticDeviceBytes:       uint64(i.static_device_bytes),
			Residency:               ExecutionResidency(i.residency),
			LayerParameterBytes:     uint64(i.layer_parameter_bytes),
			MaximumDeviceLayerBytes: uint64(i.maximum_device_layer_bytes),
			MaximumHostLayerBytes:   uint64(i.maximum_host_layer_bytes),
			DeviceLayerCapacity:     uint64(i.device_layer_capacity),
		}
	}
	runtime.KeepAlive(m)
	if err := takeError(status, cerr); err != nil {
		return LayerwiseModelMetadataDesc{}, err
	}
	if i.has_quantization == 0 {
		return d, nil
	}
	q := C.eredu_linear_format{struct_size: C.sizeof_eredu_linear_format}
	var present C.bool
	status = C.eredu_layerwise_model_metadata_quantization(h, &q, &present, &cerr)
	runtime.KeepAlive(m)
	if err := takeError(status, cerr); err != nil {
		return LayerwiseModelMetadataDesc{}, err
	}
	if bool(present) {
		d.Quantization = &LinearFormat{Kind: LinearFormatKind(q.kind), AffineGroupSize: int32(q.affine_group_size),
			AffineBits: int32(q.affine_bits), GgmlType: uint32(q.ggml_type)}
	}
	return d, nil
}
