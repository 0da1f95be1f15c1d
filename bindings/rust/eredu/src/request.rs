// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

//! The normalized cold-load request (seed `NormalizedLoadRequest` and its
//! vocabulary; `eredu/runtime/request.h`, docs/residency.md, "Load requests").

use std::ptr::{self, NonNull};

use eredu_sys as sys;

use crate::enums::c_enum;
use crate::error::Result;
use crate::ffi::{call, flag, struct_size, OutputStruct};
use crate::residency::{ResidencyRequest, WeightResidency, WeightResidencySummary};
use crate::topology::ParallelTopology;
use crate::version::ensure_compatible;

c_enum! {
    /// What a backend does with overdue work (seed
    /// `CompletionCancellationMode`).
    pub enum CompletionCancellationMode: sys::eredu_cancellation_mode {
        /// The backend cancels overdue work natively.
        NativeCancel = EREDU_CANCELLATION_NATIVE_CANCEL,
        /// The backend keeps orphaned work until exact completion.
        QuarantineUntilComplete = EREDU_CANCELLATION_QUARANTINE_UNTIL_COMPLETE,
    }
}

c_enum! {
    /// Pipeline activation element type (seed `PipelineActivationDtype`).
    pub enum PipelineActivationDtype: sys::eredu_activation_dtype {
        /// 16-bit IEEE float.
        Float16 = EREDU_ACTIVATION_DTYPE_FLOAT16,
        /// bfloat16.
        BFloat16 = EREDU_ACTIVATION_DTYPE_BFLOAT16,
        /// 32-bit IEEE float.
        Float32 = EREDU_ACTIVATION_DTYPE_FLOAT32,
    }
}

c_enum! {
    /// Mutable-state residency (seed `CacheResidencyPolicy` kinds).
    pub enum CacheResidencyPolicy: sys::eredu_cache_residency {
        /// Mutable state stays on the execution device (the default).
        Device = EREDU_CACHE_RESIDENCY_DEVICE,
        /// Mutable state is paged; the paging options are the runtime's own.
        Paged = EREDU_CACHE_RESIDENCY_PAGED,
    }
}

/// A bounded completion deadline (seed `CommunicationCompletionPolicy`):
/// valid when `timeout_millis` is at least 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CommunicationCompletionPolicy {
    /// The deadline in milliseconds.
    pub timeout_millis: u64,
    /// What happens to overdue work.
    pub cancellation: CompletionCancellationMode,
}

impl Default for CommunicationCompletionPolicy {
    /// 30000 ms, quarantine until complete (the seed's default).
    fn default() -> Self {
        Self {
            timeout_millis: 30_000,
            cancellation: CompletionCancellationMode::QuarantineUntilComplete,
        }
    }
}

/// A load-time quantization request (seed `QuantizationRequest`); checked
/// when the request is validated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum QuantizationRequest {
    /// Affine integer quantization.
    Affine {
        /// Values per group: 16 or a positive multiple of 32.
        group_size: u32,
        /// Bits per value: 2, 3, 4, 5, 6 or 8.
        bits: u8,
    },
    /// Microscaling FP4 (group 32, 4 bits).
    Mxfp4,
    /// A kind this crate does not know; validation rejects it with
    /// `Quantization`, as the seed's catch-all does.
    Unknown(u32),
}

impl QuantizationRequest {
    fn to_raw(self) -> sys::eredu_quantization_request {
        let (kind, group_size, bits) = match self {
            Self::Affine { group_size, bits } => {
                (sys::EREDU_QUANTIZATION_AFFINE as u32, group_size, bits)
            }
            Self::Mxfp4 => (sys::EREDU_QUANTIZATION_MXFP4 as u32, 0, 0),
            Self::Unknown(kind) => (kind, 0, 0),
        };
        sys::eredu_quantization_request {
            struct_size: struct_size::<sys::eredu_quantization_request>(),
            kind,
            group_size,
            bits,
        }
    }

    fn from_raw(kind: u32, group_size: u32, bits: u8) -> Self {
        match kind as i32 {
            sys::EREDU_QUANTIZATION_AFFINE => Self::Affine { group_size, bits },
            sys::EREDU_QUANTIZATION_MXFP4 => Self::Mxfp4,
            _ => Self::Unknown(kind),
        }
    }
}

/// One complete parallel-execution request (seed `ParallelLoadRequest` with
/// its rank topology, wire contract, invocation limits and completion).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ParallelLoadRequest {
    /// The topology; its world size must be at least 2.
    pub topology: ParallelTopology,
    /// This process's global rank.
    pub rank: u64,
    /// The pipeline activation wire.
    pub activation_dtype: PipelineActivationDtype,
    /// Largest admitted batch size, at least 1.
    pub maximum_batch_size: i32,
    /// Largest admitted sequence length in tokens, at least 1.
    pub maximum_sequence_length: i32,
    /// The bounded completion policy.
    pub completion: CommunicationCompletionPolicy,
}

impl ParallelLoadRequest {
    /// Calls `f` with the C descriptor, which points to its topology.
    fn with_raw<R>(&self, f: impl FnOnce(&sys::eredu_parallel_load_desc) -> R) -> R {
        let topology = self.topology.to_raw();
        let desc = sys::eredu_parallel_load_desc {
            struct_size: struct_size::<sys::eredu_parallel_load_desc>(),
            activation_dtype: self.activation_dtype.to_raw(),
            topology: &topology,
            rank: self.rank,
            maximum_batch_size: self.maximum_batch_size,
            maximum_sequence_length: self.maximum_sequence_length,
            completion_timeout_millis: self.completion.timeout_millis,
            completion_cancellation: self.completion.cancellation.to_raw(),
        };
        f(&desc)
    }

    /// The request a descriptor the library filled describes.
    ///
    /// # Safety
    /// `raw.topology` is NULL or points to a live `eredu_topology`.
    unsafe fn from_raw(raw: &sys::eredu_parallel_load_desc) -> Self {
        // SAFETY: guaranteed by the caller; the sizes are copied at once.
        let topology = unsafe { raw.topology.as_ref() }
            .map_or_else(ParallelTopology::default, ParallelTopology::from_raw);
        Self {
            topology,
            rank: raw.rank,
            activation_dtype: PipelineActivationDtype::from_raw(raw.activation_dtype),
            maximum_batch_size: raw.maximum_batch_size,
            maximum_sequence_length: raw.maximum_sequence_length,
            completion: CommunicationCompletionPolicy {
                timeout_millis: raw.completion_timeout_millis,
                cancellation: CompletionCancellationMode::from_raw(raw.completion_cancellation),
            },
        }
    }
}

/// Portable drafting intent (seed `DraftingLoadRequest`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum DraftingLoadRequest {
    /// Install an admitted embedded extension, as a direct load does.
    #[default]
    ArchitectureDefault,
    /// Materialize only the ordinary target.
    Disabled,
    /// Require and install an embedded extension with this proposal bound.
    Embedded {
        /// Draft tokens proposed per target step, at least 1.
        max_draft_tokens: u64,
    },
    /// Prepare only the ordinary target for external-assistant pairing.
    ExternalTarget,
    /// A kind this crate does not know (from a newer library).
    Unknown(u32),
}

/// An execution plan's drafting mode (seed `DraftingPlan`, only what a load
/// request reads).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DraftingPlan {
    /// No drafting.
    Disabled,
    /// An embedded drafter proposing `max_draft_tokens` per step.
    Embedded {
        /// Draft tokens per target step, at least 1.
        max_draft_tokens: u64,
    },
    /// An external assistant.
    External,
    /// A mode this crate does not know; rejected with
    /// `UnsupportedDraftingPlan`, as the seed's catch-all does.
    Unknown(u32),
}

/// The portable preparation policy of a validated request (seed
/// `PreparationPolicy`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PreparationPolicy {
    /// The requested quantization, when the request quantizes on load.
    pub quantization: Option<QuantizationRequest>,
    /// The residency a preparation asks for.
    pub residency: ResidencyRequest,
    /// The parallel topology's sizes, when parallel execution is attached.
    pub topology: Option<ParallelTopology>,
    /// Required session capabilities (bits within
    /// `EREDU_SESSION_CAPABILITIES_MASK`).
    pub required_session_capabilities: u32,
}

/// A normalized cold-load request (`eredu_load_request`, seed
/// `NormalizedLoadRequest`), built with the seed's `with_*` steps; each step
/// is atomic in the library. Freed on drop.
pub struct NormalizedLoadRequest {
    raw: NonNull<sys::eredu_load_request>,
}

// SAFETY: the header makes a request a single-threaded builder that may move
// between threads: Send, not Sync (this crate does not promise concurrent
// reads of one request).
unsafe impl Send for NormalizedLoadRequest {}

impl NormalizedLoadRequest {
    fn create(quantization: Option<QuantizationRequest>) -> Result<Self> {
        ensure_compatible()?;
        let quantization = quantization.map(QuantizationRequest::to_raw);
        let mut out = ptr::null_mut();
        call(|error| {
            // SAFETY: an optional struct alive for the call and an out-pointer.
            unsafe {
                sys::eredu_load_request_new(
                    quantization.as_ref().map_or(ptr::null(), |q| q as *const _),
                    &mut out,
                    error,
                )
            }
        })?;
        Ok(Self {
            raw: NonNull::new(out).expect("liberedu returned a NULL request on success"),
        })
    }

    /// The seed's `NormalizedLoadRequest::default()`: no overrides, fully
    /// resident, device state, architecture-default drafting.
    ///
    /// # Errors
    /// `OutOfMemory`; `UnsupportedVersion` for a library of another major.
    pub fn new() -> Result<Self> {
        Self::create(None)
    }

    /// A request that quantizes eligible dense weights on load (checked by
    /// [`NormalizedLoadRequest::validate_model_preparation`]).
    ///
    /// # Errors
    /// As [`NormalizedLoadRequest::new`].
    pub fn with_quantization(quantization: QuantizationRequest) -> Result<Self> {
        Self::create(Some(quantization))
    }

    fn apply(
        mut self,
        f: impl FnOnce(*mut sys::eredu_load_request, *mut *mut sys::eredu_error) -> sys::eredu_status,
    ) -> Result<Self> {
        self.apply_mut(f)?;
        Ok(self)
    }

    fn apply_mut(
        &mut self,
        f: impl FnOnce(*mut sys::eredu_load_request, *mut *mut sys::eredu_error) -> sys::eredu_status,
    ) -> Result<()> {
        let raw = self.raw.as_ptr();
        call(|error| f(raw, error))
    }

    fn as_ptr(&self) -> *const sys::eredu_load_request {
        self.raw.as_ptr()
    }

    /// Attaches one complete parallel-execution request.
    ///
    /// # Errors
    /// `ZeroAxis`, `WorldSizeOverflow`, `RankOutOfRange`,
    /// `InvalidCompletionPolicy`, `ReplicatedParallelTopology`,
    /// `InvalidInvocationLimits`, `ConflictingCompletionPolicy` (a local
    /// completion policy set before), in that order.
    pub fn with_parallel_execution(self, parallel: ParallelLoadRequest) -> Result<Self> {
        parallel.with_raw(|parallel| {
            // SAFETY: a live request and structs alive for the call.
            self.apply(|raw, error| unsafe {
                sys::eredu_load_request_set_parallel_execution(raw, parallel, error)
            })
        })
    }

    /// Sets the bounded completion policy: into the parallel request when
    /// one is attached, else into the local slot.
    ///
    /// # Errors
    /// `InvalidCompletionPolicy` (0 ms); `InvalidArgument`.
    pub fn set_communication_completion_policy(
        &mut self,
        policy: CommunicationCompletionPolicy,
    ) -> Result<()> {
        // SAFETY: a live request, mutated through &mut self only.
        self.apply_mut(|raw, error| unsafe {
            sys::eredu_load_request_set_communication_completion_policy(
                raw,
                policy.timeout_millis,
                policy.cancellation.to_raw(),
                error,
            )
        })
    }

    /// [`NormalizedLoadRequest::set_communication_completion_policy`] as a
    /// builder step.
    ///
    /// # Errors
    /// As the setter.
    pub fn with_communication_completion_policy(
        mut self,
        policy: CommunicationCompletionPolicy,
    ) -> Result<Self> {
        self.set_communication_completion_policy(policy)?;
        Ok(self)
    }

    /// Applies a portable execution plan's drafting mode.
    ///
    /// # Errors
    /// `UnsupportedDraftingPlan` (an unknown mode);
    /// `ZeroEmbeddedDraftCapacity`.
    pub fn with_drafting_plan(self, plan: &DraftingPlan) -> Result<Self> {
        let (kind, tokens) = match *plan {
            DraftingPlan::Disabled => (sys::EREDU_DRAFTING_PLAN_DISABLED as u32, 0),
            DraftingPlan::Embedded { max_draft_tokens } => {
                (sys::EREDU_DRAFTING_PLAN_EMBEDDED as u32, max_draft_tokens)
            }
            DraftingPlan::External => (sys::EREDU_DRAFTING_PLAN_EXTERNAL as u32, 0),
            DraftingPlan::Unknown(kind) => (kind, 0),
        };
        let raw_plan = sys::eredu_drafting_plan {
            struct_size: struct_size::<sys::eredu_drafting_plan>(),
            kind,
            max_draft_tokens: tokens,
        };
        // SAFETY: a live request and a struct alive for the call.
        self.apply(|raw, error| unsafe {
            sys::eredu_load_request_set_drafting_plan(raw, &raw_plan, error)
        })
    }

    /// Selects the drafting intent.
    ///
    /// # Errors
    /// `ZeroEmbeddedDraftCapacity`; `InvalidArgument` (an unknown kind).
    pub fn with_drafting(self, drafting: DraftingLoadRequest) -> Result<Self> {
        let (kind, tokens) = match drafting {
            DraftingLoadRequest::ArchitectureDefault => {
                (sys::EREDU_DRAFTING_ARCHITECTURE_DEFAULT as u32, 0)
            }
            DraftingLoadRequest::Disabled => (sys::EREDU_DRAFTING_DISABLED as u32, 0),
            DraftingLoadRequest::Embedded { max_draft_tokens } => {
                (sys::EREDU_DRAFTING_EMBEDDED as u32, max_draft_tokens)
            }
            DraftingLoadRequest::ExternalTarget => (sys::EREDU_DRAFTING_EXTERNAL_TARGET as u32, 0),
            DraftingLoadRequest::Unknown(kind) => (kind, 0),
        };
        // SAFETY: a live request.
        self.apply(|raw, error| unsafe {
            sys::eredu_load_request_set_drafting(raw, kind, tokens, error)
        })
    }

    /// Selects the exact checkpoint reader-cache bound.
    ///
    /// # Errors
    /// `ZeroCachedShards` (0).
    pub fn with_max_cached_shards(self, maximum: u64) -> Result<Self> {
        // SAFETY: a live request.
        self.apply(|raw, error| unsafe {
            sys::eredu_load_request_set_max_cached_shards(raw, maximum, error)
        })
    }

    /// Selects the immutable-weight residency (checked as
    /// [`WeightResidency::validate`]).
    ///
    /// # Errors
    /// The errors of [`WeightResidency::validate`].
    pub fn with_weight_residency(self, residency: WeightResidency) -> Result<Self> {
        residency.with_raw(|desc| {
            // SAFETY: a live request and a description alive for the call.
            self.apply(|raw, error| unsafe {
                sys::eredu_load_request_set_weight_residency(raw, desc, error)
            })
        })
    }

    /// Requires capabilities from the realized session (bits within
    /// `EREDU_SESSION_CAPABILITIES_MASK`).
    ///
    /// # Errors
    /// `InvalidArgument` (a bit outside the mask).
    pub fn with_required_session_capabilities(self, capabilities: u32) -> Result<Self> {
        // SAFETY: a live request.
        self.apply(|raw, error| unsafe {
            sys::eredu_load_request_set_required_session_capabilities(raw, capabilities, error)
        })
    }

    /// Selects the mutable-state residency.
    ///
    /// # Errors
    /// `InvalidArgument` (an unknown value).
    pub fn with_state_residency(self, residency: CacheResidencyPolicy) -> Result<Self> {
        // SAFETY: a live request.
        self.apply(|raw, error| unsafe {
            sys::eredu_load_request_set_state_residency(raw, residency.to_raw(), error)
        })
    }

    /// Requires persisted prompt-prefix import/export.
    ///
    /// # Errors
    /// None in practice (`InvalidArgument` is for flags other than 0/1).
    pub fn with_prompt_cache_persistence(self, required: bool) -> Result<Self> {
        // SAFETY: a live request.
        self.apply(|raw, error| unsafe {
            sys::eredu_load_request_set_prompt_cache_persistence(raw, flag(required), error)
        })
    }

    /// The plain fields, in one `eredu_load_request_get_info` call.
    fn info(&self) -> sys::eredu_load_request_info {
        let mut info = sys::eredu_load_request_info::empty();
        call(|error| {
            // SAFETY: a live request and a struct with its struct_size.
            unsafe { sys::eredu_load_request_get_info(self.as_ptr(), &mut info, error) }
        })
        .expect("liberedu refused eredu_load_request_get_info on a live request");
        info
    }

    /// The reader-cache bound: the override, else the weight residency's.
    pub fn max_cached_shards(&self) -> u64 {
        self.info().max_cached_shards
    }

    /// The requested load-time quantization, as given.
    pub fn quantization(&self) -> Option<QuantizationRequest> {
        let mut raw = sys::eredu_quantization_request::empty();
        let mut present = false;
        call(|error| {
            // SAFETY: a live request, a struct with its struct_size and an
            // out-pointer.
            unsafe {
                sys::eredu_load_request_quantization(self.as_ptr(), &mut raw, &mut present, error)
            }
        })
        .expect("liberedu refused eredu_load_request_quantization on a live request");
        present.then(|| QuantizationRequest::from_raw(raw.kind, raw.group_size, raw.bits))
    }

    /// The attached parallel request.
    pub fn parallel_execution(&self) -> Option<ParallelLoadRequest> {
        let mut raw = sys::eredu_parallel_load_desc::empty();
        let mut present = false;
        call(|error| {
            // SAFETY: a live request, a struct with its struct_size and an
            // out-pointer.
            unsafe {
                sys::eredu_load_request_parallel_execution(
                    self.as_ptr(),
                    &mut raw,
                    &mut present,
                    error,
                )
            }
        })
        .expect("liberedu refused eredu_load_request_parallel_execution on a live request");
        // SAFETY: the topology is borrowed from the request, which is not
        // changed before it is copied.
        present.then(|| unsafe { ParallelLoadRequest::from_raw(&raw) })
    }

    /// The completion policy of model preparation: the parallel request's,
    /// or `None` without parallel execution.
    ///
    /// # Errors
    /// `OrphanedModelCompletion` (a local policy without parallel execution).
    pub fn communication_completion_policy(&self) -> Result<Option<CommunicationCompletionPolicy>> {
        let mut timeout = 0;
        let mut cancellation = 0;
        let mut present = false;
        call(|error| {
            // SAFETY: a live request and out-pointers.
            unsafe {
                sys::eredu_load_request_communication_completion_policy(
                    self.as_ptr(),
                    &mut timeout,
                    &mut cancellation,
                    &mut present,
                    error,
                )
            }
        })?;
        Ok(present.then(|| CommunicationCompletionPolicy {
            timeout_millis: timeout,
            cancellation: CompletionCancellationMode::from_raw(cancellation),
        }))
    }

    /// The completion policy of realtime work: the parallel request's, else
    /// the local one, else the 30 s default.
    pub fn realtime_completion_policy(&self) -> CommunicationCompletionPolicy {
        let info = self.info();
        CommunicationCompletionPolicy {
            timeout_millis: info.realtime_completion_timeout_millis,
            cancellation: CompletionCancellationMode::from_raw(
                info.realtime_completion_cancellation,
            ),
        }
    }

    /// The drafting intent.
    pub fn drafting(&self) -> DraftingLoadRequest {
        let info = self.info();
        match info.drafting as i32 {
            sys::EREDU_DRAFTING_ARCHITECTURE_DEFAULT => DraftingLoadRequest::ArchitectureDefault,
            sys::EREDU_DRAFTING_DISABLED => DraftingLoadRequest::Disabled,
            sys::EREDU_DRAFTING_EMBEDDED => DraftingLoadRequest::Embedded {
                max_draft_tokens: info.max_draft_tokens,
            },
            sys::EREDU_DRAFTING_EXTERNAL_TARGET => DraftingLoadRequest::ExternalTarget,
            _ => DraftingLoadRequest::Unknown(info.drafting),
        }
    }

    /// The weight residency, summarized for `unit_count` ordinary units.
    pub fn weight_residency(&self, unit_count: u64) -> WeightResidencySummary {
        let mut out = sys::eredu_residency_summary::empty();
        call(|error| {
            // SAFETY: a live request and a struct with its struct_size.
            unsafe {
                sys::eredu_load_request_weight_residency(self.as_ptr(), unit_count, &mut out, error)
            }
        })
        .expect("liberedu refused eredu_load_request_weight_residency on a live request");
        WeightResidencySummary::from_raw(&out)
    }

    /// The capabilities required from the realized session.
    pub fn required_session_capabilities(&self) -> u32 {
        self.info().required_session_capabilities
    }

    /// The mutable-state residency.
    pub fn state_residency(&self) -> CacheResidencyPolicy {
        CacheResidencyPolicy::from_raw(self.info().state_residency)
    }

    /// Whether persisted prompt-prefix import/export is required.
    pub fn prompt_cache_persistence(&self) -> bool {
        self.info().prompt_cache_persistence != 0
    }

    /// Validates the complete model-preparation request and returns its
    /// portable preparation policy (seed `validate_model_preparation`).
    ///
    /// # Errors
    /// In order: `ZeroCachedShards`; `Quantization` (the seed's texts);
    /// `OrphanedModelCompletion`.
    pub fn validate_model_preparation(&self) -> Result<PreparationPolicy> {
        let mut out = sys::eredu_preparation_policy::empty();
        call(|error| {
            // SAFETY: a live request and a struct with its struct_size.
            unsafe {
                sys::eredu_load_request_validate_model_preparation(self.as_ptr(), &mut out, error)
            }
        })?;
        Ok(PreparationPolicy {
            quantization: (out.has_quantization != 0).then(|| {
                QuantizationRequest::from_raw(
                    out.quantization_kind,
                    out.quantization_group_size,
                    out.quantization_bits,
                )
            }),
            residency: ResidencyRequest::from_raw(out.residency),
            // SAFETY: NULL or a topology borrowed from the request, which is
            // not changed before it is copied.
            topology: unsafe { out.topology.as_ref() }.map(ParallelTopology::from_raw),
            required_session_capabilities: out.required_session_capabilities,
        })
    }
}

impl Drop for NormalizedLoadRequest {
    fn drop(&mut self) {
        // SAFETY: the handle is owned, live, and freed exactly once.
        unsafe { sys::eredu_load_request_free(self.raw.as_ptr()) }
    }
}

impl std::fmt::Debug for NormalizedLoadRequest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NormalizedLoadRequest")
            .field("quantization", &self.quantization())
            .field("parallel_execution", &self.parallel_execution())
            .field("drafting", &self.drafting())
            .field("max_cached_shards", &self.max_cached_shards())
            .field("state_residency", &self.state_residency())
            .field("prompt_cache_persistence", &self.prompt_cache_persistence())
            .finish()
    }
}
