// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

package eredu

import (
	"errors"
	"reflect"
	"testing"
)

func TestOffloadPlan(t *testing.T) {
	config := DefaultOffloadConfig()
	if config != (OffloadConfig{PrefetchDepth: 1, EvictionPolicy: EvictLeastRecentlyUsed}) {
		t.Fatalf("DefaultOffloadConfig = %+v", config)
	}
	config.DeviceBudgetBytes, config.HasDeviceBudget = 100, true
	plan, err := NewOffloadPlan(&config, []OffloadUnitSpec{
		{ID: "layer.00001", Bytes: 40, Policy: ResidencyWindowed, Tier: TierHost},
		{ID: "static.embed", Bytes: 60, Policy: ResidencyPinned, Tier: TierDevice},
		{ID: "layer.00000", Bytes: 30, Policy: ResidencyCacheable, Tier: TierDisk},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer plan.Close()
	if err := plan.Validate(); err != nil {
		t.Fatal(err)
	}
	if got, err := plan.Config(); err != nil || got != config {
		t.Errorf("Config = %+v, %v", got, err)
	}
	wantInfo := OffloadPlanInfo{Config: config, UnitCount: 3, PlannedDeviceBytes: 60, PlannedHostBytes: 40,
		PlannedDiskBytes: 30}
	if info, err := plan.Info(); err != nil || info != wantInfo || plan.Len() != 3 {
		t.Errorf("Info = %+v, %v; Len = %d", info, err, plan.Len())
	}
	units, err := plan.Units()
	want := []OffloadUnitSpec{
		{ID: "layer.00000", Bytes: 30, Policy: ResidencyCacheable, Tier: TierDisk},
		{ID: "layer.00001", Bytes: 40, Policy: ResidencyWindowed, Tier: TierHost},
		{ID: "static.embed", Bytes: 60, Policy: ResidencyPinned, Tier: TierDevice},
	}
	if err != nil || !reflect.DeepEqual(units, want) {
		t.Errorf("Units = %+v, %v", units, err)
	}
	if i, err := plan.FindUnit("static.embed"); err != nil || i != 2 {
		t.Errorf("FindUnit = %d, %v", i, err)
	}
	_, err = plan.FindUnit("missing")
	if !errors.Is(err, ErrNotFound) {
		t.Errorf("FindUnit(missing) = %v", err)
	}
	for tier, bytes := range map[MemoryTier]uint64{TierDevice: 60, TierHost: 40, TierDisk: 30} {
		if got, err := plan.PlannedBytes(tier); err != nil || got != bytes {
			t.Errorf("PlannedBytes(%v) = %d, %v", tier, got, err)
		}
	}
	_, err = plan.PlannedBytes(MemoryTier(3))
	if !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("PlannedBytes(3) = %v", err)
	}

	config.DeviceBudgetBytes = 9
	_, err = NewOffloadPlan(&config, []OffloadUnitSpec{{ID: "a", Bytes: 10}})
	assertError(t, err, ErrBudgetExceeded, "planned 10 bytes for the Device tier exceed its 9-byte budget")
	_, err = NewOffloadPlan(nil, []OffloadUnitSpec{{ID: "b", Bytes: 1}, {ID: "b", Bytes: 2}})
	assertError(t, err, ErrDuplicateUnitID, "duplicate offload unit identifier: b")
	_, err = NewOffloadPlan(nil, []OffloadUnitSpec{{ID: " ", Bytes: 1}})
	assertError(t, err, ErrEmptyUnitID, "offload unit identifiers must not be empty")
	_, err = NewOffloadPlan(nil, []OffloadUnitSpec{{ID: "x", Bytes: 1, Tier: TierDisk}})
	if !errors.Is(err, ErrContradictoryAssignment) {
		t.Errorf("pinned on disk: %v", err)
	}
	_, err = NewOffloadPlan(&OffloadConfig{}, nil)
	assertError(t, err, ErrZeroPrefetchDepth, "offload prefetch depth must be nonzero")
	empty, err := NewOffloadPlan(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if n := empty.Len(); n != 0 {
		t.Errorf("empty plan Len = %d", n)
	}
	empty.Close()
	empty.Close()
	if _, err := empty.Info(); !errors.Is(err, ErrClosed) {
		t.Errorf("closed plan: %v", err)
	}
}

// The seed tests dense_stream_controls_fail_closed_without_a_backend,
// residency_policy_derives_finite_dense_windows and
// expert_cache_controls_and_composite_placement_are_backend_neutral, through
// WeightResidency.Validate.
func TestWeightResidency(t *testing.T) {
	dense := func(device, host, lookahead, queue uint64) WeightResidency {
		o := DefaultDenseDiskStreamLoadOptions()
		o.DeviceBudgetBytes, o.HostBudgetBytes, o.HostLookahead, o.BackgroundQueueCapacity = device, host, lookahead, queue
		return DenseDiskStream(o)
	}
	_, err := dense(1, 1, 0, 1).Validate(8)
	if !errors.Is(err, ErrZeroHostLookahead) {
		t.Errorf("zero lookahead: %v", err)
	}
	_, err = dense(1, 1, 1, 0).Validate(8)
	if !errors.Is(err, ErrZeroQueueCapacity) {
		t.Errorf("zero queue: %v", err)
	}
	_, err = dense(1, 0, 1, 0).Validate(8)
	if !errors.Is(err, ErrHostDisabledControls) {
		t.Errorf("host disabled: %v", err)
	}
	if _, err := dense(1, 0, 0, 0).Validate(8); err != nil {
		t.Errorf("direct disk-to-device: %v", err)
	}

	summary, err := dense(32, 64, 3, 2).Validate(8)
	if err != nil {
		t.Fatal(err)
	}
	if summary.DeviceDepth != DenseTransferWindow || summary.ExecutionResidency != ExecutionDenseDiskStream ||
		summary.Offload != (OffloadConfig{DeviceBudgetBytes: 32, HasDeviceBudget: true, HostBudgetBytes: 64,
			HasHostBudget: true, PrefetchDepth: 3}) ||
		summary.PreparationResidency != RequestDenseDiskStream || summary.DenseHostLookahead != 3 ||
		summary.DenseBackgroundQueueCapacity != 2 || summary.MaxCachedShards != DefaultMaxCachedShards {
		t.Errorf("dense summary = %+v", summary)
	}

	experts := DefaultParameterBankLoadOptions()
	experts.CompactBankScratchBytes, experts.PrefillCompactBankTargetBytes = 64, 32
	placement := FullyResident().WithParameterBankCache(experts)
	summary, err = placement.Validate(4)
	if err != nil {
		t.Fatal(err)
	}
	if !summary.OrdinaryIsFullyResident || summary.IsFullyResident ||
		summary.PreparationResidency != RequestAddressableParameterBanks ||
		!reflect.DeepEqual(summary.ParameterBankCache, &experts) || summary.DeviceDepth != 4 {
		t.Errorf("bank summary = %+v", summary)
	}
	experts.PrefillCompactBankTargetBytes = 0
	_, err = FullyResident().WithParameterBankCache(experts).Validate(4)
	if !errors.Is(err, ErrZeroParameterBankPrefillTarget) {
		t.Errorf("zero prefill target: %v", err)
	}

	layerwise := DefaultLayerwiseLoadOptions()
	layerwise.Offload.PrefetchDepth = 5
	summary, err = LayerwiseHost(layerwise).Validate(3)
	if err != nil || summary.DeviceDepth != 5 || summary.PreparationResidency != RequestLayerwiseHost {
		t.Errorf("layerwise summary = %+v, %v", summary, err)
	}
	if summary, err := FullyResident().Validate(7); err != nil || !summary.IsFullyResident || summary.DeviceDepth != 7 {
		t.Errorf("fully resident summary = %+v, %v", summary, err)
	}
	wrong := FullyResident()
	wrong.Dense = &DenseDiskStreamLoadOptions{}
	if _, err := wrong.Validate(1); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("dense options on fully resident: %v", err)
	}

	if id, err := (ParameterBankKey{Unit: 3, Member: 7}).UnitID(); err != nil || id != "bank.unit.00003.member.00007" {
		t.Errorf("UnitID = %q, %v", id, err)
	}
	if a, err := ExpertPassPrefill.ParameterBankAccess(); err != nil || a != ParameterBankAccessBulk {
		t.Errorf("prefill access = %v, %v", a, err)
	}
	if a, err := ExpertPassDecode.ParameterBankAccess(); err != nil || a != ParameterBankAccessIncremental {
		t.Errorf("decode access = %v, %v", a, err)
	}
	if _, err := ExpertPass(9).ParameterBankAccess(); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("unknown pass: %v", err)
	}
}

// The seed test dense_transfer_schedule_preserves_order_and_bounded_lookahead,
// with integer tokens.
func TestDenseTransferSchedule(t *testing.T) {
	s, err := NewDenseTransferScheduleRange(3, 7, 2)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	desired := func(lookahead int, want ...uint64) {
		t.Helper()
		if got, err := s.DesiredIndices(lookahead); err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("DesiredIndices(%d) = %v, %v; want %v", lookahead, got, err, want)
		}
	}
	pop := func(index, token uint64) {
		t.Helper()
		if i, tok, ok, err := s.PopReady(); err != nil || !ok || i != index || tok != token {
			t.Errorf("PopReady = %d %d %v %v; want %d %d", i, tok, ok, err, index, token)
		}
	}
	admit := func(index, token uint64) {
		t.Helper()
		if err := s.Admit(index, token); err != nil {
			t.Errorf("Admit(%d) = %v", index, err)
		}
	}
	desired(3, 3, 4, 5)
	assertError(t, s.Admit(4, 0), ErrOutOfOrder, "dense transfer schedule expected unit 3, received 4")
	admit(3, 33)
	admit(4, 44)
	if s.CanAdmit() {
		t.Error("CanAdmit = true with a full window")
	}
	assertError(t, s.Admit(5, 55), ErrCapacityExceeded, "dense transfer window exceeds its capacity of 2")
	desired(3, 3, 4, 5)
	pop(3, 33)
	admit(5, 55)
	desired(4, 4, 5, 6)
	pop(4, 44)
	pop(5, 55)
	if next, ok, err := s.NextPending(); err != nil || !ok || next != 6 {
		t.Errorf("NextPending = %d %v %v", next, ok, err)
	}
	admit(6, 66)
	if !s.HasReady() {
		t.Error("HasReady = false")
	}
	pop(6, 66)
	if !s.IsExhausted() {
		t.Error("IsExhausted = false")
	}
	if _, _, ok, err := s.PopReady(); err != nil || ok {
		t.Errorf("PopReady when empty = %v, %v", ok, err)
	}
	desired(3)
	assertError(t, s.Admit(7, 0), ErrNoPendingUnit, "dense transfer schedule has no pending unit")

	listed, err := NewDenseTransferSchedule([]uint64{2, 5, 9}, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer listed.Close()
	if got, err := listed.DesiredIndices(10); err != nil || !reflect.DeepEqual(got, []uint64{2, 5, 9}) {
		t.Errorf("listed DesiredIndices = %v, %v", got, err)
	}
	_, err = NewDenseTransferSchedule([]uint64{5, 3}, 1)
	assertError(t, err, ErrUnorderedPending, "dense transfer pending unit 3 does not follow 5")
	_, err = NewDenseTransferScheduleRange(0, 1, 0)
	assertError(t, err, ErrZeroCapacity, "dense transfer window capacity must be nonzero")
	_, err = NewDenseTransferSchedule(nil, -1)
	assertError(t, err, ErrInvalidArgument, "dense transfer capacity -1 is negative")
	// A negative lookahead is refused, not read as 0.
	_, err = listed.DesiredIndices(-1)
	assertError(t, err, ErrInvalidArgument, "dense transfer lookahead -1 is negative")
}
