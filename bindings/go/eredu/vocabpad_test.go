// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

package eredu

import (
	"reflect"
	"strings"
	"testing"
)

// vocabHeadDesc is a head of a replicated norm [4] and an 11-row BF16
// lm_head whose vocabulary is padded to a multiple of multiple.
func vocabHeadDesc(multiple uint64) GroupDesc {
	return GroupDesc{Name: "head", Role: RoleVocabulary, Scope: GroupScope{Kind: ScopeKindOutputHead},
		VocabPadMultiple: multiple, HasVocabPadMultiple: true, Members: []ParameterMemberSpec{
			NewParameterMemberSpec("norm", []uint64{4}, ShardingReplicated()).WithDType(DTypeBF16),
			NewParameterMemberSpec("lm_head", []uint64{11, 4}, ShardingBalanced(0)).WithDType(DTypeBF16),
		}}
}

func TestVocabPadMultipleReadsBack(t *testing.T) {
	g, err := BuildParameterGroupSpec(vocabHeadDesc(2))
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if multiple, ok, err := g.VocabPadMultiple(); err != nil || !ok || multiple != 2 {
		t.Errorf("VocabPadMultiple = %d %v %v", multiple, ok, err)
	}
	unpadded := vocabHeadDesc(0)
	unpadded.HasVocabPadMultiple = false
	plain, err := BuildParameterGroupSpec(unpadded)
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()
	if multiple, ok, err := plain.VocabPadMultiple(); err != nil || ok || multiple != 0 {
		t.Errorf("plain VocabPadMultiple = %d %v %v", multiple, ok, err)
	}
}

// At TP 8 the 11 rows are padded to 16, 2 per rank: rank 5 reads row 10 and
// pads 1, rank 7 reads none and pads 2.
func TestVocabPaddingAtTP8(t *testing.T) {
	g, err := BuildParameterGroupSpec(vocabHeadDesc(2))
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	m, err := ModelFromGroups(nil, []*ParameterGroupSpec{g})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	for _, c := range []struct{ rank, start, end, padding uint64 }{{0, 0, 2, 0}, {5, 10, 11, 1}, {7, 11, 11, 2}} {
		l, err := m.PlanRank(NewParallelTopology(8, 1, 1, 1), c.rank, PlanOptions{Policy: PolicyRequire})
		if err != nil {
			t.Fatalf("rank %d: %v", c.rank, err)
		}
		head, err := l.Tensor("lm_head")
		if err != nil {
			t.Fatal(err)
		}
		want := TensorPlacement{Kind: PlacementRange, Axis: 0, Start: c.start, End: c.end}
		if !reflect.DeepEqual(head.Placement(), want) || !reflect.DeepEqual(head.LocalShape(), []uint64{2, 4}) {
			t.Errorf("rank %d lm_head: %+v %v", c.rank, head.Placement(), head.LocalShape())
		}
		if p := head.PaddingRows(); p != c.padding {
			t.Errorf("rank %d lm_head: PaddingRows = %d, want %d", c.rank, p, c.padding)
		}
		if b, ok := head.LocalBytes(); !ok || b != 16 {
			t.Errorf("rank %d lm_head: LocalBytes = %d %v, want 16", c.rank, b, ok)
		}
		text, err := l.JSON()
		if err != nil {
			t.Fatal(err)
		}
		if want := map[bool]int{true: 1, false: 0}[c.padding > 0]; strings.Count(text, "padding_rows") != want {
			t.Errorf("rank %d JSON = %s", c.rank, text)
		}
		l.Close()
	}
}

func TestVocabPadMisuse(t *testing.T) {
	_, err := BuildParameterGroupSpec(vocabHeadDesc(0))
	assertError(t, err, ErrInvalidGroup, `parallel parameter group "head": vocab_pad_multiple must be at least 1`)

	wrongRole := vocabHeadDesc(2)
	wrongRole.Role = RoleReplicated
	_, err = BuildParameterGroupSpec(wrongRole)
	assertError(t, err, ErrInvalidGroup, `parallel parameter group "head": vocab_pad_multiple needs role vocabulary`)
}
