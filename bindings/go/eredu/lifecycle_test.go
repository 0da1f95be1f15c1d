// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

package eredu

import (
	"errors"
	"runtime"
	"runtime/debug"
	"sync"
	"testing"
)

func TestCloseIsIdempotentAndClosedHandlesFail(t *testing.T) {
	g := gqaAttention(t)
	m, err := ModelFromGroups(nil, []*ParameterGroupSpec{g})
	if err != nil {
		t.Fatal(err)
	}
	l, err := m.PlanRank(NewParallelTopology(2, 1, 1, 1), 0, PlanOptions{Policy: PolicyRequire})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		if err := g.Close(); err != nil {
			t.Fatal(err)
		}
	}
	// A model keeps its own copy of the groups.
	if n := m.TensorCount(); n != 4 {
		t.Fatalf("TensorCount after closing the group = %d", n)
	}
	for i := 0; i < 2; i++ {
		if err := m.Close(); err != nil {
			t.Fatal(err)
		}
	}
	// A layout keeps its model alive.
	if text, err := l.JSON(); err != nil || len(text) == 0 {
		t.Fatalf("JSON after closing the model = %d bytes, %v", len(text), err)
	}
	for i := 0; i < 2; i++ {
		if err := l.Close(); err != nil {
			t.Fatal(err)
		}
	}

	checks := map[string]error{}
	_, checks["group.LogicalName"] = g.LogicalName()
	_, checks["group.Role"] = g.Role()
	_, _, checks["group.PartitionUnits"] = g.PartitionUnits()
	_, checks["group.Info"] = g.Info()
	_, checks["group.Members"] = g.Members()
	_, checks["ModelFromGroups(closed group)"] = ModelFromGroups(nil, []*ParameterGroupSpec{g})
	_, checks["ModelFromGroups(nil group)"] = ModelFromGroups(nil, []*ParameterGroupSpec{nil})
	_, checks["model.PlanRank"] = m.PlanRank(NewParallelTopology(1, 1, 1, 1), 0, PlanOptions{Policy: PolicyRequire})
	_, checks["model.PlanWorldJSON"] = m.PlanWorldJSON(NewParallelTopology(1, 1, 1, 1), PlanOptions{})
	_, checks["model.CheckJSON"] = m.CheckJSON(NewParallelTopology(1, 1, 1, 1), PlanOptions{}, CheckOptions{})
	_, checks["model.FitJSON"] = m.FitJSON(PlanOptions{}, CheckOptions{}, DefaultFitOptions())
	_, checks["nil model FitJSON"] = FitJSON(nil, PlanOptions{}, CheckOptions{}, DefaultFitOptions())
	_, checks["model.ExpandLinearFormat"] = m.ExpandLinearFormat(nil)
	_, checks["layout.JSON"] = l.JSON()
	_, checks["layout.Info"] = l.Info()
	_, checks["layout.Topology"] = l.Topology()
	_, checks["layout.Totals"] = l.Totals()
	_, checks["layout.Find"] = l.Find("q.weight")
	_, checks["layout.TensorAt"] = l.TensorAt(0)
	_, checks["layout.Tensors"] = l.Tensors()
	var nilModel *ModelDescription
	_, checks["nil model"] = nilModel.PlanWorldJSON(NewParallelTopology(1, 1, 1, 1), PlanOptions{})
	var nilLayout *LocalModelLayout
	_, checks["nil layout"] = nilLayout.TensorAt(0)
	for name, err := range checks {
		if !errors.Is(err, ErrClosed) {
			t.Errorf("%s on a closed handle: %v", name, err)
		}
	}
	// The plain values the library returns for a NULL handle, without
	// reaching it.
	if m.TensorCount() != 0 || m.GroupCount() != 0 || m.GlobalBytes() != 0 || l.Len() != 0 ||
		nilModel.TensorCount() != 0 || nilLayout.Len() != 0 {
		t.Errorf("counts of closed handles: %d %d %d %d %d %d", m.TensorCount(), m.GroupCount(),
			m.GlobalBytes(), l.Len(), nilModel.TensorCount(), nilLayout.Len())
	}
	if err := nilModel.Close(); err != nil {
		t.Errorf("Close of a nil model: %v", err)
	}
}

// TestHandlesSurviveGC runs every call with a forced collection in between
// and chains calls on otherwise unreachable handles while another goroutine
// collects continuously: a missing runtime.KeepAlive lets a finalizer free
// the C object during the call (seen as a crash or a wrong result, and by
// the race of the finalizer with the call).
func TestHandlesSurviveGC(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(1))
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
				runtime.GC()
			}
		}
	}()
	defer func() { close(stop); wg.Wait() }()

	plan := func(rank uint64) *LocalModelLayout {
		l, err := gqaModel(t).PlanRank(NewParallelTopology(4, 1, 1, 1), rank, PlanOptions{Policy: PolicyRequire})
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	for i := 0; i < 50; i++ {
		rank := uint64(i % 4)
		runtime.GC()
		if n := plan(rank).Len(); n != 4 {
			t.Fatalf("Len = %d", n)
		}
		runtime.GC()
		text, err := plan(rank).JSON()
		if err != nil || len(text) == 0 {
			t.Fatalf("JSON: %v", err)
		}
		runtime.GC()
		q, err := plan(rank).Tensor("q.weight")
		if err != nil || q.Placement().Start != 1024*rank {
			t.Fatalf("Tensor = %+v, %v", q, err)
		}
		runtime.GC()
		o, err := plan(rank).TensorAt(1)
		if err != nil || o.Placement().Axis != 1 || o.Target() != "o.weight" {
			t.Fatalf("TensorAt = %+v, %v", o, err)
		}
		runtime.GC()
		info, err := plan(rank).Info()
		if err != nil || info.Rank != rank || info.TensorCount != 4 {
			t.Fatalf("Info = %+v, %v", info, err)
		}
		runtime.GC()
		members, err := gqaAttention(t).Members()
		if err != nil || len(members) != 4 {
			t.Fatalf("Members = %d, %v", len(members), err)
		}
		runtime.GC()
		name, err := gqaAttention(t).LogicalName()
		if err != nil || name != "layers.0.self_attn" {
			t.Fatalf("LogicalName = %q, %v", name, err)
		}
		runtime.GC()
		if b := gqaModel(t).GlobalBytes(); b != 83886080 {
			t.Fatalf("GlobalBytes = %d", b)
		}
	}
}

func TestConcurrentReaders(t *testing.T) {
	m := gqaModel(t)
	defer m.Close()
	l, err := m.PlanRank(NewParallelTopology(2, 1, 1, 1), 1, PlanOptions{Policy: PolicyRequire})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	want, err := l.JSON()
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				other, err := m.PlanRank(NewParallelTopology(2, 1, 1, 1), 1, PlanOptions{Policy: PolicyRequire})
				if err != nil {
					errs <- err
					return
				}
				text, err := other.JSON()
				other.Close()
				if err != nil || text != want {
					errs <- errors.New("concurrent plan differs")
					return
				}
				if _, err := l.TensorAt(i % 4); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestEveryHandleTypeClosesOnce closes each remaining handle type twice,
// then checks a call on it and on a nil handle wraps ErrClosed.
func TestEveryHandleTypeClosesOnce(t *testing.T) {
	schedule, err := NewDenseTransferScheduleRange(0, 4, 2)
	if err != nil {
		t.Fatal(err)
	}
	unit, err := NewStaticUnitBindings("static.embedding",
		[]WeightBinding{{Name: "embedding", CheckpointKey: "model.embedding.weight", ExpectedBytes: 16}})
	if err != nil {
		t.Fatal(err)
	}
	metadata, err := NewLayerwiseModelMetadata(LayerwiseModelMetadataDesc{EffectiveModelType: "generic",
		LayerCount: 1, Residency: ExecutionFullyResident})
	if err != nil {
		t.Fatal(err)
	}
	request, err := NewNormalizedLoadRequest()
	if err != nil {
		t.Fatal(err)
	}
	plan, err := NewOffloadPlan(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		for _, c := range []interface{ Close() error }{schedule, unit, metadata, request, plan} {
			if err := c.Close(); err != nil {
				t.Fatalf("Close %d of %T: %v", i, c, err)
			}
		}
	}
	var nilSchedule *DenseTransferSchedule
	var nilUnit *StaticUnitBindings
	var nilMetadata *LayerwiseModelMetadata
	var nilRequest *NormalizedLoadRequest
	var nilPlan *OffloadPlan
	checks := map[string]error{}
	_, checks["schedule.DesiredIndices"] = schedule.DesiredIndices(1)
	checks["schedule.Admit"] = schedule.Admit(0, 0)
	_, _, checks["nil schedule"] = nilSchedule.NextPending()
	_, checks["unit.ID"] = unit.ID()
	_, checks["unit.Bindings"] = unit.Bindings()
	_, checks["nil unit"] = nilUnit.ID()
	_, checks["metadata.Desc"] = metadata.Desc()
	checks["metadata.SetQuantization"] = metadata.SetQuantization(nil)
	_, checks["nil metadata"] = nilMetadata.Desc()
	_, checks["request.ValidateModelPreparation"] = request.ValidateModelPreparation()
	_, checks["nil request"] = nilRequest.Drafting()
	_, checks["plan.Units"] = plan.Units()
	_, checks["plan.Info"] = plan.Info()
	_, checks["nil plan"] = nilPlan.Config()
	for name, err := range checks {
		if !errors.Is(err, ErrClosed) {
			t.Errorf("%s on a closed handle: %v", name, err)
		}
	}
	// The plain values the library returns for a NULL handle.
	if schedule.CanAdmit() || schedule.HasReady() || schedule.IsExhausted() || nilSchedule.CanAdmit() ||
		plan.Len() != 0 || nilPlan.Len() != 0 {
		t.Error("a closed schedule or plan reports a value")
	}
	for _, c := range []interface{ Close() error }{nilSchedule, nilUnit, nilMetadata, nilRequest, nilPlan} {
		if err := c.Close(); err != nil {
			t.Errorf("Close of a nil %T: %v", c, err)
		}
	}
}
