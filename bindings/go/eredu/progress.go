// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

package eredu

/*
#include <eredu/eredu.h>

// The trampoline below, exported to C as an eredu_progress_fn.
extern int32_t goEreduProgress(uint64_t done, uint64_t total, void *data);
*/
import "C"

import (
	"errors"
	"fmt"
	"runtime/cgo"
	"sync"
	"unsafe"
)

// progressCall is the Go side of one call with a progress function: the
// function, and whether it cancelled or panicked. The library reaches it
// through a cgo.Handle stored in C memory (progress_data), so no Go pointer
// is given to C.
type progressCall struct {
	fn     func(done, total uint64) bool
	handle cgo.Handle
	// mu orders the calls (the library serializes them already, from
	// threads the Go race detector cannot see synchronize) and the final
	// read of panicked.
	mu        sync.Mutex
	cancelled bool
	panicked  interface{}
}

// withProgress sets the planning options' progress function to the
// trampoline and its data to a new handle of fn (see setProgress).
func (m *cMemory) withProgress(options *C.eredu_plan_options, fn func(done, total uint64) bool) (*progressCall, error) {
	return m.setProgress(&options.progress, &options.progress_data, fn)
}

// withReadProgress is withProgress for the options of reading a rank.
func (m *cMemory) withReadProgress(options *C.eredu_read_options, fn func(done, total uint64) bool) (*progressCall, error) {
	return m.setProgress(&options.progress, &options.progress_data, fn)
}

// setProgress sets *progress to the trampoline and *data to a new handle
// of fn, kept in mem; nil (and the fields untouched) when fn is nil. The
// caller calls finish on the result after the library call.
func (m *cMemory) setProgress(progress *C.eredu_progress_fn, data *unsafe.Pointer, fn func(done, total uint64) bool) (*progressCall, error) {
	if fn == nil {
		return nil, nil
	}
	slot, err := m.alloc(unsafe.Sizeof(cgo.Handle(0)))
	if err != nil {
		return nil, err
	}
	call := &progressCall{fn: fn}
	call.handle = cgo.NewHandle(call)
	*(*cgo.Handle)(slot) = call.handle
	*progress = C.eredu_progress_fn(C.goEreduProgress)
	*data = slot
	return call, nil
}

// finish releases the handle and returns err; a cancellation caused by a
// panic names the panic value in the message. Safe on a nil call.
func (c *progressCall) finish(err error) error {
	if c == nil {
		return err
	}
	c.handle.Delete()
	c.mu.Lock()
	panicked := c.panicked
	c.mu.Unlock()
	var e *Error
	if panicked != nil && errors.As(err, &e) && e.Code == StatusCancelled {
		e.Message += fmt.Sprintf(" (the progress function panicked: %v)", panicked)
	}
	return err
}

// progress runs the Go function once; non-zero cancels. A panic is
// recovered here: it must not unwind into the library's frames.
func (c *progressCall) progress(done, total uint64) (cancel C.int32_t) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cancelled {
		return 1
	}
	returned := false
	defer func() {
		if !returned { // a panic, panic(nil) included
			r := recover()
			if r == nil {
				r = "nil"
			}
			c.panicked, c.cancelled, cancel = r, true, 1
		}
	}()
	proceed := c.fn(done, total)
	returned = true
	if !proceed {
		c.cancelled = true
		return 1
	}
	return 0
}

//export goEreduProgress
func goEreduProgress(done, total C.uint64_t, data unsafe.Pointer) C.int32_t {
	call := (*(*cgo.Handle)(data)).Value().(*progressCall)
	return call.progress(uint64(done), uint64(total))
}
