// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

//! The dlopen contract: the loaded library must have the major version this
//! crate was written for, checked once before the first library call.

use std::ffi::CStr;
use std::sync::OnceLock;

use eredu_sys as sys;

use crate::error::{Error, ErrorCode, Result};

/// The major version of the C API this crate was written for.
pub const ABI_MAJOR: u32 = sys::EREDU_ABI_MAJOR;

/// The version of the loaded library: `major * 10000 + minor * 100 + patch`
/// and `"major.minor.patch"`.
pub fn library_version() -> (u32, &'static str) {
    // SAFETY: both functions take no arguments, cannot fail and return a
    // number and a static NUL-terminated string.
    unsafe {
        let number = sys::eredu_version_number();
        let text = CStr::from_ptr(sys::eredu_version_string())
            .to_str()
            .unwrap_or("?");
        (number, text)
    }
}

/// Checks, once per process, that the loaded liberedu has major version
/// [`ABI_MAJOR`]; every constructor of this crate calls it before its first
/// library call, so a program using another major gets
/// [`ErrorCode::UnsupportedVersion`] naming both versions instead of
/// undefined behaviour.
pub fn ensure_compatible() -> Result<()> {
    static CHECKED: OnceLock<Result<()>> = OnceLock::new();
    CHECKED
        .get_or_init(|| {
            let (number, text) = library_version();
            check_major(number, text, ABI_MAJOR)
        })
        .clone()
}

/// The check itself: `number / 10000` must equal `expected_major`.
pub(crate) fn check_major(number: u32, text: &str, expected_major: u32) -> Result<()> {
    let major = number / 10000;
    if major == expected_major {
        return Ok(());
    }
    Err(Error::binding(
        ErrorCode::UnsupportedVersion,
        format!(
            "the loaded liberedu {text} (version number {number}, major {major}) is not \
             compatible with the eredu crate {}, written for major version {expected_major} \
             of the C API; install liberedu {expected_major}.x or a matching eredu crate",
            env!("CARGO_PKG_VERSION")
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_major_passes() {
        assert_eq!(check_major(0, "0.0.0", 0), Ok(()));
        assert_eq!(check_major(100, "0.1.0", 0), Ok(()));
        assert_eq!(check_major(9999, "0.99.99", 0), Ok(()));
        assert_eq!(check_major(10203, "1.2.3", 1), Ok(()));
    }

    #[test]
    fn another_major_is_refused_naming_both_versions() {
        let error = check_major(10203, "1.2.3", 0).unwrap_err();
        assert_eq!(error.code(), ErrorCode::UnsupportedVersion);
        assert_eq!(error.status(), 8);
        assert_eq!(error.name(), "EREDU_E_UNSUPPORTED_VERSION");
        assert_eq!(
            error.message(),
            format!(
                "the loaded liberedu 1.2.3 (version number 10203, major 1) is not compatible \
                 with the eredu crate {}, written for major version 0 of the C API; install \
                 liberedu 0.x or a matching eredu crate",
                env!("CARGO_PKG_VERSION")
            )
        );
        assert!(check_major(100, "0.1.0", 1).is_err());
        assert!(check_major(20000, "2.0.0", 0).is_err());
    }

    #[test]
    fn the_linked_library_is_compatible() {
        let (number, text) = library_version();
        assert_eq!(number / 10000, ABI_MAJOR);
        assert_eq!(
            text,
            format!("{}.{}.{}", number / 10000, number / 100 % 100, number % 100)
        );
        assert_eq!(ensure_compatible(), Ok(()));
    }
}
