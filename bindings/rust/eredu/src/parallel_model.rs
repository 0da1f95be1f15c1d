// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

//! The summary of one rank-local parallel model (seed `ParallelModelInfo`;
//! `eredu/runtime/projection.h`, docs/planning.md, "Parallel model info").

use std::ffi::{c_char, CString};
use std::ptr::{self, NonNull};

use eredu_sys as sys;

use crate::error::Result;
use crate::ffi::{borrowed_str, c_string, call, OutputStruct};
use crate::topology::ParallelTopology;
use crate::version::ensure_compatible;

/// An architecture-neutral summary of one rank-local parallel model (seed
/// `ParallelModelInfo`): its topology, effective model type, the checkpoint
/// targets the rank owns or replicates, and four byte figures. A plain
/// value: [`ParallelModelInfo::new`] has the library check the topology and
/// reads everything back from it (`eredu_parallel_model_info_topology`,
/// `eredu_parallel_model_info_get_summary` and one call per owned tensor).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ParallelModelInfo {
    topology: ParallelTopology,
    effective_model_type: String,
    owned_tensors: Vec<String>,
    local_parameter_bytes: u64,
    global_parameter_bytes: u64,
    pinned_device_parameter_bytes: u64,
    maximum_device_parameter_bytes: u64,
}

/// An owned `eredu_parallel_model_info` handle, freed on drop.
struct Handle(NonNull<sys::eredu_parallel_model_info>);

impl Drop for Handle {
    fn drop(&mut self) {
        // SAFETY: the handle is owned, live, and freed exactly once.
        unsafe { sys::eredu_parallel_model_info_free(self.0.as_ptr()) }
    }
}

impl ParallelModelInfo {
    /// Builds the summary (seed `ParallelModelInfo::new`): only the
    /// topology is checked; the other values are kept as given.
    ///
    /// # Errors
    /// `ZeroAxis`, `WorldSizeOverflow` (the topology); `InvalidArgument` for
    /// a NUL byte in a string; `OutOfMemory`.
    pub fn new<I>(
        topology: ParallelTopology,
        effective_model_type: &str,
        owned_tensors: I,
        local_parameter_bytes: u64,
        global_parameter_bytes: u64,
        pinned_device_parameter_bytes: u64,
        maximum_device_parameter_bytes: u64,
    ) -> Result<Self>
    where
        I: IntoIterator,
        I::Item: AsRef<str>,
    {
        ensure_compatible()?;
        let model_type = c_string("effective model type", effective_model_type)?;
        let owned = owned_tensors
            .into_iter()
            .map(|target| c_string("owned tensor", target.as_ref()))
            .collect::<Result<Vec<CString>>>()?;
        let pointers: Vec<*const c_char> = owned.iter().map(|target| target.as_ptr()).collect();
        let topology = topology.to_raw();
        let mut out = ptr::null_mut();
        call(|error| {
            // SAFETY: the topology, strings and pointer array live for the
            // call; the library copies them.
            unsafe {
                sys::eredu_parallel_model_info_new(
                    &topology,
                    model_type.as_ptr(),
                    pointers.as_ptr(),
                    pointers.len(),
                    local_parameter_bytes,
                    global_parameter_bytes,
                    pinned_device_parameter_bytes,
                    maximum_device_parameter_bytes,
                    &mut out,
                    error,
                )
            }
        })?;
        let handle = Handle(NonNull::new(out).expect("liberedu returned a NULL info on success"));
        // SAFETY: a live handle, read before it is freed.
        unsafe { Self::read(&handle) }
    }

    /// Copies everything a handle holds.
    ///
    /// # Safety
    /// `handle` is live.
    unsafe fn read(handle: &Handle) -> Result<Self> {
        let raw = handle.0.as_ptr();
        let mut topology = sys::eredu_topology::empty();
        call(|error| {
            // SAFETY: a live handle and a struct with its struct_size.
            unsafe { sys::eredu_parallel_model_info_topology(raw, &mut topology, error) }
        })?;
        let mut summary = sys::eredu_parallel_model_summary::empty();
        call(|error| {
            // SAFETY: a live handle and a struct with its struct_size.
            unsafe { sys::eredu_parallel_model_info_get_summary(raw, &mut summary, error) }
        })?;
        let owned_tensors = (0..summary.owned_tensor_count)
            .map(|index| {
                let mut text: *const c_char = ptr::null();
                let mut length = 0;
                call(|error| {
                    // SAFETY: a live handle, an index below the count and
                    // valid out-pointers.
                    unsafe {
                        sys::eredu_parallel_model_info_owned_tensor(
                            raw,
                            index,
                            &mut text,
                            &mut length,
                            error,
                        )
                    }
                })?;
                // SAFETY: borrowed from the live handle, copied at once.
                Ok(unsafe { borrowed_str(text, length) }.to_owned())
            })
            .collect::<Result<Vec<String>>>()?;
        Ok(Self {
            topology: ParallelTopology::from_raw(&topology),
            // SAFETY: borrowed from the live handle, copied at once.
            effective_model_type: unsafe {
                borrowed_str(
                    summary.effective_model_type,
                    summary.effective_model_type_length,
                )
            }
            .to_owned(),
            owned_tensors,
            local_parameter_bytes: summary.local_parameter_bytes,
            global_parameter_bytes: summary.global_parameter_bytes,
            pinned_device_parameter_bytes: summary.pinned_device_parameter_bytes,
            maximum_device_parameter_bytes: summary.maximum_device_parameter_bytes,
        })
    }

    /// The topology, unchanged.
    pub const fn topology(&self) -> ParallelTopology {
        self.topology
    }

    /// The parsed model type.
    pub fn effective_model_type(&self) -> &str {
        &self.effective_model_type
    }

    /// The checkpoint targets owned or replicated by the rank, in the given
    /// order.
    pub fn owned_tensors(&self) -> &[String] {
        &self.owned_tensors
    }

    /// Planned rank-local parameter bytes.
    pub const fn local_parameter_bytes(&self) -> u64 {
        self.local_parameter_bytes
    }

    /// Unsharded model parameter bytes.
    pub const fn global_parameter_bytes(&self) -> u64 {
        self.global_parameter_bytes
    }

    /// Bytes permanently on the device.
    pub const fn pinned_device_parameter_bytes(&self) -> u64 {
        self.pinned_device_parameter_bytes
    }

    /// Maximum planned device bytes.
    pub const fn maximum_device_parameter_bytes(&self) -> u64 {
        self.maximum_device_parameter_bytes
    }
}
