// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

package eredu

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// tinyMoE loads tests/vectors/inputs/seed/tiny_moe.groups.json: 4 decoder
// layers of 12 tensors each, 54 tensors in all.
func tinyMoE(t *testing.T) *ModelDescription {
	t.Helper()
	document, err := os.ReadFile(filepath.Join(vectorsDir(t), "inputs", "seed", "tiny_moe.groups.json"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := ModelFromJSON(document)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return m
}

// layerOf returns the decoder layer of a tiny_moe target (layers.<n>.…).
func layerOf(target string) (int, bool) {
	if !strings.HasPrefix(target, "layers.") {
		return 0, false
	}
	rest := strings.TrimPrefix(target, "layers.")
	n, err := strconv.Atoi(strings.SplitN(rest, ".", 2)[0])
	return n, err == nil
}

func TestPipelineLayersWorld(t *testing.T) {
	m := tinyMoE(t)
	pp2 := NewParallelTopology(1, 2, 1, 1)
	layers := []uint64{1, 3}
	text, err := m.PlanWorldJSON(pp2, PlanOptions{PipelineLayers: layers})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`{"schema":"eredu.world.v1","topology":{"tensor":1,"pipeline":2,"expert":1,"data":1,"pipeline_layers":[1,3]},`,
		`{"rank":0,"coordinates":{"tensor":0,"pipeline":0,"expert":0,"data":0},"totals":{"local_bytes":13504,"global_bytes":43712,"materialized_tensors":17,"omitted_tensors":37}`,
		`{"rank":1,"coordinates":{"tensor":0,"pipeline":1,"expert":0,"data":0},"totals":{"local_bytes":33664,"global_bytes":43712,"materialized_tensors":42,"omitted_tensors":12}`,
		`"coverage":{"ok":true,"tensors":54,"problems":[]}}` + "\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("world text lacks %s:\n%s", want, text)
		}
	}
	if !reflect.DeepEqual(layers, []uint64{1, 3}) {
		t.Errorf("the call changed the caller's counts: %v", layers)
	}
	single, err := m.PlanWorldJSON(pp2, PlanOptions{Threads: 1, PipelineLayers: layers})
	if err != nil || single != text {
		t.Errorf("one thread: %v, same text %v", err, single == text)
	}

	// Nil and empty are the balanced split (2, 2), without counts.
	balanced, err := m.PlanWorldJSON(pp2, PlanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(balanced, `{"schema":"eredu.world.v1","topology":{"tensor":1,"pipeline":2,"expert":1,"data":1},`) {
		t.Errorf("balanced world: %s", balanced)
	}
	if empty, err := m.PlanWorldJSON(pp2, PlanOptions{PipelineLayers: []uint64{}}); err != nil || empty != balanced {
		t.Errorf("empty counts: %v, balanced %v", err, empty == balanced)
	}

	check, err := m.CheckJSON(pp2, PlanOptions{PipelineLayers: []uint64{3, 1}}, CheckOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if want := `"topology":{"tensor":1,"pipeline":2,"expert":1,"data":1,"pipeline_layers":[3,1]}`; !strings.Contains(check, want) {
		t.Errorf("check text lacks %s:\n%s", want, check)
	}
}

func TestPipelineLayersRankOneHoldsLayersOneToThree(t *testing.T) {
	m := tinyMoE(t)
	pp2 := NewParallelTopology(1, 2, 1, 1)
	l, err := m.PlanRank(pp2, 1, PlanOptions{PipelineLayers: []uint64{1, 3}})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	info, err := l.Info()
	if err != nil {
		t.Fatal(err)
	}
	if info.Coordinates.Pipeline != 1 {
		t.Errorf("pipeline coordinate %d, want 1", info.Coordinates.Pipeline)
	}
	wantTotals := LayoutTotals{LocalBytes: 33664, GlobalBytes: 43712, MaterializedTensors: 42, OmittedTensors: 12}
	if info.Totals != wantTotals {
		t.Errorf("totals %+v, want %+v", info.Totals, wantTotals)
	}
	tensors, err := l.Tensors()
	if err != nil {
		t.Fatal(err)
	}
	var perLayer [4][2]int // omitted, held
	for _, tensor := range tensors {
		if layer, ok := layerOf(tensor.Target()); ok {
			if tensor.Placement().Kind == PlacementOmit {
				perLayer[layer][0]++
			} else {
				perLayer[layer][1]++
			}
		}
	}
	if want := [4][2]int{{12, 0}, {0, 12}, {0, 12}, {0, 12}}; perLayer != want {
		t.Errorf("(omitted, held) per layer %v, want %v", perLayer, want)
	}
	q0, err := l.Tensor("layers.0.self_attn.qkv_proj.weight")
	if err != nil || q0.Placement().Kind != PlacementOmit {
		t.Errorf("layer 0 qkv: %v, %v", q0.Placement(), err)
	}
	q1, err := l.Tensor("layers.1.self_attn.qkv_proj.weight")
	if bytes, _ := q1.LocalBytes(); err != nil || q1.Placement().Kind == PlacementOmit ||
		!reflect.DeepEqual(q1.LocalShape(), []uint64{32, 16}) || bytes != 32*16*2 {
		t.Errorf("layer 1 qkv: %v %v %d, %v", q1.Placement(), q1.LocalShape(), bytes, err)
	}
	text, err := l.JSON()
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"schema":"eredu.layout.v1","topology":{"tensor":1,"pipeline":2,"expert":1,"data":1,"pipeline_layers":[1,3]},"rank":1,`; !strings.HasPrefix(text, want) {
		t.Errorf("layout JSON does not start with %s:\n%.200s", want, text)
	}

	// Balanced, rank 1 is stage 1 of (2, 2): layer 1 is omitted.
	b, err := m.PlanRank(pp2, 1, PlanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if q, err := b.Tensor("layers.1.self_attn.qkv_proj.weight"); err != nil || q.Placement().Kind != PlacementOmit {
		t.Errorf("balanced layer 1 qkv: %v, %v", q.Placement(), err)
	}
}

// TestPipelineLayersErrors: every planning call refuses counts that do not
// fit with ErrInvalidArgument and the library's message.
func TestPipelineLayersErrors(t *testing.T) {
	m := tinyMoE(t)
	for _, c := range []struct {
		topology ParallelTopology
		layers   []uint64
		message  string
	}{
		{NewParallelTopology(1, 2, 1, 1), []uint64{2, 3},
			"pipeline layers 2, 3 sum to 5, not the model's 4 decoder layers"},
		{NewParallelTopology(1, 3, 1, 1), []uint64{2, 2},
			"pipeline layers: 2 counts for 3 pipeline stages; give one per stage"},
		{NewParallelTopology(1, 1, 1, 1), []uint64{2, 2},
			"pipeline layers: 2 counts for 1 pipeline stage; give one per stage"},
		{NewParallelTopology(1, 2, 1, 1), []uint64{4, 0},
			"pipeline layers: stage 1 has 0 layers; every stage needs at least one"},
		{NewParallelTopology(1, 2, 1, 1), []uint64{math.MaxUint64, 1},
			"pipeline layers: the sum overflows 64 bits"},
	} {
		options := PlanOptions{PipelineLayers: c.layers}
		_, rankErr := m.PlanRank(c.topology, 0, options)
		_, worldErr := m.PlanWorldJSON(c.topology, options)
		_, checkErr := m.CheckJSON(c.topology, options, CheckOptions{})
		for call, err := range map[string]error{"PlanRank": rankErr, "PlanWorldJSON": worldErr, "CheckJSON": checkErr} {
			var e *Error
			if !errors.Is(err, ErrInvalidArgument) || !errors.As(err, &e) {
				t.Errorf("%s %v: %v, want ErrInvalidArgument", call, c.layers, err)
				continue
			}
			if e.Code != StatusInvalidArgument || int32(e.Code) != 2 || e.Name != "EREDU_E_INVALID_ARGUMENT" || e.Message != c.message {
				t.Errorf("%s %v: %d %s %q, want 2 EREDU_E_INVALID_ARGUMENT %q", call, c.layers, int32(e.Code), e.Name, e.Message, c.message)
			}
		}
	}
	_, err := m.PlanWorldJSON(NewParallelTopology(1, 2, 1, 1), PlanOptions{PipelineLayers: []uint64{2, 3}})
	if want := "eredu: EREDU_E_INVALID_ARGUMENT (2): pipeline layers 2, 3 sum to 5, not the model's 4 decoder layers"; err == nil || err.Error() != want {
		t.Errorf("error text %v, want %s", err, want)
	}
}
