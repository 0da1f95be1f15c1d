// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

package eredu

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// worldTopology is 32 ranks of the GQA layer: tensor 4, data 8.
var worldTopology = NewParallelTopology(4, 1, 1, 8)

// progressLog records the calls of a progress function; the library
// serializes them, the mutex only keeps the test honest about it.
type progressLog struct {
	mu    sync.Mutex
	done  []uint64
	total map[uint64]bool
}

func (p *progressLog) record(done, total uint64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.total == nil {
		p.total = map[uint64]bool{}
	}
	p.done = append(p.done, done)
	p.total[total] = true
}

// check reports whether the calls counted 1, 2, ..., n of total.
func (p *progressLog) check(t *testing.T, n, total uint64) {
	t.Helper()
	p.mu.Lock()
	defer p.mu.Unlock()
	if uint64(len(p.done)) != n || len(p.total) != 1 || !p.total[total] {
		t.Fatalf("progress calls: done %v, totals %v; want 1..%d of %d", p.done, p.total, n, total)
	}
	for i, d := range p.done {
		if d != uint64(i+1) {
			t.Fatalf("progress call %d reported done %d: %v", i, d, p.done)
		}
	}
}

func TestProgressReportsEveryRank(t *testing.T) {
	m := gqaModel(t)
	defer m.Close()
	want, err := m.PlanWorldJSON(worldTopology, PlanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, threads := range []uint32{0, 1, 2, 7} {
		var log progressLog
		text, err := m.PlanWorldJSON(worldTopology, PlanOptions{Threads: threads,
			Progress: func(done, total uint64) bool {
				log.record(done, total)
				return true
			}})
		if err != nil || text != want {
			t.Fatalf("threads %d: world text differs (%d bytes, %v)", threads, len(text), err)
		}
		log.check(t, 32, 32)
	}
	var log progressLog
	check, err := m.CheckJSON(worldTopology, PlanOptions{Progress: func(done, total uint64) bool {
		log.record(done, total)
		return true
	}}, CheckOptions{})
	if err != nil || !strings.HasPrefix(check, `{"schema":"eredu.check.v1"`) {
		t.Fatalf("CheckJSON = %.60q, %v", check, err)
	}
	log.check(t, 32, 32)
	// PlanRank never calls it.
	l, err := m.PlanRank(worldTopology, 5, PlanOptions{Progress: func(done, total uint64) bool {
		panic("PlanRank called the progress function")
	}})
	if err != nil {
		t.Fatal(err)
	}
	l.Close()
}

func TestProgressCancels(t *testing.T) {
	m := gqaModel(t)
	defer m.Close()
	for _, threads := range []uint32{1, 0} {
		var log progressLog
		stop := func(done, total uint64) bool {
			log.record(done, total)
			return done < 3
		}
		text, err := m.PlanWorldJSON(worldTopology, PlanOptions{Threads: threads, Progress: stop})
		assertError(t, err, ErrCancelled, "cancelled by the progress callback after 3 of 32 ranks")
		if text != "" {
			t.Errorf("threads %d: a cancelled call returned text", threads)
		}
		// Not called again once it cancelled.
		log.check(t, 3, 32)

		log = progressLog{}
		_, err = m.CheckJSON(worldTopology, PlanOptions{Threads: threads, Progress: stop}, CheckOptions{})
		assertError(t, err, ErrCancelled, "cancelled by the progress callback after 3 of 32 ranks")
		log.check(t, 3, 32)
	}
	// Cancelling at the last rank still cancels.
	_, err := m.PlanWorldJSON(worldTopology, PlanOptions{Progress: func(done, total uint64) bool {
		return done < total
	}})
	if !errors.Is(err, ErrCancelled) {
		t.Errorf("cancel at the last rank: %v", err)
	}
	// An argument error comes before any progress.
	_, err = m.PlanWorldJSON(NewParallelTopology(0, 1, 1, 1), PlanOptions{Progress: func(done, total uint64) bool {
		panic("called for an invalid topology")
	}})
	assertError(t, err, ErrZeroAxis, "parallel topology axis sizes must be positive")
}

func TestProgressPanicCancels(t *testing.T) {
	m := gqaModel(t)
	defer m.Close()
	for _, threads := range []uint32{1, 0} {
		calls := 0
		_, err := m.PlanWorldJSON(worldTopology, PlanOptions{Threads: threads, Progress: func(done, total uint64) bool {
			calls++
			if done == 2 {
				panic(fmt.Sprintf("boom at %d", done))
			}
			return true
		}})
		assertError(t, err, ErrCancelled,
			"cancelled by the progress callback after 2 of 32 ranks (the progress function panicked: boom at 2)")
		if calls != 2 {
			t.Errorf("threads %d: %d calls after the panic", threads, calls)
		}
	}
	_, err := m.CheckJSON(worldTopology, PlanOptions{Progress: func(done, total uint64) bool {
		var nilMap map[string]int
		nilMap["x"] = 1 // a runtime error
		return true
	}}, CheckOptions{})
	var e *Error
	if !errors.Is(err, ErrCancelled) || !errors.As(err, &e) ||
		!strings.HasSuffix(e.Message, "after 1 of 32 ranks (the progress function panicked: assignment to entry in nil map)") {
		t.Errorf("runtime error in the progress function: %v", err)
	}
	// The library is still usable, and later calls start afresh.
	if _, err := m.PlanWorldJSON(worldTopology, PlanOptions{Progress: func(done, total uint64) bool { return true }}); err != nil {
		t.Errorf("after a panic: %v", err)
	}
}

// TestProgressConcurrentCalls runs world plans with their own progress
// functions from several goroutines, collecting garbage from inside them:
// each call reaches its own function through its own handle.
func TestProgressConcurrentCalls(t *testing.T) {
	m := gqaModel(t)
	defer m.Close()
	want, err := m.PlanWorldJSON(worldTopology, PlanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for w := 0; w < 4; w++ {
		w := w
		wg.Add(1)
		go func() {
			defer wg.Done()
			var log progressLog
			text, err := m.PlanWorldJSON(worldTopology, PlanOptions{Threads: uint32(w), Progress: func(done, total uint64) bool {
				if done%8 == 0 {
					runtime.GC()
				}
				log.record(done, total)
				return true
			}})
			if err != nil || text != want || len(log.done) != 32 {
				errs <- fmt.Errorf("goroutine %d: %d bytes, %d progress calls, %v", w, len(text), len(log.done), err)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestThreadsDoNotChangeResults(t *testing.T) {
	m := gqaModel(t)
	defer m.Close()
	var layouts, worlds, checks []string
	for _, threads := range []uint32{1, 0, 3} {
		l, err := m.PlanRank(worldTopology, 9, PlanOptions{Threads: threads})
		if err != nil {
			t.Fatal(err)
		}
		text, err := l.JSON()
		l.Close()
		if err != nil {
			t.Fatal(err)
		}
		world, err := m.PlanWorldJSON(worldTopology, PlanOptions{Threads: threads})
		if err != nil {
			t.Fatal(err)
		}
		check, err := m.CheckJSON(worldTopology, PlanOptions{Threads: threads}, CheckOptions{})
		if err != nil {
			t.Fatal(err)
		}
		layouts, worlds, checks = append(layouts, text), append(worlds, world), append(checks, check)
	}
	for i := 1; i < len(layouts); i++ {
		if layouts[i] != layouts[0] || worlds[i] != worlds[0] || checks[i] != checks[0] {
			t.Errorf("threads option %d changed a result", i)
		}
	}
	// The policy travels in the options too.
	_, err := m.PlanWorldJSON(NewParallelTopology(16, 1, 1, 1), PlanOptions{Threads: 1})
	if !errors.Is(err, ErrInvalidTensor) {
		t.Errorf("require at TP 16: %v", err)
	}
	if _, err := m.PlanWorldJSON(NewParallelTopology(16, 1, 1, 1),
		PlanOptions{Policy: PolicyReplicateUnsupported, Threads: 1}); err != nil {
		t.Errorf("replicate-unsupported at TP 16: %v", err)
	}
}
