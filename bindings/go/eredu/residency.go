// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

package eredu

/*
#include <eredu/eredu.h>
*/
import "C"

// ExecutionResidency is the placement of ordinary execution units (seed
// LayerWeightResidency variants / ExecutionResidency;
// EREDU_EXECUTION_RESIDENCY_*).
type ExecutionResidency uint32

// ExecutionResidency values.
const (
	ExecutionFullyResident   ExecutionResidency = C.EREDU_EXECUTION_RESIDENCY_FULLY_RESIDENT
	ExecutionLayerwiseHost   ExecutionResidency = C.EREDU_EXECUTION_RESIDENCY_LAYERWISE_HOST
	ExecutionDenseDiskStream ExecutionResidency = C.EREDU_EXECUTION_RESIDENCY_DENSE_DISK_STREAM
)

// String returns the serialized word ("dense_disk_stream").
func (r ExecutionResidency) String() string {
	return word([]string{"fully_resident", "layerwise_host", "dense_disk_stream"}, uint32(r), "ExecutionResidency")
}

// ResidencyRequest is the residency a preparation asks for (core
// ResidencyRequest; EREDU_RESIDENCY_REQUEST_*).
type ResidencyRequest uint32

// ResidencyRequest values.
const (
	RequestFullyResident             ResidencyRequest = C.EREDU_RESIDENCY_REQUEST_FULLY_RESIDENT
	RequestLayerwiseHost             ResidencyRequest = C.EREDU_RESIDENCY_REQUEST_LAYERWISE_HOST
	RequestDenseDiskStream           ResidencyRequest = C.EREDU_RESIDENCY_REQUEST_DENSE_DISK_STREAM
	RequestAddressableParameterBanks ResidencyRequest = C.EREDU_RESIDENCY_REQUEST_ADDRESSABLE_PARAMETER_BANKS
)

// String returns the serialized word ("addressable_parameter_banks").
func (r ResidencyRequest) String() string {
	return word([]string{"fully_resident", "layerwise_host", "dense_disk_stream",
		"addressable_parameter_banks"}, uint32(r), "ResidencyRequest")
}

// DenseTransferWindow is the current plus next unit retained by dense
// streamed execution (seed DENSE_TRANSFER_WINDOW).
const DenseTransferWindow = C.EREDU_DENSE_TRANSFER_WINDOW

// DefaultMaxCachedShards is the default bound of cached checkpoint shards.
const DefaultMaxCachedShards = C.EREDU_DEFAULT_MAX_CACHED_SHARDS

// LayerwiseLoadOptions are the options of layerwise host residency (seed
// LayerwiseLoadOptions). DefaultLayerwiseLoadOptions gives the defaults.
type LayerwiseLoadOptions struct {
	// Offload holds the tier budgets and the device window (prefetch depth).
	Offload OffloadConfig
	// MaxCachedShards is the number of checkpoint shards kept open.
	MaxCachedShards     uint64
	SampleBackendMemory bool
	SampleProcessMemory bool
}

// DefaultLayerwiseLoadOptions returns the seed's
// LayerwiseLoadOptions::default() (eredu_layerwise_options_init).
func DefaultLayerwiseLoadOptions() LayerwiseLoadOptions {
	if checkVersion() != nil {
		return LayerwiseLoadOptions{}
	}
	var o C.eredu_layerwise_options
	C.eredu_layerwise_options_init(&o, C.sizeof_eredu_layerwise_options, nil)
	return LayerwiseLoadOptions{Offload: DefaultOffloadConfig(),
		MaxCachedShards:     uint64(o.max_cached_shards),
		SampleBackendMemory: o.sample_backend_memory != 0,
		SampleProcessMemory: o.sample_process_memory != 0}
}

// DenseDiskStreamLoadOptions are the options of dense disk streaming (seed
// DenseDiskStreamLoadOptions). DefaultDenseDiskStreamLoadOptions gives the
// defaults.
type DenseDiskStreamLoadOptions struct {
	// DeviceBudgetBytes is the finite device parameter budget.
	DeviceBudgetBytes uint64
	// HostBudgetBytes is the charged host budget; 0 selects direct
	// disk-to-device loading.
	HostBudgetBytes         uint64
	HostLookahead           uint64
	BackgroundQueueCapacity uint64
	EvictionPolicy          CacheEvictionPolicy
	MaxCachedShards         uint64
	SampleBackendMemory     bool
	SampleProcessMemory     bool
}

// DefaultDenseDiskStreamLoadOptions returns the seed's
// DenseDiskStreamLoadOptions::default() (eredu_dense_stream_options_init):
// 4 GiB device, 16 GiB host, lookahead 2, queue capacity 2.
func DefaultDenseDiskStreamLoadOptions() DenseDiskStreamLoadOptions {
	if checkVersion() != nil {
		return DenseDiskStreamLoadOptions{}
	}
	var o C.eredu_dense_stream_options
	C.eredu_dense_stream_options_init(&o, C.sizeof_eredu_dense_stream_options, nil)
	return DenseDiskStreamLoadOptions{
		DeviceBudgetBytes:       uint64(o.device_budget_bytes),
		HostBudgetBytes:         uint64(o.host_budget_bytes),
		HostLookahead:           uint64(o.host_lookahead),
		BackgroundQueueCapacity: uint64(o.background_queue_capacity),
		EvictionPolicy:          CacheEvictionPolicy(o.eviction_policy),
		MaxCachedShards:         uint64(o.max_cached_shards),
		SampleBackendMemory:     o.sample_backend_memory != 0,
		SampleProcessMemory:     o.sample_process_memory != 0,
	}
}

// ParameterBankLoadOptions are the options of an independent parameter-bank
// cache (seed ParameterBankLoadOptions).
type ParameterBankLoadOptions struct {
	// Members holds the bank members' budgets, prefetch depth and eviction.
	Members OffloadConfig
	// CompactBankScratchBytes is the hard bound of one compact bank.
	CompactBankScratchBytes uint64
	// PrefillCompactBankTargetBytes is the soft prefill target.
	PrefillCompactBankTargetBytes uint64
}

// DefaultParameterBankLoadOptions returns the seed's
// ParameterBankLoadOptions::default() (eredu_parameter_bank_options_init).
func DefaultParameterBankLoadOptions() ParameterBankLoadOptions {
	if checkVersion() != nil {
		return ParameterBankLoadOptions{}
	}
	var o C.eredu_parameter_bank_options
	C.eredu_parameter_bank_options_init(&o, C.sizeof_eredu_parameter_bank_options, nil)
	return ParameterBankLoadOptions{Members: DefaultOffloadConfig(),
		CompactBankScratchBytes:       uint64(o.compact_bank_scratch_bytes),
		PrefillCompactBankTargetBytes: uint64(o.prefill_compact_bank_target_bytes)}
}

// WeightResidency describes an immutable-weight residency (seed
// WeightResidency): the ordinary-unit placement with its options, plus an
// optional independent parameter-bank cache. Build it with FullyResident,
// LayerwiseHost or DenseDiskStream, then WithParameterBankCache; check it
// with Validate.
type WeightResidency struct {
	Layers ExecutionResidency
	// Layerwise are the LayerwiseHost options (nil: the defaults).
	Layerwise *LayerwiseLoadOptions
	// Dense are the DenseDiskStream options (nil: the defaults).
	Dense *DenseDiskStreamLoadOptions
	// ParameterBankCache is the independent bank cache, nil for none.
	ParameterBankCache *ParameterBankLoadOptions
}

// FullyResident keeps every unit on the execution device (the default).
func FullyResident() WeightResidency { return WeightResidency{Layers: ExecutionFullyResident} }

// LayerwiseHost materializes units on host behind a bounded device window.
func LayerwiseHost(options LayerwiseLoadOptions) WeightResidency {
	return WeightResidency{Layers: ExecutionLayerwiseHost, Layerwise: &options}
}

// DenseDiskStream keeps units cold on disk behind finite caches.
func DenseDiskStream(options DenseDiskStreamLoadOptions) WeightResidency {
	return WeightResidency{Layers: ExecutionDenseDiskStream, Dense: &options}
}

// WithParameterBankCache returns w with an independent parameter-bank cache
// (seed WeightResidency::IndependentParameterBanks).
func (w WeightResidency) WithParameterBankCache(options ParameterBankLoadOptions) WeightResidency {
	w.ParameterBankCache = &options
	return w
}

// ResidencySummary is what a valid weight residency derives, and an echo of
// every option it holds (eredu_residency_summary).
type ResidencySummary struct {
	ExecutionResidency ExecutionResidency
	// Offload is the derived offload configuration (seed
	// LayerWeightResidency::offload).
	Offload OffloadConfig
	// DeviceDepth is the device unit window for the unit count given to
	// Validate (seed LayerWeightResidency::device_depth).
	DeviceDepth             uint64
	MaxCachedShards         uint64
	PreparationResidency    ResidencyRequest
	IsFullyResident         bool
	OrdinaryIsFullyResident bool
	SampleBackendMemory     bool
	SampleProcessMemory     bool
	// DenseHostLookahead and DenseBackgroundQueueCapacity echo the dense
	// options (0 for the other placements).
	DenseHostLookahead           uint64
	DenseBackgroundQueueCapacity uint64
	// ParameterBankCache echoes the bank cache; nil without one.
	ParameterBankCache *ParameterBankLoadOptions
}

// weightResidency copies w into C memory.
func (m *cMemory) weightResidency(w WeightResidency) (*C.eredu_weight_residency_desc, error) {
	p, err := m.alloc(C.sizeof_eredu_weight_residency_desc)
	if err != nil {
		return nil, err
	}
	d := (*C.eredu_weight_residency_desc)(p)
	C.eredu_weight_residency_desc_init(d, C.sizeof_eredu_weight_residency_desc, nil)
	d.layers = C.eredu_execution_residency(w.Layers)
	if o := w.Layerwise; o != nil {
		q, err := m.alloc(C.sizeof_eredu_layerwise_options)
		if err != nil {
			return nil, err
		}
		co := (*C.eredu_layerwise_options)(q)
		C.eredu_layerwise_options_init(co, C.sizeof_eredu_layerwise_options, nil)
		if co.offload, err = m.offloadConfig(o.Offload); err != nil {
			return nil, err
		}
		co.max_cached_shards = C.uint64_t(o.MaxCachedShards)
		co.sample_backend_memory = cbool(o.SampleBackendMemory)
		co.sample_process_memory = cbool(o.SampleProcessMemory)
		d.layerwise = co
	}
	if o := w.Dense; o != nil {
		q, err := m.alloc(C.sizeof_eredu_dense_stream_options)
		if err != nil {
			return nil, err
		}
		co := (*C.eredu_dense_stream_options)(q)
		C.eredu_dense_stream_options_init(co, C.sizeof_eredu_dense_stream_options, nil)
		co.device_budget_bytes = C.uint64_t(o.DeviceBudgetBytes)
		co.host_budget_bytes = C.uint64_t(o.HostBudgetBytes)
		co.host_lookahead = C.uint64_t(o.HostLookahead)
		co.background_queue_capacity = C.uint64_t(o.BackgroundQueueCapacity)
		co.eviction_policy = C.eredu_eviction_policy(o.EvictionPolicy)
		co.max_cached_shards = C.uint64_t(o.MaxCachedShards)
		co.sample_backend_memory = cbool(o.SampleBackendMemory)
		co.sample_process_memory = cbool(o.SampleProcessMemory)
		d.dense = co
	}
	if o := w.ParameterBankCache; o != nil {
		q, err := m.alloc(C.sizeof_eredu_parameter_bank_options)
		if err != nil {
			return nil, err
		}
		co := (*C.eredu_parameter_bank_options)(q)
		C.eredu_parameter_bank_options_init(co, C.sizeof_eredu_parameter_bank_options, nil)
		if co.members, err = m.offloadConfig(o.Members); err != nil {
			return nil, err
		}
		co.compact_bank_scratch_bytes = C.uint64_t(o.CompactBankScratchBytes)
		co.prefill_compact_bank_target_bytes = C.uint64_t(o.PrefillCompactBankTargetBytes)
		d.parameter_bank_cache = co
	}
	return d, nil
}

func summaryFromC(s *C.eredu_residency_summary) ResidencySummary {
	out := ResidencySummary{
		ExecutionResidency: ExecutionResidency(s.execution_residency),
		Offload: OffloadConfig{
			DeviceBudgetBytes: uint64(s.offload_device_budget_bytes),
			HasDeviceBudget:   s.offload_has_device_budget != 0,
			HostBudgetBytes:   uint64(s.offload_host_budget_bytes),
			HasHostBudget:     s.offload_has_host_budget != 0,
			PrefetchDepth:     uint64(s.offload_prefetch_depth),
			EvictionPolicy:    CacheEvictionPolicy(s.offload_eviction_policy),
		},
		DeviceDepth:                  uint64(s.device_depth),
		MaxCachedShards:              uint64(s.max_cached_shards),
		PreparationResidency:         ResidencyRequest(s.preparation_residency),
		IsFullyResident:              s.is_fully_resident != 0,
		OrdinaryIsFullyResident:      s.ordinary_is_fully_resident != 0,
		SampleBackendMemory:          s.sample_backend_memory != 0,
		SampleProcessMemory:          s.sample_process_memory != 0,
		DenseHostLookahead:           uint64(s.dense_host_lookahead),
		DenseBackgroundQueueCapacity: uint64(s.dense_background_queue_capacity),
	}
	if s.has_parameter_bank_cache != 0 {
		out.ParameterBankCache = &ParameterBankLoadOptions{
			Members: OffloadConfig{
				DeviceBudgetBytes: uint64(s.parameter_bank_device_budget_bytes),
				HasDeviceBudget:   s.parameter_bank_has_device_budget != 0,
				HostBudgetBytes:   uint64(s.parameter_bank_host_budget_bytes),
				HasHostBudget:     s.parameter_bank_has_host_budget != 0,
				PrefetchDepth:     uint64(s.parameter_bank_prefetch_depth),
				EvictionPolicy:    CacheEvictionPolicy(s.parameter_bank_eviction_policy),
			},
			CompactBankScratchBytes:       uint64(s.parameter_bank_compact_scratch_bytes),
			PrefillCompactBankTargetBytes: uint64(s.parameter_bank_prefill_target_bytes),
		}
	}
	return out
}

// Validate checks the residency (eredu_residency_validate) and reports what
// it derives for unitCount ordinary execution units. Errors, in order:
// *VersionError; ErrInvalidArgument (unknown values, options given for a
// placement that takes none); ErrZeroPrefetchDepth;
// ErrHostDisabledControls, ErrZeroHostLookahead, ErrZeroQueueCapacity;
// ErrZeroParameterBankScratchLimit, ErrZeroParameterBankPrefillTarget,
// ErrParameterBankPrefillTargetExceedsScratch.
func (w WeightResidency) Validate(unitCount uint64) (ResidencySummary, error) {
	if err := checkVersion(); err != nil {
		return ResidencySummary{}, err
	}
	var mem cMemory
	defer mem.free()
	desc, err := mem.weightResidency(w)
	if err != nil {
		return ResidencySummary{}, err
	}
	s := C.eredu_residency_summary{struct_size: C.sizeof_eredu_residency_summary}
	var cerr *C.eredu_error
	status := C.eredu_residency_validate(desc, C.uint64_t(unitCount), &s, &cerr)
	if err := takeError(status, cerr); err != nil {
		return ResidencySummary{}, err
	}
	return summaryFromC(&s), nil
}
