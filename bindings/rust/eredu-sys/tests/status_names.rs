// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

//! Currency of the status constants: every `EREDU_OK` / `EREDU_E_*` constant
//! of src/bindings.rs has the value whose stable name the loaded library
//! gives it (`eredu_status_name`), and every code the library names is one
//! of those constants, so a status added to the library without
//! regenerating the bindings fails here.

use std::collections::BTreeMap;
use std::ffi::CStr;

use eredu_sys as sys;

/// `pub const EREDU_E_NAME: i32 = N;` lines of the committed bindings.
fn status_constants() -> BTreeMap<i32, String> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/bindings.rs");
    let text = std::fs::read_to_string(path).expect("src/bindings.rs is readable");
    let mut constants = BTreeMap::new();
    for line in text.lines() {
        let Some(rest) = line.strip_prefix("pub const ") else {
            continue;
        };
        let Some((name, value)) = rest.split_once(": i32 = ") else {
            continue;
        };
        if name != "EREDU_OK" && !name.starts_with("EREDU_E_") {
            continue;
        }
        let value: i32 = value
            .trim_end_matches(';')
            .parse()
            .expect("an integer constant");
        let previous = constants.insert(value, name.to_owned());
        assert!(previous.is_none(), "{name} repeats the value {value}");
    }
    constants
}

fn library_name(status: i32) -> String {
    // SAFETY: eredu_status_name accepts any value and returns a static,
    // NUL-terminated string that is never NULL.
    unsafe { CStr::from_ptr(sys::eredu_status_name(status)) }
        .to_str()
        .expect("status names are ASCII")
        .to_owned()
}

#[test]
fn every_status_constant_has_the_library_name() {
    let constants = status_constants();
    assert!(
        constants.len() > 50,
        "the bindings hold every status constant"
    );
    assert_eq!(
        constants.get(&sys::EREDU_OK).map(String::as_str),
        Some("EREDU_OK")
    );
    for (value, name) in &constants {
        assert_eq!(&library_name(*value), name, "status {value}");
    }
}

#[test]
fn every_status_the_library_names_is_a_constant() {
    let constants = status_constants();
    for status in -1000..=100_000 {
        let name = library_name(status);
        if name != "EREDU_E_UNKNOWN" {
            assert_eq!(
                constants.get(&status),
                Some(&name),
                "the library names status {status} {name}; regenerate src/bindings.rs"
            );
        }
    }
    assert_eq!(library_name(i32::MIN), "EREDU_E_UNKNOWN");
    assert_eq!(library_name(i32::MAX), "EREDU_E_UNKNOWN");
}
