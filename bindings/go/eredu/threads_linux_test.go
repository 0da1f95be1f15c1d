// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

package eredu

import (
	"errors"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// TestOneThreadStaysOnTheCallingThread: with Threads 1 the library starts
// no helper thread, so every progress call runs on the thread that called
// it; with more threads, calls also come from the library's own threads
// (cgo callbacks on threads Go did not create), and still reach the Go
// function.
func TestOneThreadStaysOnTheCallingThread(t *testing.T) {
	m := gqaModel(t)
	defer m.Close()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	caller := syscall.Gettid()
	var mu sync.Mutex
	threads := map[int]int{}
	progress := func(done, total uint64) bool {
		mu.Lock()
		threads[syscall.Gettid()]++
		mu.Unlock()
		return true
	}
	if _, err := m.PlanWorldJSON(worldTopology, PlanOptions{Threads: 1, Progress: progress}); err != nil {
		t.Fatal(err)
	}
	if len(threads) != 1 || threads[caller] != 32 {
		t.Errorf("threads 1: progress ran on threads %v, the caller is %d", threads, caller)
	}
	// With 4 threads, the first call holds the library's progress lock
	// for a while, so the helper threads finish ranks and report them from
	// their own threads. A busy machine may not schedule them in time: try
	// a few times.
	for attempt := 1; ; attempt++ {
		threads = map[int]int{}
		slow := func(done, total uint64) bool {
			if done == 1 {
				time.Sleep(50 * time.Millisecond)
			}
			return progress(done, total)
		}
		if _, err := m.PlanWorldJSON(worldTopology, PlanOptions{Threads: 4, Progress: slow}); err != nil {
			t.Fatal(err)
		}
		total := 0
		for _, n := range threads {
			total += n
		}
		if total != 32 {
			t.Fatalf("threads 4: %d progress calls on threads %v", total, threads)
		}
		if len(threads) > 1 {
			break
		}
		if attempt == 3 {
			t.Fatalf("threads 4: every progress call ran on one thread (%v)", threads)
		}
	}
	// A panic on one of the library's threads is recovered there too.
	for attempt := 1; ; attempt++ {
		_, err := m.PlanWorldJSON(worldTopology, PlanOptions{Threads: 4, Progress: func(done, total uint64) bool {
			if done == 1 {
				time.Sleep(50 * time.Millisecond)
			}
			if syscall.Gettid() != caller {
				panic("on a library thread")
			}
			return true
		}})
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.Code != StatusCancelled ||
				!strings.HasSuffix(e.Message, "(the progress function panicked: on a library thread)") {
				t.Fatalf("panic on a library thread: %v", err)
			}
			break
		}
		if attempt == 3 {
			t.Fatal("threads 4: no progress call ran on a library thread")
		}
	}
}

// TestLoadProgressRunsOnTheCallingThread: reading a rank reports progress on
// the calling thread only, whatever the number of reading threads.
func TestLoadProgressRunsOnTheCallingThread(t *testing.T) {
	plan := readPlanOf(t, storiesPath(t), 2, 1, DescribeOptions{})
	defer plan.Close()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	caller := syscall.Gettid()
	for _, threads := range []uint32{1, 2, 4} {
		calls, elsewhere := 0, 0
		options := DefaultReadOptions()
		options.Threads, options.RequestBytes = threads, 4096
		options.Progress = func(done, total uint64) bool {
			calls++
			if syscall.Gettid() != caller {
				elsewhere++
			}
			return true
		}
		data, _, err := plan.Load(options)
		if err != nil {
			t.Fatal(err)
		}
		data.Close()
		if calls == 0 || elsewhere != 0 {
			t.Errorf("threads %d: %d of %d progress calls off the calling thread", threads, elsewhere, calls)
		}
	}
}
