// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

package eredu

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// The tests read examples/files/stories260K.gguf, a GGUF llama model: 48
// F32 tensors; 5 layers, hidden 64, 8 query heads, 4 KV heads, ffn 172,
// vocabulary 512.
const storiesGGUF = "examples/files/stories260K.gguf"

func storiesPath(t *testing.T) string {
	t.Helper()
	path := filepath.Join(repoRoot(t), storiesGGUF)
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("%s is missing: these tests read it (%v)", path, err)
	}
	return path
}

// readPlanOf plans rank at tensor parallel tp and returns its read plan;
// the description, checkpoint and layout are closed before it is used.
func readPlanOf(t *testing.T, path string, tp, rank uint64, opts DescribeOptions) *ReadPlan {
	t.Helper()
	model, err := DescribeModel(path, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer model.Close()
	checkpoint, err := OpenCheckpoint(path)
	if err != nil {
		t.Fatal(err)
	}
	defer checkpoint.Close()
	layout, err := model.PlanRank(NewParallelTopology(tp, 1, 1, 1), rank, PlanOptions{Policy: PolicyRequire})
	if err != nil {
		t.Fatal(err)
	}
	defer layout.Close()
	plan, err := NewReadPlan(layout, checkpoint)
	if err != nil {
		t.Fatal(err)
	}
	return plan
}

func readTensorNamed(t *testing.T, plan *ReadPlan, target string) ReadTensor {
	t.Helper()
	tensors, err := plan.Tensors()
	if err != nil {
		t.Fatal(err)
	}
	for _, tensor := range tensors {
		if tensor.Target == target {
			return tensor
		}
	}
	t.Fatalf("the plan reads no %s", target)
	return ReadTensor{}
}

func TestDescribeModelFromGGUF(t *testing.T) {
	path := storiesPath(t)
	model, err := DescribeModel(path, DescribeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer model.Close()
	if n, bytes := model.TensorCount(), model.GlobalBytes(); n != 48 || bytes != 1171200 {
		t.Errorf("described %d tensors, %d bytes; want 48, 1171200", n, bytes)
	}
	checkpoint, err := OpenCheckpoint(path)
	if err != nil {
		t.Fatal(err)
	}
	defer checkpoint.Close()
	if n := checkpoint.TensorCount(); n != 48 {
		t.Errorf("the checkpoint stores %d tensors, want 48", n)
	}
}

func TestReadPlanTP2Rank1(t *testing.T) {
	path := storiesPath(t)
	plan := readPlanOf(t, path, 2, 1, DescribeOptions{})
	defer plan.Close()
	if plan.Rank() != 1 || plan.ReadBytes() != 587008 {
		t.Errorf("rank %d reads %d bytes, want rank 1, 587008", plan.Rank(), plan.ReadBytes())
	}
	files, err := plan.Files()
	if err != nil || !reflect.DeepEqual(files, []string{path}) {
		t.Errorf("Files() = %q, %v", files, err)
	}
	paths, err := plan.FilePaths()
	if err != nil || !reflect.DeepEqual(paths, []string{path}) {
		t.Errorf("FilePaths() = %q, %v", paths, err)
	}
	tensors, err := plan.Tensors()
	if err != nil {
		t.Fatal(err)
	}
	if len(tensors) != 48 {
		t.Fatalf("%d tensors, want 48", len(tensors))
	}
	var sum uint64
	for _, tensor := range tensors {
		sum += tensor.ReadBytes
		if tensor.DType != "F32" {
			t.Errorf("%s: dtype %s", tensor.Target, tensor.DType)
		}
	}
	if sum != 587008 {
		t.Errorf("the tensors read %d bytes", sum)
	}
	want := ReadTensor{
		Target: "blk.0.attn_q.weight", DType: "F32", LocalShape: []uint64{32, 64},
		LocalBytes: 8192, ReadBytes: 8192,
		Extents: []ReadExtent{{File: 0, Offset: 284768, Length: 8192, Count: 1, Stride: 8192, Dest: 0, DestStride: 8192}},
	}
	if got := readTensorNamed(t, plan, want.Target); !reflect.DeepEqual(got, want) {
		t.Errorf("%s = %+v, want %+v", want.Target, got, want)
	}
	output := readTensorNamed(t, plan, "blk.0.attn_output.weight")
	if !reflect.DeepEqual(output.LocalShape, []uint64{64, 32}) ||
		!reflect.DeepEqual(output.Extents, []ReadExtent{{File: 0, Offset: 309472, Length: 128, Count: 64, Stride: 256, Dest: 0, DestStride: 128}}) {
		t.Errorf("blk.0.attn_output.weight = %+v", output)
	}
}

func TestReadPlanOfAPaddedVocabulary(t *testing.T) {
	// 512 rows of 256 bytes (at offset 145504) padded to a multiple of 3 x 2:
	// 516, 258 per rank; rank 1 reads rows [258, 512) and pads 4.
	plan := readPlanOf(t, storiesPath(t), 2, 1, DescribeOptions{PadVocab: 3})
	defer plan.Close()
	want := ReadTensor{
		Target: "output.weight", DType: "F32", LocalShape: []uint64{258, 64},
		LocalBytes: 66048, ReadBytes: 65024, PaddingRows: 4,
		Extents: []ReadExtent{{File: 0, Offset: 211552, Length: 65024, Count: 1, Stride: 65024, Dest: 0, DestStride: 65024}},
	}
	if got := readTensorNamed(t, plan, want.Target); !reflect.DeepEqual(got, want) {
		t.Errorf("%s = %+v, want %+v", want.Target, got, want)
	}
}

// TestReadPlanJSONIsTheCommands compares the text with what `eredu
// read-plan examples/files/stories260K.gguf --tp 2 --rank 1 --format json`
// prints at the repository root (tests/data; tests/cli checks it). The plan
// names its file as given, so it is opened from there too. No test of this
// package runs in parallel, so changing the working directory is safe.
func TestReadPlanJSONIsTheCommands(t *testing.T) {
	root := repoRoot(t)
	storiesPath(t)
	expected, err := os.ReadFile(filepath.Join(root, "tests", "data", "stories260K.tp2.rank1.readplan.json"))
	if err != nil {
		t.Fatal(err)
	}
	here, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chdir(root); err != nil {
		t.Fatal(err)
	}
	plan := func() *ReadPlan {
		defer func() {
			if err := os.Chdir(here); err != nil {
				t.Fatal(err)
			}
		}()
		return readPlanOf(t, storiesGGUF, 2, 1, DescribeOptions{})
	}()
	defer plan.Close()
	text, err := plan.JSON()
	if err != nil {
		t.Fatal(err)
	}
	if text != string(expected) {
		t.Errorf("JSON() differs from the command's output:\n%s\nwant\n%s", text, expected)
	}
}

func TestDescribeAndOpenErrors(t *testing.T) {
	_, err := DescribeModel("/nonexistent/model", DescribeOptions{})
	var e *Error
	if !errors.Is(err, ErrIO) || !errors.As(err, &e) || e.Code != 9 ||
		e.Message != "cannot read /nonexistent/model/config.json: No such file or directory" {
		t.Errorf("DescribeModel(missing) = %v", err)
	}
	notes := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(notes, []byte("not a checkpoint\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = OpenCheckpoint(notes)
	if !errors.Is(err, ErrParse) || !errors.As(err, &e) || e.Code != 6 ||
		!strings.HasPrefix(e.Message, notes+": header length ") {
		t.Errorf("OpenCheckpoint(text file) = %v", err)
	}
	if _, err := OpenCheckpoint("a\x00b"); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("OpenCheckpoint(NUL) = %v", err)
	}
}

func TestReadPlanCheckpointMismatch(t *testing.T) {
	model, err := DescribeModel(filepath.Join(repoRoot(t), "examples", "models", "qwen3-1.7b"),
		DescribeOptions{ConfigOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer model.Close()
	layout, err := model.PlanRank(NewParallelTopology(1, 1, 1, 1), 0, PlanOptions{Policy: PolicyRequire})
	if err != nil {
		t.Fatal(err)
	}
	defer layout.Close()
	checkpoint, err := OpenCheckpoint(storiesPath(t))
	if err != nil {
		t.Fatal(err)
	}
	defer checkpoint.Close()
	_, err = NewReadPlan(layout, checkpoint)
	var e *Error
	if !errors.Is(err, ErrCheckpointMismatch) || !errors.As(err, &e) || e.Message !=
		`rank 0 materializes tensor "model.embed_tokens.weight", which the checkpoint does not hold` {
		t.Errorf("NewReadPlan(other model) = %v", err)
	}
}

func TestClosedCheckpointsAndPlans(t *testing.T) {
	path := storiesPath(t)
	plan := readPlanOf(t, path, 2, 1, DescribeOptions{})
	for i := 0; i < 2; i++ {
		if err := plan.Close(); err != nil {
			t.Fatal(err)
		}
	}
	checkpoint, err := OpenCheckpoint(path)
	if err != nil {
		t.Fatal(err)
	}
	checkpoint.Close()
	model, err := DescribeModel(path, DescribeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer model.Close()
	layout, err := model.PlanRank(NewParallelTopology(2, 1, 1, 1), 1, PlanOptions{Policy: PolicyRequire})
	if err != nil {
		t.Fatal(err)
	}
	defer layout.Close()
	checks := map[string]error{}
	_, checks["plan.Files"] = plan.Files()
	_, checks["plan.FilePaths"] = plan.FilePaths()
	_, checks["plan.Tensors"] = plan.Tensors()
	_, checks["plan.JSON"] = plan.JSON()
	_, checks["NewReadPlan(closed checkpoint)"] = NewReadPlan(layout, checkpoint)
	_, checks["NewReadPlan(nil layout)"] = NewReadPlan(nil, checkpoint)
	for name, err := range checks {
		if !errors.Is(err, ErrClosed) {
			t.Errorf("%s on a closed handle: %v", name, err)
		}
	}
	if plan.Rank() != 0 || plan.ReadBytes() != 0 || checkpoint.TensorCount() != 0 {
		t.Error("a closed handle's plain values are not 0")
	}
}

func TestReadTensorFillsEachRanksColumns(t *testing.T) {
	path := storiesPath(t)
	const target = "blk.0.attn_output.weight"
	indexOf := func(plan *ReadPlan) int {
		tensors, err := plan.Tensors()
		if err != nil {
			t.Fatal(err)
		}
		for i, tensor := range tensors {
			if tensor.Target == target {
				return i
			}
		}
		t.Fatalf("the plan reads no %s", target)
		return -1
	}
	whole := readPlanOf(t, path, 1, 0, DescribeOptions{})
	defer whole.Close()
	full := make([]byte, 64*64*4)
	if err := whole.ReadTensor(indexOf(whole), full); err != nil {
		t.Fatal(err)
	}
	for rank := uint64(0); rank < 2; rank++ {
		plan := readPlanOf(t, path, 2, rank, DescribeOptions{})
		defer plan.Close()
		local := make([]byte, 64*32*4+2)
		local[len(local)-1], local[len(local)-2] = 0xAA, 0xAA
		if err := plan.ReadTensor(indexOf(plan), local); err != nil {
			t.Fatal(err)
		}
		// Rank r holds 128 bytes (columns [32r, 32r + 32)) of each 256-byte row.
		for row := 0; row < 64; row++ {
			from := row*256 + int(rank)*128
			if !bytes.Equal(local[row*128:row*128+128], full[from:from+128]) {
				t.Fatalf("rank %d row %d differs from the file", rank, row)
			}
		}
		if local[len(local)-1] != 0xAA || local[len(local)-2] != 0xAA {
			t.Error("bytes past the tensor were written")
		}
		if err := plan.ReadTensor(indexOf(plan), local[:64*128-1]); !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("a short buffer: %v", err)
		}
		if err := plan.ReadTensor(-1, local); !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("a negative index: %v", err)
		}
	}
}

func TestLoadReadsEveryTensorAsReadTensorDoes(t *testing.T) {
	plan := readPlanOf(t, storiesPath(t), 2, 1, DescribeOptions{})
	defer plan.Close()
	data, stats, err := plan.Load(DefaultReadOptions())
	if err != nil {
		t.Fatal(err)
	}
	defer data.Close()
	if stats.Tensors != 48 || stats.BytesKept != 587008 || stats.BytesRead != 587008 {
		t.Errorf("stats %+v", stats)
	}
	if data.Len() != 48 {
		t.Fatalf("%d tensors", data.Len())
	}
	for i := 0; i < data.Len(); i++ {
		tensor := data.Tensor(i)
		want := make([]byte, len(tensor))
		if err := plan.ReadTensor(i, want); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(tensor, want) {
			t.Fatalf("tensor %d differs from ReadTensor's", i)
		}
	}
	if data.Tensor(48) != nil {
		t.Error("an index out of range gave a tensor")
	}
	bad := DefaultReadOptions()
	bad.RequestBytes = 1
	if _, _, err := plan.Load(bad); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("request size 1: %v", err)
	}
	data.Close()
	if data.Len() != 0 || data.Tensor(0) != nil {
		t.Error("a closed RankData still has tensors")
	}
}

// loadWithProgress loads plan with 4 KiB requests on threads threads,
// recording every progress call; stop says when to cancel.
func loadWithProgress(t *testing.T, plan *ReadPlan, threads uint32, stop func(done uint64) bool) (done, totals []uint64, stats ReadStats, err error) {
	t.Helper()
	options := DefaultReadOptions()
	options.Threads = threads
	options.RequestBytes = 4096 // many requests, the calling thread reporting after each of its own
	options.Progress = func(d, total uint64) bool {
		done = append(done, d)
		totals = append(totals, total)
		return !stop(d)
	}
	data, stats, err := plan.Load(options)
	if err == nil {
		data.Close()
	} else if data != nil {
		t.Error("a failed Load returned data")
	}
	return done, totals, stats, err
}

func TestLoadReportsProgress(t *testing.T) {
	plan := readPlanOf(t, storiesPath(t), 2, 1, DescribeOptions{})
	defer plan.Close()
	if plan.ReadBytes() != 587008 {
		t.Fatalf("the plan reads %d bytes", plan.ReadBytes())
	}
	for _, threads := range []uint32{1, 2} {
		done, totals, stats, err := loadWithProgress(t, plan, threads, func(uint64) bool { return false })
		if err != nil {
			t.Fatalf("threads %d: %v", threads, err)
		}
		if stats.BytesKept != 587008 {
			t.Errorf("threads %d: stats %+v", threads, stats)
		}
		// With a helper, which may read everything first, at least the
		// call at the end comes.
		if len(done) == 0 || (threads == 1 && len(done) <= 100) {
			t.Fatalf("threads %d: %d progress calls", threads, len(done))
		}
		for i := range done {
			if totals[i] != 587008 || (i > 0 && done[i] <= done[i-1]) {
				t.Fatalf("threads %d: call %d of %v with totals %v", threads, i, done, totals)
			}
		}
		if last := done[len(done)-1]; last != 587008 {
			t.Errorf("threads %d: the last call reported %d of 587008 bytes", threads, last)
		}
	}
}

func TestLoadProgressCancels(t *testing.T) {
	plan := readPlanOf(t, storiesPath(t), 2, 1, DescribeOptions{})
	defer plan.Close()
	for _, threads := range []uint32{1, 2} {
		done, totals, _, err := loadWithProgress(t, plan, threads, func(d uint64) bool { return d >= 8192 })
		assertError(t, err, ErrCancelled, "reading the plan was cancelled by its progress callback")
		// Not called again once it cancelled (with a helper that read
		// everything first, that may be the call at the end).
		last := done[len(done)-1]
		if last < 8192 || last > 587008 || (threads == 1 && last == 587008) || totals[len(totals)-1] != 587008 {
			t.Errorf("threads %d: calls %v", threads, done)
		}
		for _, d := range done[:len(done)-1] {
			if d >= 8192 {
				t.Errorf("threads %d: called again after cancelling: %v", threads, done)
			}
		}
	}
	options := DefaultReadOptions()
	options.Progress = func(done, total uint64) bool { panic(fmt.Sprintf("boom at %d", done)) }
	_, _, err := plan.Load(options)
	var e *Error
	if !errors.Is(err, ErrCancelled) || !errors.As(err, &e) ||
		!strings.HasPrefix(e.Message, "reading the plan was cancelled by its progress callback (the progress function panicked: boom at ") {
		t.Errorf("a panic in the progress function: %v", err)
	}
	// The plan reads afresh afterwards.
	data, stats, err := plan.Load(DefaultReadOptions())
	if err != nil {
		t.Fatal(err)
	}
	data.Close()
	if stats.BytesKept != 587008 {
		t.Errorf("after a cancel: stats %+v", stats)
	}
}

func TestModelTypesAndWarnings(t *testing.T) {
	types, err := ModelTypes()
	if err != nil {
		t.Fatal(err)
	}
	if len(types) < 2 || types[0] != "llama" || types[1] != "mistral" {
		t.Errorf("ModelTypes() = %v, want llama, mistral first", types)
	}
	// A folder whose index gives total_size 0 describes with one warning.
	source := filepath.Join(repoRoot(t), "examples", "models", "qwen3-1.7b")
	dir := t.TempDir()
	config, err := os.ReadFile(filepath.Join(source, "config.json"))
	if err != nil {
		t.Fatal(err)
	}
	index, err := os.ReadFile(filepath.Join(source, "model.safetensors.index.json"))
	if err != nil {
		t.Fatal(err)
	}
	zeroed := strings.Replace(string(index), "\"total_size\": 3441149952", "\"total_size\": 0", 1)
	if zeroed == string(index) {
		t.Fatal("the index gives no total_size 3441149952")
	}
	if err := os.WriteFile(filepath.Join(dir, "config.json"), config, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "model.safetensors.index.json"), []byte(zeroed), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path     string
		warnings int
	}{{source, 0}, {dir, 1}} {
		model, err := DescribeModel(c.path, DescribeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		warnings := model.Warnings()
		model.Close()
		if len(warnings) != c.warnings {
			t.Errorf("%s: warnings %q, want %d", c.path, warnings, c.warnings)
		}
		if c.warnings == 1 && !strings.Contains(warnings[0], "total_size") {
			t.Errorf("the warning %q does not name total_size", warnings[0])
		}
	}
}

func TestCheckpointDescribe(t *testing.T) {
	path := storiesPath(t)
	checkpoint, err := OpenCheckpoint(path)
	if err != nil {
		t.Fatal(err)
	}
	defer checkpoint.Close()
	opts := DescribeOptions{PadVocab: 64}
	model, err := checkpoint.Describe(opts)
	if err != nil {
		t.Fatal(err)
	}
	defer model.Close()
	fromPath, err := DescribeModel(path, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer fromPath.Close()
	if model.TensorCount() != 48 || model.GlobalBytes() != fromPath.GlobalBytes() {
		t.Errorf("Describe = %d tensors, %d bytes; DescribeModel = %d bytes",
			model.TensorCount(), model.GlobalBytes(), fromPath.GlobalBytes())
	}
	layout, err := model.PlanRank(NewParallelTopology(2, 1, 1, 1), 1, PlanOptions{Policy: PolicyRequire})
	if err != nil {
		t.Fatal(err)
	}
	defer layout.Close()
	plan, err := NewReadPlan(layout, checkpoint)
	if err != nil {
		t.Fatal(err)
	}
	defer plan.Close()
	if plan.ReadBytes() != 587008 {
		t.Errorf("ReadBytes = %d, want 587008", plan.ReadBytes())
	}

	lora, err := OpenCheckpoint(filepath.Join(repoRoot(t), "examples", "files", "gpt2-lora",
		"adapter_model.safetensors"))
	if err != nil {
		t.Fatal(err)
	}
	defer lora.Close()
	if _, err := lora.Describe(DescribeOptions{}); !errors.Is(err, ErrParse) ||
		!strings.Contains(err.Error(), "holds no configuration") {
		t.Errorf("Describe(safetensors file) = %v", err)
	}
	closed := &Checkpoint{}
	if _, err := closed.Describe(DescribeOptions{}); !errors.Is(err, ErrClosed) {
		t.Errorf("Describe(closed) = %v", err)
	}
}
