// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

//! C-valued enumerations: the header's `EREDU_*` integer constants as Rust
//! enums with an `Unknown` arm, so a value from a newer library of the same
//! major version is kept rather than misread, and an unknown value passed in
//! reaches the library, which rejects it with `EREDU_E_INVALID_ARGUMENT`.

/// Declares a Rust enum over `eredu_sys` constants with `from_raw`/`to_raw`.
macro_rules! c_enum {
    (
        $(#[$meta:meta])*
        pub enum $name:ident: $raw:ty {
            $($(#[$doc:meta])* $variant:ident = $constant:ident,)*
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum $name {
            $($(#[$doc])* $variant,)*
            /// A value this crate does not know (from a newer library), kept
            /// as is.
            Unknown($raw),
        }

        impl $name {
            /// The enum value of a C integer.
            pub const fn from_raw(raw: $raw) -> Self {
                $(
                    if raw == eredu_sys::$constant as $raw {
                        return Self::$variant;
                    }
                )*
                Self::Unknown(raw)
            }

            /// The C integer of the value.
            pub const fn to_raw(self) -> $raw {
                match self {
                    $(Self::$variant => eredu_sys::$constant as $raw,)*
                    Self::Unknown(raw) => raw,
                }
            }
        }
    };
}

pub(crate) use c_enum;
