// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

//! Checkpoint encodings of linear matrices and their expansion into physical
//! members (seed `expand_linear_format_member`,
//! `expand_linear_format_parameter_groups`; `eredu/format.h`,
//! docs/planning.md, "Linear formats" and "Expansion").

use std::ffi::{c_char, CStr, CString};
use std::ptr;

use eredu_sys as sys;

use crate::enums::c_enum;
use crate::error::Result;
use crate::ffi::{c_string, call, flag, struct_size, OutputStruct};
use crate::group::{Dtype, MemberDescs, MemberList, ParameterGroupSpec, ParameterMemberSpec};
use crate::version::ensure_compatible;

c_enum! {
    /// Block-FP8 inverse-scale encoding (seed `BlockFp8ScaleEncoding`).
    pub enum BlockFp8ScaleEncoding: sys::eredu_block_fp8_scale_encoding {
        /// Floating-point inverse scales (F16, BF16 or F32).
        Float = EREDU_BLOCK_FP8_SCALE_FLOAT,
        /// Unsigned exponent-only E8M0 inverse scales.
        Ue8m0 = EREDU_BLOCK_FP8_SCALE_UE8M0,
    }
}

/// One linear-matrix encoding (seed `LinearFormat`). A plain value, checked
/// by [`LinearFormat::validate`] or when it is used.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LinearFormat {
    /// Ordinary floating-point storage; no companions.
    Dense,
    /// Per-group affine integers; scale and bias companions.
    Affine {
        /// Input values per scale/bias group: 16 or a positive multiple of 32.
        group_size: i32,
        /// Bits per value: 2, 3, 4, 5, 6 or 8.
        bits: i32,
    },
    /// Microscaling FP4 (group 32, 4 bits); one scale companion.
    Mxfp4,
    /// Checkpoint-native GGML blocks; no companions.
    Gguf {
        /// The ggml_type code (see [`GgmlTypeInfo::by_code`]).
        ggml_type: u32,
    },
    /// E4M3 values with one inverse scale per block; one scale companion.
    BlockFp8 {
        /// Output rows per scale, positive.
        block_rows: i32,
        /// Input columns per scale, positive.
        block_columns: i32,
        /// The scale encoding.
        scale_encoding: BlockFp8ScaleEncoding,
    },
    /// A kind this crate does not know (read back from a newer library),
    /// kept as is; passed in, the library rejects it with `InvalidArgument`.
    Unknown {
        /// The `EREDU_LINEAR_FORMAT_*` value.
        kind: sys::eredu_linear_format_kind,
    },
}

impl LinearFormat {
    pub(crate) fn to_raw(self) -> sys::eredu_linear_format {
        let kind = |constant: i32| constant as sys::eredu_linear_format_kind;
        // The defaults of eredu_linear_format_init for the unused fields.
        let mut raw = sys::eredu_linear_format {
            struct_size: struct_size::<sys::eredu_linear_format>(),
            kind: kind(sys::EREDU_LINEAR_FORMAT_DENSE),
            affine_group_size: 64,
            affine_bits: 4,
            ggml_type: 0,
            block_rows: 128,
            block_columns: 128,
            scale_encoding: BlockFp8ScaleEncoding::Float.to_raw(),
        };
        match self {
            Self::Dense => {}
            Self::Affine { group_size, bits } => {
                raw.kind = kind(sys::EREDU_LINEAR_FORMAT_AFFINE);
                raw.affine_group_size = group_size;
                raw.affine_bits = bits;
            }
            Self::Mxfp4 => raw.kind = kind(sys::EREDU_LINEAR_FORMAT_MXFP4),
            Self::Gguf { ggml_type } => {
                raw.kind = kind(sys::EREDU_LINEAR_FORMAT_GGUF);
                raw.ggml_type = ggml_type;
            }
            Self::BlockFp8 {
                block_rows,
                block_columns,
                scale_encoding,
            } => {
                raw.kind = kind(sys::EREDU_LINEAR_FORMAT_BLOCK_FP8);
                raw.block_rows = block_rows;
                raw.block_columns = block_columns;
                raw.scale_encoding = scale_encoding.to_raw();
            }
            Self::Unknown { kind } => raw.kind = kind,
        }
        raw
    }

    /// The format a C struct the library filled holds.
    pub(crate) fn from_raw(raw: &sys::eredu_linear_format) -> Self {
        match raw.kind as i32 {
            sys::EREDU_LINEAR_FORMAT_DENSE => Self::Dense,
            sys::EREDU_LINEAR_FORMAT_AFFINE => Self::Affine {
                group_size: raw.affine_group_size,
                bits: raw.affine_bits,
            },
            sys::EREDU_LINEAR_FORMAT_MXFP4 => Self::Mxfp4,
            sys::EREDU_LINEAR_FORMAT_GGUF => Self::Gguf {
                ggml_type: raw.ggml_type,
            },
            sys::EREDU_LINEAR_FORMAT_BLOCK_FP8 => Self::BlockFp8 {
                block_rows: raw.block_rows,
                block_columns: raw.block_columns,
                scale_encoding: BlockFp8ScaleEncoding::from_raw(raw.scale_encoding),
            },
            _ => Self::Unknown { kind: raw.kind },
        }
    }

    /// Checks the format (seed `LinearFormat::validate`).
    ///
    /// # Errors
    /// [`ErrorCode::InvalidFormat`](crate::ErrorCode::InvalidFormat) with the
    /// seed's text (`group_size must be 16 or a positive multiple of 32, got
    /// G`, `bits must be one of …`, `unsupported GGML tensor type N`,
    /// `block-FP8 geometry must be positive, got [R, C]`).
    pub fn validate(&self) -> Result<()> {
        ensure_compatible()?;
        let raw = self.to_raw();
        call(|error| {
            // SAFETY: a valid struct for the call.
            unsafe { sys::eredu_linear_format_validate(&raw, error) }
        })
    }
}

/// A format with the exact checkpoint targets of its companions (seed
/// `LinearFormatSpec`) and this project's optional companion dtype.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct LinearFormatSpec {
    format: LinearFormat,
    scale: Option<String>,
    affine_bias: Option<String>,
    companion_dtype: Option<Dtype>,
    raw: bool,
}

impl LinearFormatSpec {
    /// A format without companions (dense, GGUF).
    pub fn unscaled(format: LinearFormat) -> Self {
        Self {
            format,
            scale: None,
            affine_bias: None,
            companion_dtype: None,
            raw: false,
        }
    }

    /// A format with one scale companion (MXFP4, block FP8).
    pub fn scaled(format: LinearFormat, scale: impl Into<String>) -> Self {
        Self {
            scale: Some(scale.into()),
            ..Self::unscaled(format)
        }
    }

    /// An affine format with its scale and bias companions.
    pub fn affine(
        format: LinearFormat,
        scale: impl Into<String>,
        affine_bias: impl Into<String>,
    ) -> Self {
        Self {
            scale: Some(scale.into()),
            affine_bias: Some(affine_bias.into()),
            ..Self::unscaled(format)
        }
    }

    /// The same spec with a companion dtype (affine and block FP8 only).
    pub fn with_companion_dtype(mut self, dtype: Dtype) -> Self {
        self.companion_dtype = Some(dtype);
        self
    }

    /// The same spec taken as is, like the seed's expansion of an
    /// unvalidated declaration (companion mistakes are then `InvalidGroup`,
    /// format mistakes `InvalidTensor`, in the seed's order).
    pub fn unvalidated(mut self) -> Self {
        self.raw = true;
        self
    }

    /// The encoding.
    pub const fn format(&self) -> LinearFormat {
        self.format
    }

    /// The scale companion's target.
    pub fn scale(&self) -> Option<&str> {
        self.scale.as_deref()
    }

    /// The affine-bias companion's target.
    pub fn affine_bias(&self) -> Option<&str> {
        self.affine_bias.as_deref()
    }

    /// The companion dtype.
    pub const fn companion_dtype(&self) -> Option<Dtype> {
        self.companion_dtype
    }

    /// Checks the spec as the seed's constructors do.
    ///
    /// # Errors
    /// `InvalidFormat` with the seed's text (a blank companion target, the
    /// format, missing or extra companions, equal scale and bias, a companion
    /// dtype on a kind that takes none); `InvalidArgument` for a NUL byte.
    pub fn validate(&self) -> Result<()> {
        ensure_compatible()?;
        let raw = RawSpec::new(self)?;
        call(|error| {
            // SAFETY: the spec and everything it points to live for the call.
            unsafe { sys::eredu_linear_format_spec_validate(raw.as_ptr(), error) }
        })
    }
}

/// A spec as C structs; `spec` points into the boxed format and strings.
struct RawSpec {
    _format: Box<sys::eredu_linear_format>,
    _scale: Option<CString>,
    _bias: Option<CString>,
    spec: Box<sys::eredu_linear_format_spec>,
}

impl RawSpec {
    fn new(spec: &LinearFormatSpec) -> Result<Self> {
        let format = Box::new(spec.format.to_raw());
        let scale = spec
            .scale
            .as_deref()
            .map(|scale| c_string("scale target", scale))
            .transpose()?;
        let bias = spec
            .affine_bias
            .as_deref()
            .map(|bias| c_string("affine-bias target", bias))
            .transpose()?;
        let text = |value: &Option<CString>| value.as_ref().map_or(ptr::null(), |v| v.as_ptr());
        let raw = Box::new(sys::eredu_linear_format_spec {
            struct_size: struct_size::<sys::eredu_linear_format_spec>(),
            format: &*format,
            scale: text(&scale),
            affine_bias: text(&bias),
            has_companion_dtype: flag(spec.companion_dtype.is_some()),
            companion_dtype: spec.companion_dtype.map_or(0, Dtype::to_raw),
            raw: flag(spec.raw),
        });
        Ok(Self {
            _format: format,
            _scale: scale,
            _bias: bias,
            spec: raw,
        })
    }

    fn as_ptr(&self) -> *const sys::eredu_linear_format_spec {
        &*self.spec
    }
}

/// Expands one logical dense member into its physical members, in the order
/// packed weight, scale, affine bias (seed `expand_linear_format_member`).
///
/// # Errors
/// `InvalidFormat` (a spec that does not validate, unless unvalidated); the
/// seed's `InvalidGroup` / `InvalidTensor` in the seed's order;
/// `InvalidArgument` (bad arguments); `OutOfMemory`.
pub fn expand_linear_format_member(
    member: &ParameterMemberSpec,
    spec: &LinearFormatSpec,
) -> Result<Vec<ParameterMemberSpec>> {
    ensure_compatible()?;
    let descs = MemberDescs::new([member])?;
    let spec = RawSpec::new(spec)?;
    let mut list = ptr::null_mut();
    call(|error| {
        // SAFETY: the descriptor and the spec live for the call.
        unsafe {
            sys::eredu_expand_linear_format_member(descs.one(), spec.as_ptr(), &mut list, error)
        }
    })?;
    // SAFETY: on success `list` is a new member list owned here.
    let list = unsafe { MemberList::from_raw(list) };
    list.to_vec()
}

/// Expands a group: member `i` is replaced by its expansion when `specs[i]`
/// is `Some`; a partitioned group's units may shrink to fit every companion
/// (one step of seed `expand_linear_format_parameter_groups`).
///
/// # Errors
/// `InvalidArgument` when `specs` does not have one entry per member; the
/// errors of [`expand_linear_format_member`]; the rebuilt group's
/// `InvalidTensor` / `InvalidGroup`.
pub fn expand_linear_format_group(
    group: &ParameterGroupSpec,
    specs: &[Option<LinearFormatSpec>],
) -> Result<ParameterGroupSpec> {
    ensure_compatible()?;
    let raw: Vec<Option<RawSpec>> = specs
        .iter()
        .map(|spec| spec.as_ref().map(RawSpec::new).transpose())
        .collect::<Result<_>>()?;
    let pointers: Vec<*const sys::eredu_linear_format_spec> = raw
        .iter()
        .map(|spec| spec.as_ref().map_or(ptr::null(), RawSpec::as_ptr))
        .collect();
    let mut out = ptr::null_mut();
    call(|error| {
        // SAFETY: a live group and specs alive for the call.
        unsafe {
            sys::eredu_expand_linear_format_group(
                group.as_ptr(),
                pointers.as_ptr(),
                pointers.len(),
                &mut out,
                error,
            )
        }
    })?;
    // SAFETY: on success `out` is a new group owned by the caller.
    unsafe { ParameterGroupSpec::from_raw(out) }
}

/// Expands every group whose members `declaration` gives a format for (seed
/// `expand_linear_format_parameter_groups`): `declaration` is called for
/// each member in order; groups without a declared member are kept as they
/// are.
///
/// # Errors
/// The first error of `declaration` or of [`expand_linear_format_group`].
pub fn expand_linear_format_parameter_groups(
    groups: impl IntoIterator<Item = ParameterGroupSpec>,
    declaration: impl Fn(&ParameterMemberSpec) -> Result<Option<LinearFormatSpec>>,
) -> Result<Vec<ParameterGroupSpec>> {
    groups
        .into_iter()
        .map(|group| {
            let specs = group
                .members()?
                .iter()
                .map(&declaration)
                .collect::<Result<Vec<_>>>()?;
            if specs.iter().all(Option::is_none) {
                Ok(group)
            } else {
                expand_linear_format_group(&group, &specs)
            }
        })
        .collect()
}

/// One row of the GGML block table: `block_values` values are stored in
/// `block_bytes` bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct GgmlTypeInfo {
    /// The ggml_type code.
    pub code: u32,
    /// ggml's name (`"Q4_K"`).
    pub name: &'static str,
    /// Logical values per block.
    pub block_values: u64,
    /// Bytes per block.
    pub block_bytes: u64,
}

impl GgmlTypeInfo {
    fn lookup(
        f: impl FnOnce(*mut sys::eredu_ggml_type_info, *mut *mut sys::eredu_error) -> i32,
    ) -> Result<Self> {
        ensure_compatible()?;
        let mut info = sys::eredu_ggml_type_info::empty();
        call(|error| f(&mut info, error))?;
        let name: *const c_char = info.name;
        Ok(Self {
            code: info.code,
            // SAFETY: a static NUL-terminated string of the library.
            name: unsafe { CStr::from_ptr(name) }.to_str().unwrap_or("?"),
            block_values: info.block_values,
            block_bytes: info.block_bytes,
        })
    }

    /// The row of a ggml_type code.
    ///
    /// # Errors
    /// `InvalidFormat` (`unsupported GGML tensor type N`).
    pub fn by_code(code: u32) -> Result<Self> {
        // SAFETY: a valid out-struct for the call.
        Self::lookup(|info, error| unsafe { sys::eredu_ggml_type_by_code(code, info, error) })
    }

    /// The row of ggml's exact name (`"Q4_K"`, `"BF16"`).
    ///
    /// # Errors
    /// `NotFound` (a name ggml does not define); `InvalidFormat` (a ggml type
    /// eredu does not support); `InvalidArgument` (a NUL byte).
    pub fn by_name(name: &str) -> Result<Self> {
        let name = c_string("GGML type name", name)?;
        // SAFETY: a NUL-terminated name and a valid out-struct for the call.
        Self::lookup(|info, error| unsafe {
            sys::eredu_ggml_type_by_name(name.as_ptr(), info, error)
        })
    }
}
