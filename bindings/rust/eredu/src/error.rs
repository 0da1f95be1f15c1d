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

/// An error of the eredu C API: the status code, its stable name and the
/// library's message (naming the group, tensor, axis and numbers involved).
///
/// `Display` prints `error[NAME] STATUS: MESSAGE`, the line the shared test
/// vectors expect (without the trailing newline).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    code: ErrorCode,
    name: &'static str,
    message: String,
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

    /// An error raised by this crate before the library is called (a NUL
    /// byte inside a string, a count too large, an incompatible library).
    pub(crate) fn binding(code: ErrorCode, message: impl Into<String>) -> Self {
        Self {
            code,
            name: code.name(),
            message: message.into(),
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
        // every function below accepts); its message is valid until freed.
        let message = unsafe {
            let message = CStr::from_ptr(sys::eredu_error_message(error))
                .to_string_lossy()
                .into_owned();
            sys::eredu_error_free(error);
            message
        };
        // SAFETY: eredu_status_name accepts any value and returns a static
        // NUL-terminated ASCII string.
        let name = unsafe { CStr::from_ptr(sys::eredu_status_name(status)) }
            .to_str()
            .unwrap_or("EREDU_E_UNKNOWN");
        Self {
            code: ErrorCode::from_status(status),
            name,
            message,
        }
    }
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
