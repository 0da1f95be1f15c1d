// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

//! The bounded dense transfer cursor (seed `DenseTransferSchedule`,
//! `eredu/runtime/residency.h`; docs/residency.md, "Dense transfer schedule").

use std::collections::VecDeque;
use std::ptr::{self, NonNull};

use eredu_sys as sys;

use crate::error::{ErrorCode, Result};
use crate::ffi::call;
use crate::version::ensure_compatible;

/// An ordered, bounded transfer cursor of dense streamed execution (seed
/// `DenseTransferSchedule<T>`): transfers are admitted strictly in pending
/// order into a ready window of at most `capacity`, each with a value `T`
/// (e.g. a transfer handle), and popped oldest first. The order and the
/// window live in the library's `eredu_dense_transfer_schedule`; the values
/// stay here, in the same order.
pub struct DenseTransferSchedule<T> {
    raw: NonNull<sys::eredu_dense_transfer_schedule>,
    transfers: VecDeque<T>,
    next_token: u64,
}

// SAFETY: the header makes a schedule a single-threaded cursor that may move
// between threads: Send (with its values) but not Sync. Sharing one between
// threads is not promised even for the read-only calls, so &self methods are
// kept on one thread too.
unsafe impl<T: Send> Send for DenseTransferSchedule<T> {}

impl<T> DenseTransferSchedule<T> {
    /// A cursor over strictly increasing pending unit indices.
    ///
    /// # Errors
    /// `ZeroCapacity` ("dense transfer window capacity must be nonzero");
    /// `UnorderedPending` ("dense transfer pending unit 3 does not follow 5").
    pub fn new(pending: impl IntoIterator<Item = u64>, capacity: usize) -> Result<Self> {
        ensure_compatible()?;
        let pending: Vec<u64> = pending.into_iter().collect();
        let mut out = ptr::null_mut();
        call(|error| {
            // SAFETY: the indices live for the call and are copied.
            unsafe {
                sys::eredu_dense_transfer_schedule_new(
                    pending.as_ptr(),
                    pending.len(),
                    capacity,
                    &mut out,
                    error,
                )
            }
        })?;
        Ok(Self::from_raw(out))
    }

    /// A cursor over the unit indices `range` in O(1) memory.
    ///
    /// # Errors
    /// `ZeroCapacity`.
    pub fn from_range(range: std::ops::Range<u64>, capacity: usize) -> Result<Self> {
        ensure_compatible()?;
        let mut out = ptr::null_mut();
        call(|error| {
            // SAFETY: a valid out-pointer.
            unsafe {
                sys::eredu_dense_transfer_schedule_new_range(
                    range.start,
                    range.end,
                    capacity,
                    &mut out,
                    error,
                )
            }
        })?;
        Ok(Self::from_raw(out))
    }

    fn from_raw(raw: *mut sys::eredu_dense_transfer_schedule) -> Self {
        Self {
            raw: NonNull::new(raw).expect("liberedu returned a NULL schedule on success"),
            transfers: VecDeque::new(),
            next_token: 0,
        }
    }

    /// Whether at least one admitted transfer is ready.
    pub fn has_ready(&self) -> bool {
        // SAFETY: a live schedule.
        unsafe { sys::eredu_dense_transfer_schedule_has_ready(self.raw.as_ptr()) }
    }

    /// Whether no ready or pending unit remains.
    pub fn is_exhausted(&self) -> bool {
        // SAFETY: a live schedule.
        unsafe { sys::eredu_dense_transfer_schedule_is_exhausted(self.raw.as_ptr()) }
    }

    /// Whether another transfer may be admitted.
    pub fn can_admit(&self) -> bool {
        // SAFETY: a live schedule.
        unsafe { sys::eredu_dense_transfer_schedule_can_admit(self.raw.as_ptr()) }
    }

    /// The next unit that must be submitted.
    pub fn next_pending(&self) -> Option<u64> {
        let mut index = 0;
        let mut present = false;
        call(|error| {
            // SAFETY: a live schedule and valid out-pointers.
            unsafe {
                sys::eredu_dense_transfer_schedule_next_pending(
                    self.raw.as_ptr(),
                    &mut index,
                    &mut present,
                    error,
                )
            }
        })
        .expect("liberedu refused eredu_dense_transfer_schedule_next_pending on a live schedule");
        present.then_some(index)
    }

    /// The ready indices followed by the pending ones, truncated to
    /// `lookahead`.
    ///
    /// # Panics
    /// When the indices cannot be allocated, as any `Vec` (a `lookahead` of
    /// billions over a schedule that has that many pending units).
    pub fn desired_indices(&self, lookahead: usize) -> Vec<u64> {
        let mut count = 0;
        // The first call learns the size (EREDU_E_BUFFER_TOO_SMALL unless 0).
        let sized = call(|error| {
            // SAFETY: a live schedule, no buffer and a valid out-pointer.
            unsafe {
                sys::eredu_dense_transfer_schedule_desired_indices(
                    self.raw.as_ptr(),
                    lookahead,
                    ptr::null_mut(),
                    0,
                    &mut count,
                    error,
                )
            }
        });
        match sized {
            Ok(()) => return Vec::new(),
            Err(error) if error.code() == ErrorCode::BufferTooSmall => {}
            Err(error) => panic!("liberedu rejected a valid desired_indices call: {error}"),
        }
        let mut indices = vec![0; count];
        call(|error| {
            // SAFETY: a live schedule and a buffer of `count` indices.
            unsafe {
                sys::eredu_dense_transfer_schedule_desired_indices(
                    self.raw.as_ptr(),
                    lookahead,
                    indices.as_mut_ptr(),
                    indices.len(),
                    &mut count,
                    error,
                )
            }
        })
        .expect("liberedu refused a buffer of the size it asked for");
        indices.truncate(count);
        indices
    }

    /// Commits one submitted transfer in exact pending order. On failure the
    /// schedule is unchanged and `transfer` is dropped, as in the seed.
    ///
    /// # Errors
    /// In order: `CapacityExceeded`, `NoPendingUnit`, `OutOfOrder` (with the
    /// seed's messages).
    pub fn admit(&mut self, index: u64, transfer: T) -> Result<()> {
        let token = self.next_token;
        call(|error| {
            // SAFETY: a live schedule, mutated through &mut self only.
            unsafe {
                sys::eredu_dense_transfer_schedule_admit(self.raw.as_ptr(), index, token, error)
            }
        })?;
        self.next_token += 1;
        self.transfers.push_back(transfer);
        Ok(())
    }

    /// Removes the oldest ready transfer, if any.
    pub fn pop_ready(&mut self) -> Option<(u64, T)> {
        let mut index = 0;
        let mut token = 0;
        let mut popped = false;
        call(|error| {
            // SAFETY: a live schedule, mutated through &mut self only, and
            // valid out-pointers.
            unsafe {
                sys::eredu_dense_transfer_schedule_pop_ready(
                    self.raw.as_ptr(),
                    &mut index,
                    &mut token,
                    &mut popped,
                    error,
                )
            }
        })
        .expect("liberedu refused eredu_dense_transfer_schedule_pop_ready on a live schedule");
        if !popped {
            return None;
        }
        let transfer = self
            .transfers
            .pop_front()
            .expect("every ready transfer has its value");
        let expected = self.next_token - self.transfers.len() as u64 - 1;
        assert_eq!(
            token, expected,
            "the schedule popped transfers out of admission order"
        );
        Some((index, transfer))
    }
}

impl<T> Drop for DenseTransferSchedule<T> {
    fn drop(&mut self) {
        // SAFETY: the handle is owned, live, and freed exactly once.
        unsafe { sys::eredu_dense_transfer_schedule_free(self.raw.as_ptr()) }
    }
}

impl<T: std::fmt::Debug> std::fmt::Debug for DenseTransferSchedule<T> {
    /// The ready transfers with their unit indices and the next pending
    /// unit: bounded by the window, however many units are pending (a range
    /// schedule may have 2^64).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The desired indices start with the ready ones, in window order.
        let ready: Vec<(u64, &T)> = self
            .desired_indices(self.transfers.len())
            .into_iter()
            .zip(&self.transfers)
            .collect();
        f.debug_struct("DenseTransferSchedule")
            .field("ready", &ready)
            .field("next_pending", &self.next_pending())
            .finish()
    }
}
