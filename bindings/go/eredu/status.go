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
// involved, as the seeds do).
//
// errors.Is(err, target) holds when target is an *Error with the same Code,
// so the sentinels of status_gen.go (ErrInvalidGroup, ErrParse, ...) match
// any message.
type Error struct {
	Code    Status
	Name    string
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
	return &Error{Code: code, Name: code.String(), Message: fmt.Sprintf(format, args...)}
}

// takeError turns a status and error object into an *Error (nil for
// EREDU_OK) and frees the object.
func takeError(status C.eredu_status, cerr *C.eredu_error) error {
	if status == C.EREDU_OK {
		return nil
	}
	e := &Error{
		Code:    Status(status),
		Name:    C.GoString(C.eredu_status_name(status)),
		Message: C.GoString(C.eredu_error_message(cerr)),
	}
	C.eredu_error_free(cerr)
	return e
}
