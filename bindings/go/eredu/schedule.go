// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

package eredu

/*
#include <eredu/eredu.h>
*/
import "C"

import (
	"runtime"
	"unsafe"
)

// DenseTransferSchedule is the seed's bounded dense transfer cursor
// (docs/residency.md, "Dense transfer schedule"):
// transfers are admitted strictly in pending order into a ready window of
// at most `capacity`, each with a caller token, and popped oldest first. It
// is a single-threaded object: calls on one schedule must not overlap (it
// may move between goroutines). Close releases it.
type DenseTransferSchedule struct {
	ptr *C.eredu_dense_transfer_schedule
}

// NewDenseTransferSchedule builds a cursor over strictly increasing pending
// unit indices (seed DenseTransferSchedule::new). Errors: *VersionError;
// ErrInvalidArgument (negative capacity); ErrZeroCapacity;
// ErrUnorderedPending; ErrOutOfMemory.
func NewDenseTransferSchedule(pending []uint64, capacity int) (*DenseTransferSchedule, error) {
	if err := checkVersion(); err != nil {
		return nil, err
	}
	if capacity < 0 {
		return nil, newError(StatusInvalidArgument, "dense transfer capacity %d is negative", capacity)
	}
	var ptr *C.uint64_t
	if len(pending) > 0 {
		// A []uint64 holds no Go pointers: it may be passed in place.
		ptr = (*C.uint64_t)(unsafe.Pointer(&pending[0]))
	}
	var out *C.eredu_dense_transfer_schedule
	var cerr *C.eredu_error
	status := C.eredu_dense_transfer_schedule_new(ptr, C.size_t(len(pending)), C.size_t(capacity), &out, &cerr)
	runtime.KeepAlive(pending)
	if err := takeError(status, cerr); err != nil {
		return nil, err
	}
	return newSchedule(out), nil
}

// NewDenseTransferScheduleRange builds a cursor over [start, end) (seed
// DenseTransferSchedule::new(start..end, capacity)) in O(1) memory.
func NewDenseTransferScheduleRange(start, end uint64, capacity int) (*DenseTransferSchedule, error) {
	if err := checkVersion(); err != nil {
		return nil, err
	}
	if capacity < 0 {
		return nil, newError(StatusInvalidArgument, "dense transfer capacity %d is negative", capacity)
	}
	var out *C.eredu_dense_transfer_schedule
	var cerr *C.eredu_error
	status := C.eredu_dense_transfer_schedule_new_range(C.uint64_t(start), C.uint64_t(end),
		C.size_t(capacity), &out, &cerr)
	if err := takeError(status, cerr); err != nil {
		return nil, err
	}
	return newSchedule(out), nil
}

func newSchedule(p *C.eredu_dense_transfer_schedule) *DenseTransferSchedule {
	s := &DenseTransferSchedule{ptr: p}
	runtime.SetFinalizer(s, (*DenseTransferSchedule).Close)
	return s
}

// Close releases the schedule. Idempotent; always returns nil.
func (s *DenseTransferSchedule) Close() error {
	if s == nil || s.ptr == nil {
		return nil
	}
	runtime.SetFinalizer(s, nil)
	C.eredu_dense_transfer_schedule_free(s.ptr)
	s.ptr = nil
	return nil
}

func (s *DenseTransferSchedule) handle() (*C.eredu_dense_transfer_schedule, error) {
	if s == nil || s.ptr == nil {
		return nil, closedError("DenseTransferSchedule")
	}
	return s.ptr, nil
}

// Admit commits one submitted transfer of the next pending unit with a
// caller token; a failure changes nothing. Errors, in order:
// ErrCapacityExceeded, ErrNoPendingUnit, ErrOutOfOrder.
func (s *DenseTransferSchedule) Admit(index, token uint64) error {
	h, err := s.handle()
	if err != nil {
		return err
	}
	var cerr *C.eredu_error
	status := C.eredu_dense_transfer_schedule_admit(h, C.uint64_t(index), C.uint64_t(token), &cerr)
	runtime.KeepAlive(s)
	return takeError(status, cerr)
}

// PopReady removes the oldest ready transfer; ok is false when none is
// ready.
func (s *DenseTransferSchedule) PopReady() (index, token uint64, ok bool, err error) {
	h, err := s.handle()
	if err != nil {
		return 0, 0, false, err
	}
	var i, t C.uint64_t
	var popped C.bool
	var cerr *C.eredu_error
	status := C.eredu_dense_transfer_schedule_pop_ready(h, &i, &t, &popped, &cerr)
	runtime.KeepAlive(s)
	return uint64(i), uint64(t), bool(popped), takeError(status, cerr)
}

// DesiredIndices returns the ready indices (oldest first) followed by the
// pending ones, at most lookahead of them; nil when there are none.
// ErrInvalidArgument for a negative lookahead.
func (s *DenseTransferSchedule) DesiredIndices(lookahead int) ([]uint64, error) {
	h, err := s.handle()
	if err != nil {
		return nil, err
	}
	if lookahead < 0 {
		return nil, newError(StatusInvalidArgument, "dense transfer lookahead %d is negative", lookahead)
	}
	var count C.size_t
	var cerr *C.eredu_error
	status := C.eredu_dense_transfer_schedule_desired_indices(h, C.size_t(lookahead), nil, 0, &count, &cerr)
	if status == C.EREDU_E_BUFFER_TOO_SMALL {
		C.eredu_error_free(cerr)
		cerr = nil
		out := make([]uint64, int(count))
		status = C.eredu_dense_transfer_schedule_desired_indices(h, C.size_t(lookahead),
			(*C.uint64_t)(unsafe.Pointer(&out[0])), count, &count, &cerr)
		runtime.KeepAlive(s)
		if err := takeError(status, cerr); err != nil {
			return nil, err
		}
		return out[:int(count)], nil
	}
	runtime.KeepAlive(s)
	if err := takeError(status, cerr); err != nil {
		return nil, err
	}
	return nil, nil
}

// CanAdmit reports whether another transfer may be admitted (the ready
// window has room and a unit is pending); false for a closed schedule.
func (s *DenseTransferSchedule) CanAdmit() bool {
	h, err := s.handle()
	if err != nil {
		return false
	}
	b := C.eredu_dense_transfer_schedule_can_admit(h)
	runtime.KeepAlive(s)
	return bool(b)
}

// HasReady reports whether an admitted transfer is ready; false for a
// closed schedule.
func (s *DenseTransferSchedule) HasReady() bool {
	h, err := s.handle()
	if err != nil {
		return false
	}
	b := C.eredu_dense_transfer_schedule_has_ready(h)
	runtime.KeepAlive(s)
	return bool(b)
}

// IsExhausted reports whether no ready or pending unit remains; false for
// a closed schedule (as the library answers for NULL).
func (s *DenseTransferSchedule) IsExhausted() bool {
	h, err := s.handle()
	if err != nil {
		return false
	}
	b := C.eredu_dense_transfer_schedule_is_exhausted(h)
	runtime.KeepAlive(s)
	return bool(b)
}

// NextPending returns the next unit to submit; ok is false when none is
// pending.
func (s *DenseTransferSchedule) NextPending() (index uint64, ok bool, err error) {
	h, err := s.handle()
	if err != nil {
		return 0, false, err
	}
	var i C.uint64_t
	var present C.bool
	var cerr *C.eredu_error
	status := C.eredu_dense_transfer_schedule_next_pending(h, &i, &present, &cerr)
	runtime.KeepAlive(s)
	return uint64(i), bool(present), takeError(status, cerr)
}

// ParameterBankKey identifies one member of a parameter bank (seed
// ParameterBankKey).
type ParameterBankKey struct {
	Unit, Member uint64
}

// UnitID returns the member's residency unit id,
// "bank.unit.UUUUU.member.MMMMM" (seed ParameterBankKey::unit_id). Errors:
// *VersionError.
func (k ParameterBankKey) UnitID() (string, error) {
	if err := checkVersion(); err != nil {
		return "", err
	}
	var required C.size_t
	var cerr *C.eredu_error
	status := C.eredu_parameter_bank_key_unit_id(C.uint64_t(k.Unit), C.uint64_t(k.Member), nil, 0, &required, &cerr)
	if status != C.EREDU_E_BUFFER_TOO_SMALL {
		if err := takeError(status, cerr); err != nil {
			return "", err
		}
	}
	C.eredu_error_free(cerr)
	var mem cMemory
	defer mem.free()
	buffer, err := mem.alloc(uintptr(required))
	if err != nil {
		return "", err
	}
	cerr = nil
	status = C.eredu_parameter_bank_key_unit_id(C.uint64_t(k.Unit), C.uint64_t(k.Member),
		(*C.char)(buffer), required, &required, &cerr)
	if err := takeError(status, cerr); err != nil {
		return "", err
	}
	return C.GoString((*C.char)(buffer)), nil
}

// ExpertPass is an execution pass of routed parameter banks (seed
// ExpertPass; EREDU_EXPERT_PASS_*).
type ExpertPass uint32

// ExpertPass values.
const (
	ExpertPassPrefill ExpertPass = C.EREDU_EXPERT_PASS_PREFILL
	ExpertPassDecode  ExpertPass = C.EREDU_EXPERT_PASS_DECODE
)

// ParameterBankAccess is the storage access class of a pass (seed
// ParameterBankAccess; EREDU_PARAMETER_BANK_ACCESS_*).
type ParameterBankAccess uint32

// ParameterBankAccess values.
const (
	ParameterBankAccessBulk        ParameterBankAccess = C.EREDU_PARAMETER_BANK_ACCESS_BULK
	ParameterBankAccessIncremental ParameterBankAccess = C.EREDU_PARAMETER_BANK_ACCESS_INCREMENTAL
)

// ParameterBankAccess returns the pass's access class (seed
// ExpertPass::parameter_bank_access); *VersionError; ErrInvalidArgument for
// an unknown pass.
func (p ExpertPass) ParameterBankAccess() (ParameterBankAccess, error) {
	if err := checkVersion(); err != nil {
		return 0, err
	}
	var a C.eredu_parameter_bank_access
	var cerr *C.eredu_error
	status := C.eredu_expert_pass_parameter_bank_access(C.eredu_expert_pass(p), &a, &cerr)
	return ParameterBankAccess(a), takeError(status, cerr)
}
