// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

//! The parameter-residency snapshot of a layered model (seed
//! `LayerwiseModelMetadata`; `eredu/runtime/layerwise_metadata.h`,
//! docs/residency.md, "Layerwise model metadata").

use std::ptr::{self, NonNull};

use eredu_sys as sys;

use crate::error::Result;
use crate::ffi::{borrowed_str, c_string, call, OutputStruct};
use crate::format::LinearFormat;
use crate::residency::ExecutionResidency;
use crate::version::ensure_compatible;

/// Every field of a [`LayerwiseModelMetadata`] snapshot, as it is built and
/// as [`LayerwiseModelMetadata::info`] reads it back. Byte figures are bytes;
/// layer counts and capacities count execution units.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct LayerwiseModelMetadataInfo {
    /// The parsed implementation or nested text-model type (may be blank).
    pub effective_model_type: String,
    /// The checkpoint-native packed weight quantization: `None` (or
    /// [`LinearFormat::Dense`], read back as `None`), affine, MXFP4 or GGUF.
    pub quantization: Option<LinearFormat>,
    /// The ordered execution-unit count.
    pub layer_count: u64,
    /// The pinned static parameter bytes on the execution device.
    pub static_device_bytes: u64,
    /// The execution residency.
    pub residency: ExecutionResidency,
    /// The complete rank-local execution-unit parameter bytes.
    pub layer_parameter_bytes: u64,
    /// The largest possible device-resident execution-unit byte total.
    pub maximum_device_layer_bytes: u64,
    /// The charged host-transfer bytes of the largest execution unit.
    pub maximum_host_layer_bytes: u64,
    /// The most execution units retained on the device.
    pub device_layer_capacity: u64,
}

/// A runtime-owned, inspectable parameter-residency snapshot of a layered
/// model (`eredu_layerwise_model_metadata`, seed `LayerwiseModelMetadata`),
/// freed on drop. The model type and the quantization can be replaced once
/// the checkpoint is resolved.
pub struct LayerwiseModelMetadata {
    raw: NonNull<sys::eredu_layerwise_model_metadata>,
}

// SAFETY: the header lets a snapshot move between threads and its getters
// run concurrently; the setters, which must not overlap with any other call,
// take &mut self.
unsafe impl Send for LayerwiseModelMetadata {}
// SAFETY: as above: every call through &self only reads the snapshot.
unsafe impl Sync for LayerwiseModelMetadata {}

/// The C quantization of an optional format: NULL for none.
fn quantization_raw(quantization: Option<LinearFormat>) -> Option<sys::eredu_linear_format> {
    quantization.map(LinearFormat::to_raw)
}

impl LayerwiseModelMetadata {
    /// Creates a snapshot (seed `LayerwiseModelMetadata::new`); the values
    /// are stored as given.
    ///
    /// # Errors
    /// `InvalidArgument` (a NUL byte in the model type, a block-FP8 or
    /// unknown quantization kind, an unknown residency); `InvalidFormat`
    /// (the quantization's own rules, as [`LinearFormat::validate`]);
    /// `OutOfMemory`.
    pub fn new(info: &LayerwiseModelMetadataInfo) -> Result<Self> {
        ensure_compatible()?;
        let model_type = c_string("effective model type", &info.effective_model_type)?;
        let quantization = quantization_raw(info.quantization);
        let mut out = ptr::null_mut();
        call(|error| {
            // SAFETY: the string and the optional format live for the call.
            unsafe {
                sys::eredu_layerwise_model_metadata_new(
                    model_type.as_ptr(),
                    quantization.as_ref().map_or(ptr::null(), |q| q as *const _),
                    info.layer_count,
                    info.static_device_bytes,
                    info.residency.to_raw(),
                    info.layer_parameter_bytes,
                    info.maximum_device_layer_bytes,
                    info.maximum_host_layer_bytes,
                    info.device_layer_capacity,
                    &mut out,
                    error,
                )
            }
        })?;
        Ok(Self {
            raw: NonNull::new(out).expect("liberedu returned a NULL snapshot on success"),
        })
    }

    fn as_ptr(&self) -> *const sys::eredu_layerwise_model_metadata {
        self.raw.as_ptr()
    }

    /// The plain fields, in one `eredu_layerwise_model_metadata_get_info`
    /// call; the model type is borrowed from the snapshot.
    fn raw_info(&self) -> sys::eredu_layerwise_model_metadata_info {
        let mut info = sys::eredu_layerwise_model_metadata_info::empty();
        call(|error| {
            // SAFETY: a live snapshot and a struct with its struct_size.
            unsafe { sys::eredu_layerwise_model_metadata_get_info(self.as_ptr(), &mut info, error) }
        })
        .expect("liberedu refused eredu_layerwise_model_metadata_get_info on a live snapshot");
        info
    }

    /// Every field of the snapshot (seed `LayerwiseModelMetadata`
    /// accessors).
    pub fn info(&self) -> LayerwiseModelMetadataInfo {
        let info = self.raw_info();
        LayerwiseModelMetadataInfo {
            // SAFETY: borrowed from the live snapshot, copied at once.
            effective_model_type: unsafe {
                borrowed_str(info.effective_model_type, info.effective_model_type_length)
            }
            .to_owned(),
            quantization: if info.has_quantization != 0 {
                self.quantization()
            } else {
                None
            },
            layer_count: info.layer_count,
            static_device_bytes: info.static_device_bytes,
            residency: ExecutionResidency::from_raw(info.residency),
            layer_parameter_bytes: info.layer_parameter_bytes,
            maximum_device_layer_bytes: info.maximum_device_layer_bytes,
            maximum_host_layer_bytes: info.maximum_host_layer_bytes,
            device_layer_capacity: info.device_layer_capacity,
        }
    }

    /// The effective model type.
    pub fn effective_model_type(&self) -> &str {
        let info = self.raw_info();
        // SAFETY: borrowed from the snapshot, which only a setter (taking
        // &mut self, so not while this borrow lives) changes.
        unsafe { borrowed_str(info.effective_model_type, info.effective_model_type_length) }
    }

    /// The checkpoint-native weight quantization (seed
    /// `LayerwiseModelMetadata::quantization`).
    pub fn quantization(&self) -> Option<LinearFormat> {
        let mut format = sys::eredu_linear_format::empty();
        let mut present = false;
        call(|error| {
            // SAFETY: a live snapshot, a struct with its struct_size and an
            // out-pointer.
            unsafe {
                sys::eredu_layerwise_model_metadata_quantization(
                    self.as_ptr(),
                    &mut format,
                    &mut present,
                    error,
                )
            }
        })
        .expect("liberedu refused eredu_layerwise_model_metadata_quantization on a live snapshot");
        present.then(|| LinearFormat::from_raw(&format))
    }

    /// Replaces the effective model type after checkpoint resolution. A
    /// failure changes nothing.
    ///
    /// # Errors
    /// `InvalidArgument` (a NUL byte); `OutOfMemory`.
    pub fn set_effective_model_type(&mut self, effective_model_type: &str) -> Result<()> {
        let model_type = c_string("effective model type", effective_model_type)?;
        call(|error| {
            // SAFETY: a live snapshot, changed through &mut self only, and a
            // string alive for the call.
            unsafe {
                sys::eredu_layerwise_model_metadata_set_effective_model_type(
                    self.raw.as_ptr(),
                    model_type.as_ptr(),
                    error,
                )
            }
        })
    }

    /// Replaces the checkpoint-native weight quantization (`None` or
    /// [`LinearFormat::Dense`] for none). A failure changes nothing.
    ///
    /// # Errors
    /// As [`LayerwiseModelMetadata::new`] for the quantization.
    pub fn set_quantization(&mut self, quantization: Option<LinearFormat>) -> Result<()> {
        let quantization = quantization_raw(quantization);
        call(|error| {
            // SAFETY: a live snapshot, changed through &mut self only, and a
            // format alive for the call.
            unsafe {
                sys::eredu_layerwise_model_metadata_set_quantization(
                    self.raw.as_ptr(),
                    quantization.as_ref().map_or(ptr::null(), |q| q as *const _),
                    error,
                )
            }
        })
    }
}

impl Drop for LayerwiseModelMetadata {
    fn drop(&mut self) {
        // SAFETY: the handle is owned, live, and freed exactly once.
        unsafe { sys::eredu_layerwise_model_metadata_free(self.raw.as_ptr()) }
    }
}

impl std::fmt::Debug for LayerwiseModelMetadata {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("LayerwiseModelMetadata")
            .field(&self.info())
            .finish()
    }
}
