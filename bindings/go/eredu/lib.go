// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

package eredu

/*
#cgo pkg-config: eredu
#include <eredu/eredu.h>
#include <stdlib.h>

#if EREDU_VERSION_MAJOR != 0
#error "the eredu Go binding is written for major version 0 of the eredu headers"
#endif
*/
import "C"

import (
	"fmt"
	"strings"
	"sync"
	"unsafe"
)

// BindingMajor is the major version of liberedu this package is written for.
const BindingMajor = 0

// VersionError reports a loaded library whose major version differs from
// BindingMajor. Every constructor and handle-free call returns it (the same
// value) when the check fails (see the package documentation).
type VersionError struct {
	// Library is eredu_version_number() of the loaded library.
	Library uint32
	// LibraryString is eredu_version_string() of the loaded library.
	LibraryString string
}

func (e *VersionError) Error() string {
	return fmt.Sprintf("eredu: loaded liberedu %s (version number %d, major %d) is not supported: "+
		"this Go binding is written for major %d",
		e.LibraryString, e.Library, e.Library/10000, BindingMajor)
}

var (
	versionOnce sync.Once
	versionErr  error
)

// checkMajor judges a library version number against BindingMajor.
func checkMajor(number uint32, text string) error {
	if number/10000 != BindingMajor {
		return &VersionError{Library: number, LibraryString: text}
	}
	return nil
}

// checkVersion runs the version check once per process; every constructor
// calls it first.
func checkVersion() error {
	versionOnce.Do(func() {
		versionErr = checkMajor(uint32(C.eredu_version_number()),
			C.GoString(C.eredu_version_string()))
	})
	return versionErr
}

// LibraryVersion returns the version of the loaded library as
// major*10000+minor*100+patch and as "major.minor.patch".
func LibraryVersion() (uint32, string) {
	return uint32(C.eredu_version_number()), C.GoString(C.eredu_version_string())
}

// cMemory collects C allocations made for one library call; free releases
// them all. Descriptors live here because cgo forbids passing Go memory that
// holds Go pointers.
type cMemory struct {
	ptrs []unsafe.Pointer
}

// alloc returns size zeroed bytes of C memory (at least one byte).
func (m *cMemory) alloc(size uintptr) (unsafe.Pointer, error) {
	if size == 0 {
		size = 1
	}
	p := C.calloc(1, C.size_t(size))
	if p == nil {
		return nil, newError(StatusOutOfMemory, "cannot allocate %d bytes of C memory for a descriptor", size)
	}
	m.ptrs = append(m.ptrs, p)
	return p, nil
}

// pointerArray allocates a C array of n pointers and fills slot i with
// fill(i), in order; nil for n == 0.
func pointerArray[T any](m *cMemory, n int, fill func(i int) (*T, error)) (**T, error) {
	if n == 0 {
		return nil, nil
	}
	p, err := m.alloc(uintptr(n) * unsafe.Sizeof((*T)(nil)))
	if err != nil {
		return nil, err
	}
	slots := unsafe.Slice((**T)(p), n)
	for i := range slots {
		if slots[i], err = fill(i); err != nil {
			return nil, err
		}
	}
	return (**T)(p), nil
}

// cstring copies s into C memory, NUL-terminated. A string holding a NUL
// byte is refused (EREDU_E_INVALID_ARGUMENT): C would see a shorter name.
func (m *cMemory) cstring(s, what string) (*C.char, error) {
	if strings.IndexByte(s, 0) >= 0 {
		return nil, newError(StatusInvalidArgument, "%s %q contains a NUL byte", what, s)
	}
	p, err := m.alloc(uintptr(len(s)) + 1)
	if err != nil {
		return nil, err
	}
	if len(s) > 0 {
		copy(unsafe.Slice((*byte)(p), len(s)), s)
	}
	return (*C.char)(p), nil
}

// uint64s copies values into C memory; nil for an empty slice.
func (m *cMemory) uint64s(values []uint64) (*C.uint64_t, error) {
	if len(values) == 0 {
		return nil, nil
	}
	p, err := m.alloc(uintptr(len(values)) * 8)
	if err != nil {
		return nil, err
	}
	copy(unsafe.Slice((*uint64)(p), len(values)), values)
	return (*C.uint64_t)(p), nil
}

// bytes copies data into C memory; nil for an empty slice.
func (m *cMemory) bytes(data []byte) (*C.char, error) {
	if len(data) == 0 {
		return nil, nil
	}
	p, err := m.alloc(uintptr(len(data)))
	if err != nil {
		return nil, err
	}
	copy(unsafe.Slice((*byte)(p), len(data)), data)
	return (*C.char)(p), nil
}

func (m *cMemory) free() {
	for _, p := range m.ptrs {
		C.free(p)
	}
	m.ptrs = nil
}

// cbool converts a Go flag to the ABI's uint8_t 0/1.
func cbool(b bool) C.uint8_t {
	if b {
		return 1
	}
	return 0
}

// takeText copies a library-allocated buffer into a Go string and frees it.
func takeText(p *C.char, length C.size_t) string {
	s := borrowedString(p, length)
	C.eredu_buffer_free(unsafe.Pointer(p))
	return s
}

// borrowedString copies a borrowed (pointer, length) string.
func borrowedString(p *C.char, length C.size_t) string {
	if p == nil {
		return ""
	}
	return string(unsafe.Slice((*byte)(unsafe.Pointer(p)), int(length)))
}

// borrowedUint64s copies a borrowed array of n values; nil when n is 0.
func borrowedUint64s(p *C.uint64_t, n C.size_t) []uint64 {
	if n == 0 || p == nil {
		return nil
	}
	out := make([]uint64, int(n))
	copy(out, unsafe.Slice((*uint64)(unsafe.Pointer(p)), int(n)))
	return out
}

// borrowedStrings copies two borrowed (pointer, length) strings into one
// allocation.
func borrowedStrings(a *C.char, an C.size_t, b *C.char, bn C.size_t) (string, string) {
	if a == nil {
		an = 0
	}
	if b == nil {
		bn = 0
	}
	var s strings.Builder
	s.Grow(int(an) + int(bn))
	if an > 0 {
		s.Write(unsafe.Slice((*byte)(unsafe.Pointer(a)), int(an)))
	}
	if bn > 0 {
		s.Write(unsafe.Slice((*byte)(unsafe.Pointer(b)), int(bn)))
	}
	both := s.String()
	return both[:an], both[an:]
}

// borrowedShapes copies two borrowed arrays into one allocation; a slice is
// nil when its count is 0, and neither can grow into the other.
func borrowedShapes(a *C.uint64_t, an C.size_t, b *C.uint64_t, bn C.size_t) ([]uint64, []uint64) {
	if a == nil {
		an = 0
	}
	if b == nil {
		bn = 0
	}
	if an+bn == 0 {
		return nil, nil
	}
	both := make([]uint64, int(an)+int(bn))
	copy(both, unsafe.Slice((*uint64)(unsafe.Pointer(a)), int(an)))
	copy(both[an:], unsafe.Slice((*uint64)(unsafe.Pointer(b)), int(bn)))
	first, second := both[:an:an], both[an:]
	if an == 0 {
		first = nil
	}
	if bn == 0 {
		second = nil
	}
	return first, second
}
