// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

//! Progress callbacks (`eredu_progress_fn`): a Rust closure reached from C
//! through one trampoline, shared by every call that takes one (planning a
//! world, checking, fitting, reading a rank).

use std::any::Any;
use std::ffi::c_void;
use std::ops::ControlFlow;
use std::panic::{self, AssertUnwindSafe};
use std::ptr;
use std::sync::{Mutex, PoisonError};

use eredu_sys as sys;

/// A progress callback: `(done, total)`; `Break` cancels.
pub(crate) type ProgressFn<'a> = dyn FnMut(u64, u64) -> ControlFlow<()> + Send + 'a;

/// Runs `f` with the C progress function and data for `callback`: `None`
/// and NULL without one, else [`progress_trampoline`] and a pointer to a
/// state that lives until `f` (the C call) returns. A panic the callback
/// raised was caught there; it is resumed here, after `f` has returned.
pub(crate) fn with_progress<R>(
    callback: Option<&mut ProgressFn<'_>>,
    f: impl FnOnce(sys::eredu_progress_fn, *mut c_void) -> R,
) -> R {
    let Some(callback) = callback else {
        return f(None, ptr::null_mut());
    };
    let progress = Progress(Mutex::new(ProgressState {
        callback,
        stopped: false,
        panic: None,
    }));
    let data = ptr::addr_of!(progress).cast_mut().cast::<c_void>();
    let result = f(Some(progress_trampoline), data);
    let state = progress
        .0
        .into_inner()
        .unwrap_or_else(PoisonError::into_inner);
    if let Some(payload) = state.panic {
        panic::resume_unwind(payload);
    }
    result
}

/// What the trampoline reaches through `progress_data`. The mutex makes the
/// sharing between the library's threads sound on its own, whatever the
/// library's serialization of the calls.
struct Progress<'b, 'a>(Mutex<ProgressState<'b, 'a>>);

struct ProgressState<'b, 'a> {
    callback: &'b mut ProgressFn<'a>,
    /// The callback returned `Break` or panicked: never call it again.
    stopped: bool,
    /// The payload of a panic of the callback, resumed by `with_progress`.
    panic: Option<Box<dyn Any + Send>>,
}

/// The `eredu_progress_fn` of every call with a progress callback: 0 goes
/// on, 1 cancels. No panic leaves it: the callback's is caught and kept.
unsafe extern "C" fn progress_trampoline(done: u64, total: u64, data: *mut c_void) -> i32 {
    // SAFETY: `data` is the `Progress` of `with_progress`, which outlives
    // the C call that calls this function; it is only read through the
    // mutex.
    let progress = unsafe { &*data.cast::<Progress<'_, '_>>() };
    let mut state = progress.0.lock().unwrap_or_else(PoisonError::into_inner);
    if state.stopped {
        return 1;
    }
    let callback = &mut *state.callback;
    // The callback is never called again after a panic, which is resumed
    // on the calling thread: nothing observes a broken invariant.
    let outcome = panic::catch_unwind(AssertUnwindSafe(|| callback(done, total)));
    match outcome {
        Ok(ControlFlow::Continue(())) => 0,
        Ok(ControlFlow::Break(())) => {
            state.stopped = true;
            1
        }
        Err(payload) => {
            state.stopped = true;
            state.panic = Some(payload);
            1
        }
    }
}
