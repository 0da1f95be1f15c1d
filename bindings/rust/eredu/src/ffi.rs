// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

//! Internal helpers at the FFI boundary: calling with an error slot,
//! converting strings in, borrowing strings and arrays out.

use std::ffi::{c_char, CStr, CString};
use std::path::Path;
use std::ptr;

use eredu_sys as sys;

use crate::error::{Error, ErrorCode, Result};

/// Runs one fallible C call with an error slot and turns its status into a
/// `Result`. `f` receives the slot to pass as the call's last argument.
pub(crate) fn call(f: impl FnOnce(*mut *mut sys::eredu_error) -> sys::eredu_status) -> Result<()> {
    let mut error: *mut sys::eredu_error = ptr::null_mut();
    let status = f(&mut error);
    if status == sys::EREDU_OK {
        if !error.is_null() {
            // The header promises NULL on success; free defensively.
            // SAFETY: an error object the library returned, freed once.
            unsafe { sys::eredu_error_free(error) };
        }
        Ok(())
    } else {
        // SAFETY: the slot holds the error object of this failed call (or
        // NULL); it is handed over and freed exactly once.
        Err(unsafe { Error::from_library(status, error) })
    }
}

/// Runs one fallible C call that hands the caller a text buffer, and returns
/// a copy of the text. `f` receives the text and length out-pointers and the
/// error slot, to pass as the call's last three arguments; on success the
/// library stores a caller-owned UTF-8 buffer of that length there.
pub(crate) fn call_text(
    f: impl FnOnce(*mut *mut c_char, *mut usize, *mut *mut sys::eredu_error) -> sys::eredu_status,
) -> Result<String> {
    let mut text: *mut c_char = ptr::null_mut();
    let mut length = 0;
    call(|error| f(&mut text, &mut length, error))?;
    // SAFETY: on success `text` is a caller-owned buffer of `length` UTF-8
    // bytes, released by take_text.
    Ok(unsafe { take_text(text, length) })
}

/// A NUL-terminated copy of `value`; a NUL byte inside is
/// [`ErrorCode::InvalidArgument`], as the library would treat bad UTF-8.
pub(crate) fn c_string(what: &str, value: &str) -> Result<CString> {
    CString::new(value).map_err(|error| {
        Error::binding(
            ErrorCode::InvalidArgument,
            format!(
                "{what} {value:?} contains a NUL byte at offset {}",
                error.nul_position()
            ),
        )
    })
}

/// A NUL-terminated copy of a path, which the library takes as UTF-8: a
/// path that is not UTF-8 or holds a NUL byte is
/// [`ErrorCode::InvalidArgument`].
pub(crate) fn c_path(what: &str, path: &Path) -> Result<CString> {
    let text = path.to_str().ok_or_else(|| {
        Error::binding(
            ErrorCode::InvalidArgument,
            format!("{what} {path:?} is not UTF-8"),
        )
    })?;
    c_string(what, text)
}

/// A NUL-terminated string the library lends, UTF-8 by the header's
/// contract.
///
/// # Safety
/// `text` points to a NUL-terminated string that stays valid and unchanged
/// for `'a`.
pub(crate) unsafe fn borrowed_c_str<'a>(text: *const c_char) -> &'a str {
    // SAFETY: guaranteed by the caller.
    let text = unsafe { CStr::from_ptr(text) };
    text.to_str()
        .expect("liberedu returned a string that is not UTF-8")
}

/// A string the library lends: UTF-8 by the header's contract (it only ever
/// stores validated UTF-8); an empty string for NULL.
///
/// # Safety
/// `text` is NULL or points to `length` readable bytes that stay valid and
/// unchanged for `'a`.
pub(crate) unsafe fn borrowed_str<'a>(text: *const c_char, length: usize) -> &'a str {
    if text.is_null() || length == 0 {
        return "";
    }
    // SAFETY: guaranteed by the caller.
    let bytes = unsafe { std::slice::from_raw_parts(text.cast::<u8>(), length) };
    std::str::from_utf8(bytes).expect("liberedu returned a string that is not UTF-8")
}

/// An array the library lends; empty for NULL or a zero count.
///
/// # Safety
/// `data` is NULL or points to `count` initialized values that stay valid and
/// unchanged for `'a`.
pub(crate) unsafe fn borrowed_slice<'a, T>(data: *const T, count: usize) -> &'a [T] {
    if data.is_null() || count == 0 {
        return &[];
    }
    // SAFETY: guaranteed by the caller.
    unsafe { std::slice::from_raw_parts(data, count) }
}

/// Copies a text buffer the library allocated for the caller and releases it.
///
/// # Safety
/// `text` is NULL or a buffer returned by the library with `length` bytes of
/// UTF-8, owned by the caller and not yet released; it is released here.
pub(crate) unsafe fn take_text(text: *mut c_char, length: usize) -> String {
    // SAFETY: guaranteed by the caller; the buffer is freed right after the
    // copy, with the library's own release function, before the UTF-8 check
    // that could panic.
    let bytes = unsafe {
        let bytes = borrowed_slice(text.cast::<u8>().cast_const(), length).to_vec();
        sys::eredu_buffer_free(text.cast());
        bytes
    };
    String::from_utf8(bytes).expect("liberedu returned a text that is not UTF-8")
}

/// A C boolean flag field.
pub(crate) fn flag(value: bool) -> u8 {
    u8::from(value)
}

/// The struct_size of a transparent struct as this crate was compiled
/// against it (tests/layout.rs of eredu-sys proves it equals the C
/// compiler's size). Structs are always filled here, never by a library
/// `_init` function, which in a newer library could write a larger struct
/// than the Rust one (docs/abi.md).
pub(crate) const fn struct_size<T>() -> u32 {
    let size = std::mem::size_of::<T>();
    // docs/abi.md: a struct_size is at most 4096 bytes.
    assert!(size <= 4096, "C API structs are small");
    size as u32
}

/// An output struct of the C API ready to be filled: `struct_size` set to
/// the Rust size, every other field zero or NULL. Input structs are written
/// field by field instead, so that a field appended to a header fails to
/// compile here until the crate sets it.
pub(crate) trait OutputStruct: Sized {
    fn empty() -> Self;
}

macro_rules! output_structs {
    ($($name:ident),* $(,)?) => {
        $(
            impl OutputStruct for sys::$name {
                fn empty() -> Self {
                    // SAFETY: a plain C struct of integers, raw pointers and
                    // optional function pointers, for which all-zero bytes
                    // are a valid value (0, NULL, None).
                    let mut value: Self = unsafe { std::mem::zeroed() };
                    value.struct_size = struct_size::<Self>();
                    value
                }
            }
        )*
    };
}

output_structs!(
    eredu_topology,
    eredu_layout_info,
    eredu_layout_tensor_info,
    eredu_read_tensor_info,
    eredu_read_stats,
    eredu_group_info,
    eredu_member_desc,
    eredu_ggml_type_info,
    eredu_linear_format,
    eredu_offload_plan_info,
    eredu_offload_unit_desc,
    eredu_residency_summary,
    eredu_quantization_request,
    eredu_parallel_load_desc,
    eredu_preparation_policy,
    eredu_load_request_info,
    eredu_parallel_model_summary,
    eredu_layerwise_model_metadata_info,
    eredu_launch_env,
);
