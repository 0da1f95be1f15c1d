// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

//! Raw declarations of the eredu C API (`liberedu`, `include/eredu/eredu.h`),
//! generated once by bindgen 0.60 with `generate-bindings` and committed.
//!
//! Every integer macro of the header is a plain `i32` constant (status codes,
//! enumeration values, limits); the typedefs say which C type a value goes
//! into (`eredu_role` is `u32`, `eredu_status` is `i32`). Nothing here is
//! safe to call without reading the header's rules on ownership, lifetimes
//! and threads (the doc comments of `include/eredu/**/*.h`, left out here); the
//! `eredu` crate wraps them in a safe API.
//!
//! Linking: `build.rs` finds the library through `EREDU_LIB_DIR` or the
//! `pkg-config` program (`pkg-config --libs eredu`).
// The C API's own names (eredu_layout, EREDU_OK, ...), as bindgen writes them.
#![allow(non_camel_case_types, non_upper_case_globals, non_snake_case)]

include!("bindings.rs");

/// The major version these declarations were generated for: the ABI is
/// stable within a major version (SONAME `liberedu.so.0` while it is 0).
pub const EREDU_ABI_MAJOR: u32 = 0;
