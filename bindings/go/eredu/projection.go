// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

package eredu

/*
#include <eredu/eredu.h>
*/
import "C"

// ProjectionSharding is how a projection module is sharded (seed
// ProjectionSharding; EREDU_PROJECTION_*).
type ProjectionSharding uint32

// ProjectionSharding values.
const (
	ProjectionReplicated ProjectionSharding = C.EREDU_PROJECTION_REPLICATED
	ProjectionColumn     ProjectionSharding = C.EREDU_PROJECTION_COLUMN
	ProjectionRow        ProjectionSharding = C.EREDU_PROJECTION_ROW
)

// ModuleParameter is one parameter of a module: its checkpoint id (the
// member target), shape in elements and optional dtype.
type ModuleParameter struct {
	ID       string
	Shape    []uint64
	DType    DType
	HasDType bool
}

// Projection is a module's parameters with their sharding.
type Projection struct {
	Parameters []ModuleParameter
	Placement  ProjectionSharding
}

func (m *cMemory) moduleParameters(params []ModuleParameter) (**C.eredu_module_parameter, error) {
	return pointerArray(m, len(params), func(i int) (*C.eredu_module_parameter, error) {
		q, err := m.alloc(C.sizeof_eredu_module_parameter)
		if err != nil {
			return nil, err
		}
		cp := (*C.eredu_module_parameter)(q)
		C.eredu_module_parameter_init(cp, C.sizeof_eredu_module_parameter, nil)
		if cp.id, err = m.cstring(params[i].ID, "module parameter id"); err != nil {
			return nil, err
		}
		if cp.shape, err = m.uint64s(params[i].Shape); err != nil {
			return nil, err
		}
		cp.ndim = C.size_t(len(params[i].Shape))
		cp.has_dtype = cbool(params[i].HasDType)
		cp.dtype = C.eredu_dtype(params[i].DType)
		return cp, nil
	})
}

// ProjectionParameterGroup describes one module as an unpartitioned group
// (seed projection_parameter_group): Replicated -> replicated members,
// Column -> Equal on axis 0, Row -> Equal on axis 1 (replicated below two
// axes).
func ProjectionParameterGroup(name string, role ParameterRole, scope GroupScope, params []ModuleParameter, placement ProjectionSharding) (*ParameterGroupSpec, error) {
	if err := checkVersion(); err != nil {
		return nil, err
	}
	var mem cMemory
	defer mem.free()
	cname, cscope, err := mem.groupHead(name, scope)
	if err != nil {
		return nil, err
	}
	array, err := mem.moduleParameters(params)
	if err != nil {
		return nil, err
	}
	var out *C.eredu_group
	var cerr *C.eredu_error
	status := C.eredu_projection_parameter_group(cname, C.eredu_role(role), cscope, array,
		C.size_t(len(params)), C.eredu_projection_sharding(placement), &out, &cerr)
	return groupResult(status, out, cerr)
}

// PartitionedProjectionGroup describes projections sharing one logical
// partition (seed partitioned_projection_group): Column -> Partitioned axis
// 0, Row (two axes or more) -> Partitioned axis 1, the rest replicated.
func PartitionedProjectionGroup(name string, role ParameterRole, scope GroupScope, projections []Projection, preferredUnits uint64) (*ParameterGroupSpec, error) {
	if err := checkVersion(); err != nil {
		return nil, err
	}
	var mem cMemory
	defer mem.free()
	cname, cscope, err := mem.groupHead(name, scope)
	if err != nil {
		return nil, err
	}
	array, err := pointerArray(&mem, len(projections), func(i int) (*C.eredu_projection, error) {
		q, err := mem.alloc(C.sizeof_eredu_projection)
		if err != nil {
			return nil, err
		}
		cp := (*C.eredu_projection)(q)
		C.eredu_projection_init(cp, C.sizeof_eredu_projection, nil)
		if cp.parameters, err = mem.moduleParameters(projections[i].Parameters); err != nil {
			return nil, err
		}
		cp.parameter_count = C.size_t(len(projections[i].Parameters))
		cp.placement = C.eredu_projection_sharding(projections[i].Placement)
		return cp, nil
	})
	if err != nil {
		return nil, err
	}
	var out *C.eredu_group
	var cerr *C.eredu_error
	status := C.eredu_partitioned_projection_group(cname, C.eredu_role(role), cscope, array,
		C.size_t(len(projections)), C.uint64_t(preferredUnits), &out, &cerr)
	return groupResult(status, out, cerr)
}

// SegmentedProjectionGroup describes a component-major fused column
// projection split into segments (e.g. q, k, v) and its row projection as
// one partition (seed segmented_projection_group): fused parameters get
// PartitionedSegments on axis 0, row parameters with two axes or more
// Partitioned on axis 1.
func SegmentedProjectionGroup(name string, role ParameterRole, scope GroupScope, fused, row []ModuleParameter, segments []Range, preferredUnits uint64) (*ParameterGroupSpec, error) {
	if err := checkVersion(); err != nil {
		return nil, err
	}
	var mem cMemory
	defer mem.free()
	cname, cscope, err := mem.groupHead(name, scope)
	if err != nil {
		return nil, err
	}
	cfused, err := mem.moduleParameters(fused)
	if err != nil {
		return nil, err
	}
	crow, err := mem.moduleParameters(row)
	if err != nil {
		return nil, err
	}
	csegments, err := mem.ranges(segments)
	if err != nil {
		return nil, err
	}
	var out *C.eredu_group
	var cerr *C.eredu_error
	status := C.eredu_segmented_projection_group(cname, C.eredu_role(role), cscope, cfused,
		C.size_t(len(fused)), crow, C.size_t(len(row)), csegments, C.size_t(len(segments)),
		C.uint64_t(preferredUnits), &out, &cerr)
	return groupResult(status, out, cerr)
}

// ParallelModelInfo is an architecture-neutral summary of one rank-local
// parallel model (seed ParallelModelInfo), a plain value.
type ParallelModelInfo struct {
	Topology                    ParallelTopology
	EffectiveModelType          string
	OwnedTensors                []string
	LocalParameterBytes         uint64
	GlobalParameterBytes        uint64
	PinnedDeviceParameterBytes  uint64
	MaximumDeviceParameterBytes uint64
}

// NewParallelModelInfo builds the value through eredu_parallel_model_info_new
// (seed ParallelModelInfo::new), which checks the topology (ErrZeroAxis,
// ErrWorldSizeOverflow) and the strings, and returns the library's echo.
func NewParallelModelInfo(topology ParallelTopology, effectiveModelType string, ownedTensors []string,
	localBytes, globalBytes, pinnedDeviceBytes, maximumDeviceBytes uint64) (ParallelModelInfo, error) {
	if err := checkVersion(); err != nil {
		return ParallelModelInfo{}, err
	}
	var mem cMemory
	defer mem.free()
	ctype, err := mem.cstring(effectiveModelType, "effective model type")
	if err != nil {
		return ParallelModelInfo{}, err
	}
	owned, err := pointerArray(&mem, len(ownedTensors), func(i int) (*C.char, error) {
		return mem.cstring(ownedTensors[i], "owned tensor")
	})
	if err != nil {
		return ParallelModelInfo{}, err
	}
	ctopology := topology.c()
	var info *C.eredu_parallel_model_info
	var cerr *C.eredu_error
	status := C.eredu_parallel_model_info_new(&ctopology, ctype, owned, C.size_t(len(ownedTensors)),
		C.uint64_t(localBytes), C.uint64_t(globalBytes), C.uint64_t(pinnedDeviceBytes),
		C.uint64_t(maximumDeviceBytes), &info, &cerr)
	if err := takeError(status, cerr); err != nil {
		return ParallelModelInfo{}, err
	}
	defer C.eredu_parallel_model_info_free(info)
	return readParallelModelInfo(info)
}

// readParallelModelInfo copies a handle: its topology, its summary (one
// call) and its owned tensors.
func readParallelModelInfo(info *C.eredu_parallel_model_info) (ParallelModelInfo, error) {
	var out ParallelModelInfo
	t := C.eredu_topology{struct_size: C.sizeof_eredu_topology}
	var cerr *C.eredu_error
	if err := takeError(C.eredu_parallel_model_info_topology(info, &t, &cerr), cerr); err != nil {
		return out, err
	}
	out.Topology = topologyFromC(&t)
	s := C.eredu_parallel_model_summary{struct_size: C.sizeof_eredu_parallel_model_summary}
	if err := takeError(C.eredu_parallel_model_info_get_summary(info, &s, &cerr), cerr); err != nil {
		return out, err
	}
	out.EffectiveModelType = borrowedString(s.effective_model_type, s.effective_model_type_length)
	out.LocalParameterBytes = uint64(s.local_parameter_bytes)
	out.GlobalParameterBytes = uint64(s.global_parameter_bytes)
	out.PinnedDeviceParameterBytes = uint64(s.pinned_device_parameter_bytes)
	out.MaximumDeviceParameterBytes = uint64(s.maximum_device_parameter_bytes)
	for i := C.size_t(0); i < s.owned_tensor_count; i++ {
		var name *C.char
		var n C.size_t
		if err := takeError(C.eredu_parallel_model_info_owned_tensor(info, i, &name, &n, &cerr), cerr); err != nil {
			return out, err
		}
		out.OwnedTensors = append(out.OwnedTensors, borrowedString(name, n))
	}
	return out, nil
}
