// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

package eredu

/*
#include <eredu/eredu.h>
*/
import "C"

import "runtime"

// MemoryTier is the memory tier of an offload unit, ordered Device < Host <
// Disk (seed MemoryTier; EREDU_MEMORY_TIER_*).
type MemoryTier uint32

// MemoryTier values.
const (
	TierDevice MemoryTier = C.EREDU_MEMORY_TIER_DEVICE
	TierHost   MemoryTier = C.EREDU_MEMORY_TIER_HOST
	TierDisk   MemoryTier = C.EREDU_MEMORY_TIER_DISK
)

// String returns the seed's Debug name ("Device").
func (t MemoryTier) String() string {
	return word([]string{"Device", "Host", "Disk"}, uint32(t), "MemoryTier")
}

// ResidencyPolicy is the lifetime policy of an offload unit (seed
// ResidencyPolicy; EREDU_RESIDENCY_POLICY_*).
type ResidencyPolicy uint32

// ResidencyPolicy values.
const (
	ResidencyPinned    ResidencyPolicy = C.EREDU_RESIDENCY_POLICY_PINNED
	ResidencyWindowed  ResidencyPolicy = C.EREDU_RESIDENCY_POLICY_WINDOWED
	ResidencyCacheable ResidencyPolicy = C.EREDU_RESIDENCY_POLICY_CACHEABLE
)

// String returns the seed's Debug name ("Pinned").
func (p ResidencyPolicy) String() string {
	return word([]string{"Pinned", "Windowed", "Cacheable"}, uint32(p), "ResidencyPolicy")
}

// CacheEvictionPolicy is a cache eviction order (seed CacheEvictionPolicy;
// EREDU_EVICTION_*); LeastRecentlyUsed is the default.
type CacheEvictionPolicy uint32

// CacheEvictionPolicy values.
const (
	EvictLeastRecentlyUsed   CacheEvictionPolicy = C.EREDU_EVICTION_LEAST_RECENTLY_USED
	EvictLeastFrequentlyUsed CacheEvictionPolicy = C.EREDU_EVICTION_LEAST_FREQUENTLY_USED
)

// String returns the serialized word ("least_recently_used").
func (p CacheEvictionPolicy) String() string {
	return word([]string{"least_recently_used", "least_frequently_used"}, uint32(p), "CacheEvictionPolicy")
}

// OffloadConfig holds tier budgets (bytes), the prefetch depth (units) and
// the eviction policy (seed OffloadConfig). Use DefaultOffloadConfig for the
// seed's default; the zero value has prefetch depth 0, which the library
// refuses (ErrZeroPrefetchDepth).
type OffloadConfig struct {
	DeviceBudgetBytes uint64
	HasDeviceBudget   bool
	HostBudgetBytes   uint64
	HasHostBudget     bool
	PrefetchDepth     uint64
	EvictionPolicy    CacheEvictionPolicy
}

// DefaultOffloadConfig returns the seed's OffloadConfig::default(): no
// budgets, prefetch depth 1, least recently used (eredu_offload_config_init).
func DefaultOffloadConfig() OffloadConfig {
	if checkVersion() != nil {
		return OffloadConfig{}
	}
	var c C.eredu_offload_config
	C.eredu_offload_config_init(&c, C.sizeof_eredu_offload_config, nil)
	return offloadConfigFromC(&c)
}

func offloadConfigFromC(c *C.eredu_offload_config) OffloadConfig {
	return OffloadConfig{
		DeviceBudgetBytes: uint64(c.device_budget_bytes),
		HasDeviceBudget:   c.has_device_budget != 0,
		HostBudgetBytes:   uint64(c.host_budget_bytes),
		HasHostBudget:     c.has_host_budget != 0,
		PrefetchDepth:     uint64(c.prefetch_depth),
		EvictionPolicy:    CacheEvictionPolicy(c.eviction_policy),
	}
}

// offloadConfig copies c into C memory.
func (m *cMemory) offloadConfig(c OffloadConfig) (*C.eredu_offload_config, error) {
	p, err := m.alloc(C.sizeof_eredu_offload_config)
	if err != nil {
		return nil, err
	}
	cc := (*C.eredu_offload_config)(p)
	C.eredu_offload_config_init(cc, C.sizeof_eredu_offload_config, nil)
	cc.has_device_budget = cbool(c.HasDeviceBudget)
	cc.device_budget_bytes = C.uint64_t(c.DeviceBudgetBytes)
	cc.has_host_budget = cbool(c.HasHostBudget)
	cc.host_budget_bytes = C.uint64_t(c.HostBudgetBytes)
	cc.prefetch_depth = C.uint64_t(c.PrefetchDepth)
	cc.eviction_policy = C.eredu_eviction_policy(c.EvictionPolicy)
	return cc, nil
}

// OffloadUnitSpec is one atomic residency unit (seed OffloadUnitSpec).
type OffloadUnitSpec struct {
	// ID is the unit identifier (non-blank).
	ID string
	// Bytes is the unit size, at least 1.
	Bytes  uint64
	Policy ResidencyPolicy
	Tier   MemoryTier
}

// OffloadPlan is an immutable, validated set of offload units (seed
// OffloadPlan), owning an eredu_offload_plan. Units are ordered byte-wise
// by id. Safe for concurrent readers; Close releases it.
type OffloadPlan struct {
	ptr *C.eredu_offload_plan
}

// NewOffloadPlan validates units under config (nil: DefaultOffloadConfig)
// atomically (eredu_offload_plan_new). Errors, in order: *VersionError;
// ErrNullArgument, ErrInvalidArgument; ErrZeroPrefetchDepth; per unit in
// input order ErrEmptyUnitID, ErrZeroSizedUnit, ErrContradictoryAssignment;
// then ErrDuplicateUnitID, ErrByteTotalOverflow, ErrBudgetExceeded (device,
// then host); ErrOutOfMemory.
func NewOffloadPlan(config *OffloadConfig, units []OffloadUnitSpec) (*OffloadPlan, error) {
	if err := checkVersion(); err != nil {
		return nil, err
	}
	var mem cMemory
	defer mem.free()
	var cconfig *C.eredu_offload_config
	if config != nil {
		var err error
		if cconfig, err = mem.offloadConfig(*config); err != nil {
			return nil, err
		}
	}
	array, err := pointerArray(&mem, len(units), func(i int) (*C.eredu_offload_unit_desc, error) {
		q, err := mem.alloc(C.sizeof_eredu_offload_unit_desc)
		if err != nil {
			return nil, err
		}
		d := (*C.eredu_offload_unit_desc)(q)
		C.eredu_offload_unit_desc_init(d, C.sizeof_eredu_offload_unit_desc, nil)
		if d.id, err = mem.cstring(units[i].ID, "offload unit id"); err != nil {
			return nil, err
		}
		d.bytes = C.uint64_t(units[i].Bytes)
		d.policy = C.eredu_residency_policy(units[i].Policy)
		d.tier = C.eredu_memory_tier(units[i].Tier)
		return d, nil
	})
	if err != nil {
		return nil, err
	}
	var out *C.eredu_offload_plan
	var cerr *C.eredu_error
	status := C.eredu_offload_plan_new(cconfig, array, C.size_t(len(units)), &out, &cerr)
	if err := takeError(status, cerr); err != nil {
		return nil, err
	}
	plan := &OffloadPlan{ptr: out}
	runtime.SetFinalizer(plan, (*OffloadPlan).Close)
	return plan, nil
}

// Close releases the plan. Idempotent; always returns nil.
func (p *OffloadPlan) Close() error {
	if p == nil || p.ptr == nil {
		return nil
	}
	runtime.SetFinalizer(p, nil)
	C.eredu_offload_plan_free(p.ptr)
	p.ptr = nil
	return nil
}

func (p *OffloadPlan) handle() (*C.eredu_offload_plan, error) {
	if p == nil || p.ptr == nil {
		return nil, closedError("OffloadPlan")
	}
	return p.ptr, nil
}

// Validate re-runs the plan's validation (seed OffloadPlan::validate); a
// built plan always passes.
func (p *OffloadPlan) Validate() error {
	h, err := p.handle()
	if err != nil {
		return err
	}
	var cerr *C.eredu_error
	status := C.eredu_offload_plan_validate(h, &cerr)
	runtime.KeepAlive(p)
	return takeError(status, cerr)
}

// OffloadPlanInfo is what a plan holds besides its units
// (eredu_offload_plan_info).
type OffloadPlanInfo struct {
	Config OffloadConfig
	// UnitCount is Len().
	UnitCount int
	// PlannedDeviceBytes, PlannedHostBytes and PlannedDiskBytes are the
	// bytes of each tier's units (seed OffloadPlan::planned_bytes).
	PlannedDeviceBytes, PlannedHostBytes, PlannedDiskBytes uint64
}

// Info returns the plan's configuration, unit count and planned bytes per
// tier in one call (eredu_offload_plan_get_info).
func (p *OffloadPlan) Info() (OffloadPlanInfo, error) {
	h, err := p.handle()
	if err != nil {
		return OffloadPlanInfo{}, err
	}
	i := C.eredu_offload_plan_info{struct_size: C.sizeof_eredu_offload_plan_info}
	var cerr *C.eredu_error
	status := C.eredu_offload_plan_get_info(h, &i, &cerr)
	runtime.KeepAlive(p)
	if err := takeError(status, cerr); err != nil {
		return OffloadPlanInfo{}, err
	}
	return OffloadPlanInfo{
		Config: OffloadConfig{
			DeviceBudgetBytes: uint64(i.device_budget_bytes),
			HasDeviceBudget:   i.has_device_budget != 0,
			HostBudgetBytes:   uint64(i.host_budget_bytes),
			HasHostBudget:     i.has_host_budget != 0,
			PrefetchDepth:     uint64(i.prefetch_depth),
			EvictionPolicy:    CacheEvictionPolicy(i.eviction_policy),
		},
		UnitCount:          int(i.unit_count),
		PlannedDeviceBytes: uint64(i.planned_device_bytes),
		PlannedHostBytes:   uint64(i.planned_host_bytes),
		PlannedDiskBytes:   uint64(i.planned_disk_bytes),
	}, nil
}

// Config returns the plan's configuration (Info().Config).
func (p *OffloadPlan) Config() (OffloadConfig, error) {
	i, err := p.Info()
	return i.Config, err
}

// Len returns the number of units (eredu_offload_plan_unit_count, which
// cannot fail); 0 for a closed plan.
func (p *OffloadPlan) Len() int {
	h, err := p.handle()
	if err != nil {
		return 0
	}
	n := C.eredu_offload_plan_unit_count(h)
	runtime.KeepAlive(p)
	return int(n)
}

// Unit returns unit i in the plan's (id) order.
func (p *OffloadPlan) Unit(i int) (OffloadUnitSpec, error) {
	h, err := p.handle()
	if err != nil {
		return OffloadUnitSpec{}, err
	}
	d := C.eredu_offload_unit_desc{struct_size: C.sizeof_eredu_offload_unit_desc}
	var cerr *C.eredu_error
	status := C.eredu_offload_plan_unit(h, index(i), &d, &cerr)
	u := OffloadUnitSpec{ID: C.GoString(d.id), Bytes: uint64(d.bytes),
		Policy: ResidencyPolicy(d.policy), Tier: MemoryTier(d.tier)}
	runtime.KeepAlive(p)
	if err := takeError(status, cerr); err != nil {
		return OffloadUnitSpec{}, err
	}
	return u, nil
}

// Units returns every unit in the plan's (id) order (seed
// OffloadPlan::units).
func (p *OffloadPlan) Units() ([]OffloadUnitSpec, error) {
	if _, err := p.handle(); err != nil {
		return nil, err
	}
	units := make([]OffloadUnitSpec, p.Len())
	for i := range units {
		var err error
		if units[i], err = p.Unit(i); err != nil {
			return nil, err
		}
	}
	return units, nil
}

// FindUnit returns the index of the unit with this id (ErrNotFound when
// there is none).
func (p *OffloadPlan) FindUnit(id string) (int, error) {
	h, err := p.handle()
	if err != nil {
		return 0, err
	}
	var mem cMemory
	defer mem.free()
	cid, err := mem.cstring(id, "offload unit id")
	if err != nil {
		return 0, err
	}
	var i C.size_t
	var cerr *C.eredu_error
	status := C.eredu_offload_plan_find_unit(h, cid, &i, &cerr)
	runtime.KeepAlive(p)
	return int(i), takeError(status, cerr)
}

// PlannedBytes returns the bytes planned on tier (seed
// OffloadPlan::planned_bytes), from Info; ErrInvalidArgument for a tier
// this package does not know.
func (p *OffloadPlan) PlannedBytes(tier MemoryTier) (uint64, error) {
	i, err := p.Info()
	if err != nil {
		return 0, err
	}
	switch tier {
	case TierDevice:
		return i.PlannedDeviceBytes, nil
	case TierHost:
		return i.PlannedHostBytes, nil
	case TierDisk:
		return i.PlannedDiskBytes, nil
	}
	return 0, newError(StatusInvalidArgument, "unknown memory tier value %d", uint32(tier))
}
