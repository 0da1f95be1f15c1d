// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

//! The error type: a status code, its stable name and the library's message.

use std::ffi::CStr;
use std::fmt;

use eredu_sys as sys;

/// The result of every fallible call of this crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;

macro_rules! error_codes {
    ($($(#[$doc:meta])* $variant:ident = $constant:ident,)*) => {
        /// A status code of the C API (`include/eredu/status.h`), one variant
        /// per code; [`ErrorCode::Unknown`] keeps a code this crate does not
        /// know, e.g. one appended by a newer library of the same major
        /// version. The numbers are the `eredu_sys::EREDU_E_*` constants.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum ErrorCode {
            $($(#[$doc])* $variant,)*
            /// A status this crate does not know (the number as returned).
            Unknown(i32),
        }

        impl ErrorCode {
            /// The code of a nonzero status.
            pub const fn from_status(status: i32) -> Self {
                match status {
                    $(sys::$constant => Self::$variant,)*
                    other => Self::Unknown(other),
                }
            }

            /// The status number (`EREDU_E_*`).
            pub const fn status(self) -> i32 {
                match self {
                    $(Self::$variant => sys::$constant,)*
                    Self::Unknown(status) => status,
                }
            }

            /// The stable symbolic name, as `eredu_status_name` gives it
            /// (`"EREDU_E_UNKNOWN"` for [`ErrorCode::Unknown`]).
            pub const fn name(self) -> &'static str {
                match self {
                    $(Self::$variant => stringify!($constant),)*
                    Self::Unknown(_) => "EREDU_E_UNKNOWN",
                }
            }

            /// Every known code, in status order.
            pub const ALL: &'static [ErrorCode] = &[$(Self::$variant,)*];
        }
    };
}

error_codes! {
    /// A required pointer was NULL (API misuse).
    NullArgument = EREDU_E_NULL_ARGUMENT,
    /// Unknown enum value, bad flag, wrong struct_size, bad UTF-8, a NUL byte
    /// inside a string, an index out of range.
    InvalidArgument = EREDU_E_INVALID_ARGUMENT,
    /// An allocation failed.
    OutOfMemory = EREDU_E_OUT_OF_MEMORY,
    /// A caller buffer was too small.
    BufferTooSmall = EREDU_E_BUFFER_TOO_SMALL,
    /// A lookup by name found nothing.
    NotFound = EREDU_E_NOT_FOUND,
    /// Malformed JSON / interchange document.
    Parse = EREDU_E_PARSE,
    /// A binary artifact failed its checks.
    CorruptData = EREDU_E_CORRUPT_DATA,
    /// Schema or artifact version not understood; also a library of another
    /// major version (see [`crate::ensure_compatible`]).
    UnsupportedVersion = EREDU_E_UNSUPPORTED_VERSION,
    /// A file could not be read or written.
    Io = EREDU_E_IO,
    /// A model folder the describer does not support.
    UnsupportedModel = EREDU_E_UNSUPPORTED_MODEL,
    /// A described model disagrees with its checkpoint.
    CheckpointMismatch = EREDU_E_CHECKPOINT_MISMATCH,
    /// A progress callback cancelled the call
    /// ([`PlanOptions::with_progress`](crate::PlanOptions::with_progress)).
    Cancelled = EREDU_E_CANCELLED,
    /// A plan file was written for another description, topology, policy
    /// or library version.
    PlanFileMismatch = EREDU_E_PLAN_FILE_MISMATCH,
    /// A library bug: an exception reached the C boundary.
    Internal = EREDU_E_INTERNAL,
    /// `ParallelPlanError::InvalidGroup`.
    InvalidGroup = EREDU_E_INVALID_GROUP,
    /// `ParallelPlanError::InvalidTensor`.
    InvalidTensor = EREDU_E_INVALID_TENSOR,
    /// `TopologyError::ZeroAxis`.
    ZeroAxis = EREDU_E_ZERO_AXIS,
    /// `TopologyError::WorldSizeOverflow`.
    WorldSizeOverflow = EREDU_E_WORLD_SIZE_OVERFLOW,
    /// `TopologyError::RankOutOfRange`.
    RankOutOfRange = EREDU_E_RANK_OUT_OF_RANGE,
    /// `TopologyError::CoordinateOutOfRange`.
    CoordinateOutOfRange = EREDU_E_COORDINATE_OUT_OF_RANGE,
    /// `TopologyError::SubgroupIdentity`.
    SubgroupIdentity = EREDU_E_SUBGROUP_IDENTITY,
    /// `TopologyError::MissingLayerCount`.
    MissingLayerCount = EREDU_E_MISSING_LAYER_COUNT,
    /// `TopologyError::MissingExpertCount`.
    MissingExpertCount = EREDU_E_MISSING_EXPERT_COUNT,
    /// `TopologyError::ZeroPartitions`.
    ZeroPartitions = EREDU_E_ZERO_PARTITIONS,
    /// `TopologyError::PartitionOutOfRange`.
    PartitionOutOfRange = EREDU_E_PARTITION_OUT_OF_RANGE,
    /// `TopologyError::EmptyPartition`.
    EmptyPartition = EREDU_E_EMPTY_PARTITION,
    /// `TopologyError::PartitionOverflow`.
    PartitionOverflow = EREDU_E_PARTITION_OVERFLOW,
    /// A launcher's world size differs from the topology's
    /// ([`LaunchEnv::check`](crate::LaunchEnv::check)).
    WorldSizeMismatch = EREDU_E_WORLD_SIZE_MISMATCH,
    /// `OffloadError::UnsupportedSchemaVersion`.
    UnsupportedSchemaVersion = EREDU_E_UNSUPPORTED_SCHEMA_VERSION,
    /// `OffloadError::EmptyUnitId`.
    EmptyUnitId = EREDU_E_EMPTY_UNIT_ID,
    /// `OffloadError::ZeroSizedUnit`.
    ZeroSizedUnit = EREDU_E_ZERO_SIZED_UNIT,
    /// `OffloadError::DuplicateUnitId`.
    DuplicateUnitId = EREDU_E_DUPLICATE_UNIT_ID,
    /// `OffloadError::ByteTotalOverflow`.
    ByteTotalOverflow = EREDU_E_BYTE_TOTAL_OVERFLOW,
    /// `OffloadError::BudgetExceeded`.
    BudgetExceeded = EREDU_E_BUDGET_EXCEEDED,
    /// `OffloadError::ContradictoryAssignment`.
    ContradictoryAssignment = EREDU_E_CONTRADICTORY_ASSIGNMENT,
    /// `OffloadError::ZeroPrefetchDepth`.
    ZeroPrefetchDepth = EREDU_E_ZERO_PREFETCH_DEPTH,
    /// `WeightResidencyPolicyError::ZeroHostLookahead`.
    ZeroHostLookahead = EREDU_E_ZERO_HOST_LOOKAHEAD,
    /// `WeightResidencyPolicyError::ZeroQueueCapacity`.
    ZeroQueueCapacity = EREDU_E_ZERO_QUEUE_CAPACITY,
    /// `WeightResidencyPolicyError::HostDisabledControls`.
    HostDisabledControls = EREDU_E_HOST_DISABLED_CONTROLS,
    /// `WeightResidencyPolicyError::ZeroParameterBankScratchLimit`.
    ZeroParameterBankScratchLimit = EREDU_E_ZERO_PARAMETER_BANK_SCRATCH_LIMIT,
    /// `WeightResidencyPolicyError::ZeroParameterBankPrefillTarget`.
    ZeroParameterBankPrefillTarget = EREDU_E_ZERO_PARAMETER_BANK_PREFILL_TARGET,
    /// `WeightResidencyPolicyError::ParameterBankPrefillTargetExceedsScratch`.
    ParameterBankPrefillTargetExceedsScratch =
        EREDU_E_PARAMETER_BANK_PREFILL_TARGET_EXCEEDS_SCRATCH,
    /// `DenseTransferScheduleError::ZeroCapacity`.
    ZeroCapacity = EREDU_E_ZERO_CAPACITY,
    /// `DenseTransferScheduleError::UnorderedPending`.
    UnorderedPending = EREDU_E_UNORDERED_PENDING,
    /// `DenseTransferScheduleError::CapacityExceeded`.
    CapacityExceeded = EREDU_E_CAPACITY_EXCEEDED,
    /// `DenseTransferScheduleError::NoPendingUnit`.
    NoPendingUnit = EREDU_E_NO_PENDING_UNIT,
    /// `DenseTransferScheduleError::OutOfOrder`.
    OutOfOrder = EREDU_E_OUT_OF_ORDER,
    /// `NormalizedLoadRequestError::ZeroCachedShards`.
    ZeroCachedShards = EREDU_E_ZERO_CACHED_SHARDS,
    /// `NormalizedLoadRequestError::InvalidInvocationLimits`.
    InvalidInvocationLimits = EREDU_E_INVALID_INVOCATION_LIMITS,
    /// `NormalizedLoadRequestError::ReplicatedParallelTopology`.
    ReplicatedParallelTopology = EREDU_E_REPLICATED_PARALLEL_TOPOLOGY,
    /// `NormalizedLoadRequestError::ConflictingCompletionPolicy`.
    ConflictingCompletionPolicy = EREDU_E_CONFLICTING_COMPLETION_POLICY,
    /// `NormalizedLoadRequestError::OrphanedModelCompletion`.
    OrphanedModelCompletion = EREDU_E_ORPHANED_MODEL_COMPLETION,
    /// `NormalizedLoadRequestError::ZeroEmbeddedDraftCapacity`.
    ZeroEmbeddedDraftCapacity = EREDU_E_ZERO_EMBEDDED_DRAFT_CAPACITY,
    /// `NormalizedLoadRequestError::UnsupportedDraftingPlan`.
    UnsupportedDraftingPlan = EREDU_E_UNSUPPORTED_DRAFTING_PLAN,
    /// `NormalizedLoadRequestError::Completion`.
    Completion = EREDU_E_COMPLETION,
    /// `NormalizedLoadRequestError::Quantization`.
    Quantization = EREDU_E_QUANTIZATION,
    /// Checkpoint-format construction errors.
    InvalidFormat = EREDU_E_INVALID_FORMAT,
    /// A weight binding name (or logical target) is empty.
    InvalidBindingName = EREDU_E_INVALID_BINDING_NAME,
    /// A weight binding checkpoint key is empty.
    InvalidCheckpointKey = EREDU_E_INVALID_CHECKPOINT_KEY,
    /// A weight binding of zero bytes.
    ZeroSizedBinding = EREDU_E_ZERO_SIZED_BINDING,
    /// A completion policy with a zero-millisecond deadline.
    InvalidCompletionPolicy = EREDU_E_INVALID_COMPLETION_POLICY,
}

/// One problem of an [`Error`]: a planning failure lists every violation it
/// found (the groups in document order, then the topology preflight); any
/// other error is its own single problem.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    code: ErrorCode,
    name: &'static str,
    group: Option<String>,
    tensor: Option<String>,
    message: String,
}

impl Problem {
    /// The problem's code.
    pub const fn code(&self) -> ErrorCode {
        self.code
    }

    /// Its status number.
    pub const fn status(&self) -> i32 {
        self.code.status()
    }

    /// Its stable symbolic name, e.g. `"EREDU_E_INVALID_TENSOR"`.
    pub const fn name(&self) -> &'static str {
        self.name
    }

    /// The logical group it concerns; `None` for a topology problem (and
    /// for an error that is not about a group).
    pub fn group(&self) -> Option<&str> {
        self.group.as_deref()
    }

    /// The tensor (member target) it concerns; `None` when the problem is
    /// the group's as a whole.
    pub fn tensor(&self) -> Option<&str> {
        self.tensor.as_deref()
    }

    /// Its message, as a single problem's error gives it.
    pub fn message(&self) -> &str {
        &self.message
    }
}

/// An error of the eredu C API: the status code, its stable name and the
/// library's message (naming the group, tensor, axis and numbers involved),
/// and every [`Problem`] it lists ([`Error::problems`]).
///
/// `Display` prints `error[NAME] STATUS: MESSAGE`, the line the shared test
/// vectors expect (without the trailing newline).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    code: ErrorCode,
    name: &'static str,
    message: String,
    problems: Vec<Problem>,
}

impl Error {
    /// The code (match on it; [`ErrorCode::Unknown`] for a newer code).
    pub const fn code(&self) -> ErrorCode {
        self.code
    }

    /// The status number as the library returned it.
    pub const fn status(&self) -> i32 {
        self.code.status()
    }

    /// The stable symbolic name, e.g. `"EREDU_E_INVALID_GROUP"`.
    pub const fn name(&self) -> &'static str {
        self.name
    }

    /// The library's message.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// Every problem the error lists, never empty: for a planning failure
    /// ([`ModelDescription::plan_rank`](crate::ModelDescription::plan_rank),
    /// [`plan_world_json`](crate::plan_world_json),
    /// [`check_json`](crate::check_json)) each violation found, the groups
    /// in document order and then the topology preflight; for any other
    /// error one problem equal to the error. [`Error::code`] and
    /// [`Error::message`] stay the problem a planner stopping at the first
    /// one reported (the preflight's when it failed, else the first
    /// group's).
    pub fn problems(&self) -> &[Problem] {
        &self.problems
    }

    /// The single problem equal to an error without a problem list.
    fn sole_problem(code: ErrorCode, name: &'static str, message: &str) -> Vec<Problem> {
        vec![Problem {
            code,
            name,
            group: None,
            tensor: None,
            message: message.to_owned(),
        }]
    }

    /// An error raised by this crate before the library is called (a NUL
    /// byte inside a string, a count too large, an incompatible library).
    pub(crate) fn binding(code: ErrorCode, message: impl Into<String>) -> Self {
        let message = message.into();
        Self {
            code,
            name: code.name(),
            problems: Self::sole_problem(code, code.name(), &message),
            message,
        }
    }

    /// Takes over a failed call's status and error object (which may be
    /// NULL), copying its message and releasing it.
    ///
    /// # Safety
    /// `error` is NULL or an error object the library returned for this call,
    /// not yet freed; it is freed here.
    pub(crate) unsafe fn from_library(status: i32, error: *mut sys::eredu_error) -> Self {
        // SAFETY: the caller hands over a live error object (or NULL, which
        // every function below accepts); its message and problems are valid
        // until freed, and copied before.
        let (message, problems) = unsafe {
            let message = CStr::from_ptr(sys::eredu_error_message(error))
                .to_string_lossy()
                .into_owned();
            let problems = problems_of(error);
            sys::eredu_error_free(error);
            (message, problems)
        };
        let code = ErrorCode::from_status(status);
        let name = status_name(status);
        let problems = problems.unwrap_or_else(|| Self::sole_problem(code, name, &message));
        Self {
            code,
            name,
            message,
            problems,
        }
    }
}

/// The stable name of any status value.
fn status_name(status: i32) -> &'static str {
    // SAFETY: eredu_status_name accepts any value and returns a static
    // NUL-terminated ASCII string.
    unsafe { CStr::from_ptr(sys::eredu_status_name(status)) }
        .to_str()
        .unwrap_or("EREDU_E_UNKNOWN")
}

/// A copy of `length` bytes at `text` (UTF-8, lossily), `None` for NULL.
///
/// # Safety
/// `text` is NULL or points at `length` readable bytes.
unsafe fn borrowed_text(text: *const std::ffi::c_char, length: usize) -> Option<String> {
    if text.is_null() {
        return None;
    }
    // SAFETY: the caller promises `length` readable bytes at `text`.
    let bytes = unsafe { std::slice::from_raw_parts(text.cast::<u8>(), length) };
    Some(String::from_utf8_lossy(bytes).into_owned())
}

/// Copies every problem of a live error object; `None` when it lists none
/// (NULL) or one cannot be read.
///
/// # Safety
/// `error` is NULL or a live error object.
unsafe fn problems_of(error: *const sys::eredu_error) -> Option<Vec<Problem>> {
    // SAFETY: NULL or a live error object, as the caller promises.
    let count = unsafe { sys::eredu_error_count(error) };
    if count == 0 {
        return None;
    }
    let mut problems = Vec::with_capacity(count);
    for index in 0..count {
        let mut entry = sys::eredu_error_entry {
            struct_size: std::mem::size_of::<sys::eredu_error_entry>() as u32,
            code: 0,
            group: std::ptr::null(),
            group_length: 0,
            tensor: std::ptr::null(),
            tensor_length: 0,
            message: std::ptr::null(),
            message_length: 0,
        };
        // SAFETY: a live error object, an index below its count and an
        // entry of its own struct_size; no error slot is asked for.
        let status =
            unsafe { sys::eredu_error_get_entry(error, index, &mut entry, std::ptr::null_mut()) };
        if status != sys::EREDU_OK {
            return None;
        }
        // SAFETY: on success the strings are NULL or `*_length` bytes
        // borrowed from `error`, which is still alive.
        let (group, tensor, message) = unsafe {
            (
                borrowed_text(entry.group, entry.group_length),
                borrowed_text(entry.tensor, entry.tensor_length),
                borrowed_text(entry.message, entry.message_length),
            )
        };
        problems.push(Problem {
            code: ErrorCode::from_status(entry.code),
            name: status_name(entry.code),
            group,
            tensor,
            message: message.unwrap_or_default(),
        });
    }
    Some(problems)
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "error[{}] {}: {}",
            self.name,
            self.code.status(),
            self.message
        )
    }
}

impl std::error::Error for Error {}
