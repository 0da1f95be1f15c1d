// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

package eredu

/*
#include <eredu/eredu.h>
*/
import "C"

import (
	"errors"
	"fmt"
)

// Status is an eredu_status: StatusOK (0) or an EREDU_E_* code
// (status_gen.go). Numbers never change once released; a newer library may
// return codes this package has no constant for.
type Status int32

// String returns the library's stable symbolic name of the code
// (eredu_status_name), e.g. "EREDU_E_INVALID_GROUP"; "EREDU_E_UNKNOWN" for a
// code the loaded library does not know.
func (s Status) String() string {
	return C.GoString(C.eredu_status_name(C.eredu_status(s)))
}

// Error is a failure reported by the library: the status code, its stable
// name and the message (which names the group, tensor, axis and numbers
// involved, as the seeds do), and every problem it lists.
//
// errors.Is(err, target) holds when target is an *Error with the same Code,
// so the sentinels of status_gen.go (ErrInvalidGroup, ErrParse, ...) match
// any message.
type Error struct {
	Code    Status
	Name    string
	Message string
	// Problems lists every problem of a planning failure (PlanRank,
	// PlanWorldJSON, CheckJSON): each violation found, the groups in
	// document order and then the topology preflight. Code and Message stay
	// the problem a planner stopping at the first one reported (the
	// preflight's when it failed, else the first group's). Any other error
	// the package returns holds one problem equal to the error; the
	// sentinels of status_gen.go hold none.
	Problems []Problem
}

// Problem is one problem of an Error (eredu_error_entry).
type Problem struct {
	Code Status
	// Name is the code's stable symbolic name, e.g. "EREDU_E_INVALID_TENSOR".
	Name string
	// Group is the logical group the problem concerns; "" for a topology
	// problem (and an error that is not about a group).
	Group string
	// Tensor is the tensor (member target) it concerns; "" when the problem
	// is the group's as a whole.
	Tensor  string
	Message string
}

// Error formats the error as "eredu: NAME (code): message".
func (e *Error) Error() string {
	if e.Message == "" {
		return fmt.Sprintf("eredu: %s (%d)", e.Name, int32(e.Code))
	}
	return fmt.Sprintf("eredu: %s (%d): %s", e.Name, int32(e.Code), e.Message)
}

// Is reports whether target is a non-nil *Error with the same code.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t != nil && t.Code == e.Code
}

// ErrClosed is wrapped by the error of any method called on a closed (or
// nil) handle; such a call never reaches the library.
var ErrClosed = errors.New("eredu: use of a closed handle")

func closedError(kind string) error {
	return fmt.Errorf("%w (%s)", ErrClosed, kind)
}

// newError builds an *Error for a Go-side check that mirrors a library code.
func newError(code Status, format string, args ...interface{}) *Error {
	e := &Error{Code: code, Name: code.String(), Message: fmt.Sprintf(format, args...)}
	e.Problems = []Problem{{Code: e.Code, Name: e.Name, Message: e.Message}}
	return e
}

// takeError turns a status and error object into an *Error (nil for
// EREDU_OK), copying its problems, and frees the object.
func takeError(status C.eredu_status, cerr *C.eredu_error) error {
	if status == C.EREDU_OK {
		return nil
	}
	e := &Error{
		Code:    Status(status),
		Name:    C.GoString(C.eredu_status_name(status)),
		Message: C.GoString(C.eredu_error_message(cerr)),
	}
	e.Problems = errorProblems(cerr)
	C.eredu_error_free(cerr)
	if e.Problems == nil {
		e.Problems = []Problem{{Code: e.Code, Name: e.Name, Message: e.Message}}
	}
	return e
}

// errorProblems copies every problem of a live error object; nil when it
// lists none (NULL) or one cannot be read.
func errorProblems(cerr *C.eredu_error) []Problem {
	count := C.eredu_error_count(cerr)
	if count == 0 {
		return nil
	}
	problems := make([]Problem, 0, int(count))
	for i := C.size_t(0); i < count; i++ {
		var entry C.eredu_error_entry
		C.eredu_error_entry_init(&entry, C.sizeof_eredu_error_entry, nil)
		if C.eredu_error_get_entry(cerr, i, &entry, nil) != C.EREDU_OK {
			return nil
		}
		problems = append(problems, Problem{
			Code:    Status(entry.code),
			Name:    C.GoString(C.eredu_status_name(entry.code)),
			Group:   borrowedString(entry.group, entry.group_length),
			Tensor:  borrowedString(entry.tensor, entry.tensor_length),
			Message: borrowedString(entry.message, entry.message_length),
		})
	}
	return problems
}
