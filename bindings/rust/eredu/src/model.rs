// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

//! Model descriptions: groups in document order, built from group handles or
//! loaded from one `eredu.groups.v1` document (the bulk path).

use std::ffi::c_char;
use std::ptr::{self, NonNull};

use eredu_sys as sys;

use crate::error::Result;
use crate::ffi::{c_string, call, flag, struct_size};
use crate::group::ParameterGroupSpec;
use crate::layout::LocalModelLayout;
use crate::plan::{plan_rank, PlanOptions};
use crate::topology::ParallelTopology;
use crate::version::ensure_compatible;

/// The optional `model` object of `eredu.groups.v1`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct ModelInfo {
    /// The model's name.
    pub name: Option<String>,
    /// Decoder-layer count, at least 1; required to plan pipeline size > 1.
    pub layers: Option<u64>,
    /// Routed experts per layer; required to plan expert size > 1 (0 is a
    /// dense model, the same as `None`).
    pub experts: Option<u64>,
}

/// An immutable, validated model description (`eredu_model`), freed on drop.
/// Layouts planned from it keep the description alive on their own.
pub struct ModelDescription {
    raw: NonNull<sys::eredu_model>,
}

// SAFETY: an eredu_model is immutable once built; any number of threads may
// read it and plan ranks from it at once, and the handle may move between
// threads (eredu/model.h). Only eredu_model_free needs exclusive access,
// which Drop has.
unsafe impl Send for ModelDescription {}
// SAFETY: as above: every call through &self only reads the model.
unsafe impl Sync for ModelDescription {}

impl ModelDescription {
    /// Loads an `eredu.groups.v1` document (UTF-8 bytes, no terminator
    /// needed): one call for a whole model.
    ///
    /// # Errors
    /// In the fixed order of docs/interchange.md, "Load errors":
    /// [`ErrorCode::Parse`](crate::ErrorCode::Parse) (with the JSON pointer),
    /// [`ErrorCode::UnsupportedVersion`](crate::ErrorCode::UnsupportedVersion),
    /// `InvalidGroup`, `InvalidFormat`, `InvalidTensor`, `OutOfMemory`;
    /// `InvalidArgument` for a text above 4294967295 bytes.
    pub fn from_json(text: impl AsRef<[u8]>) -> Result<Self> {
        ensure_compatible()?;
        let text = text.as_ref();
        let mut out = ptr::null_mut();
        call(|error| {
            // SAFETY: `text` is readable for its length during the call.
            unsafe {
                sys::eredu_model_from_json(
                    text.as_ptr().cast::<c_char>(),
                    text.len(),
                    &mut out,
                    error,
                )
            }
        })?;
        // SAFETY: on success `out` is a new model owned by the caller.
        Ok(unsafe { Self::from_raw(out) })
    }

    /// A description of `groups` in the given (document) order, without a
    /// `model` object. The groups are copied; the caller keeps them.
    ///
    /// # Errors
    /// `InvalidGroup` (a target used by an earlier group), `InvalidTensor`
    /// (a member whose element count or bytes overflow 64 bits),
    /// `OutOfMemory`.
    pub fn from_groups(groups: &[ParameterGroupSpec]) -> Result<Self> {
        Self::build(None, groups)
    }

    /// As [`ModelDescription::from_groups`], with a `model` object (layer and
    /// expert counts for pipeline and expert parallelism).
    ///
    /// # Errors
    /// As [`ModelDescription::from_groups`]; `InvalidArgument` for `layers`
    /// 0 or a NUL byte in the name; `InvalidGroup` for a scope outside the
    /// layer or expert count.
    pub fn from_groups_with_info(info: &ModelInfo, groups: &[ParameterGroupSpec]) -> Result<Self> {
        Self::build(Some(info), groups)
    }

    fn build(info: Option<&ModelInfo>, groups: &[ParameterGroupSpec]) -> Result<Self> {
        ensure_compatible()?;
        let name = info
            .and_then(|info| info.name.as_deref())
            .map(|name| c_string("model name", name))
            .transpose()?;
        let raw_info = info.map(|info| sys::eredu_model_info {
            struct_size: struct_size::<sys::eredu_model_info>(),
            name: name.as_ref().map_or(ptr::null(), |name| name.as_ptr()),
            has_layers: flag(info.layers.is_some()),
            layers: info.layers.unwrap_or(0),
            has_experts: flag(info.experts.is_some()),
            experts: info.experts.unwrap_or(0),
        });
        let handles: Vec<*const sys::eredu_group> =
            groups.iter().map(ParameterGroupSpec::as_ptr).collect();
        let mut out = ptr::null_mut();
        call(|error| {
            // SAFETY: the info, its name and every group handle are alive for
            // the call; the library copies the groups.
            unsafe {
                sys::eredu_model_new(
                    raw_info
                        .as_ref()
                        .map_or(ptr::null(), |info| info as *const _),
                    handles.as_ptr(),
                    handles.len(),
                    &mut out,
                    error,
                )
            }
        })?;
        // SAFETY: on success `out` is a new model owned by the caller.
        Ok(unsafe { Self::from_raw(out) })
    }

    /// Takes ownership of a model handle.
    ///
    /// # Safety
    /// `raw` is a non-NULL model the caller owns and does not free.
    pub(crate) unsafe fn from_raw(raw: *mut sys::eredu_model) -> Self {
        Self {
            raw: NonNull::new(raw).expect("liberedu returned a NULL model on success"),
        }
    }

    /// The handle, for calls that borrow it.
    pub fn as_ptr(&self) -> *const sys::eredu_model {
        self.raw.as_ptr()
    }

    /// The number of physical tensors (after any format expansion).
    pub fn tensor_count(&self) -> usize {
        // SAFETY: a live model.
        unsafe { sys::eredu_model_tensor_count(self.as_ptr()) }
    }

    /// The number of groups.
    pub fn group_count(&self) -> usize {
        // SAFETY: a live model.
        unsafe { sys::eredu_model_group_count(self.as_ptr()) }
    }

    /// The global bytes of the tensors that have a dtype.
    pub fn global_bytes(&self) -> u64 {
        // SAFETY: a live model.
        unsafe { sys::eredu_model_global_bytes(self.as_ptr()) }
    }

    /// Plans one rank; the same as [`plan_rank`].
    ///
    /// # Errors
    /// As [`plan_rank`].
    pub fn plan_rank<'a>(
        &self,
        topology: ParallelTopology,
        rank: u64,
        options: impl Into<PlanOptions<'a>>,
    ) -> Result<LocalModelLayout> {
        plan_rank(self, topology, rank, options)
    }
}

impl Drop for ModelDescription {
    fn drop(&mut self) {
        // SAFETY: the handle is owned, live, and freed exactly once.
        unsafe { sys::eredu_model_free(self.raw.as_ptr()) }
    }
}

impl std::fmt::Debug for ModelDescription {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ModelDescription")
            .field("group_count", &self.group_count())
            .field("tensor_count", &self.tensor_count())
            .field("global_bytes", &self.global_bytes())
            .finish()
    }
}
