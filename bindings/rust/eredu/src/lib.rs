// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

//! Safe Rust API of liberedu, the parameter-placement planner of an LLM
//! runtime: for one rank of a tensor × pipeline × expert × data parallel
//! topology it says which slice of every checkpoint tensor the rank
//! materializes, before a single weight byte is read.
//!
//! The names mirror the seeds (`ParameterGroupSpec`,
//! `ParameterMemberSpec`, `MemberSharding`, `ParameterRole`, `plan_rank`,
//! `LocalModelLayout`, `TensorPlacement`, `ShardingPolicy`, …; docs/seeds.md),
//! so code written against them can switch to this crate. Dimensions, ranks
//! and bytes are `u64` as in the C ABI.
//!
//! ```
//! use eredu::{
//!     plan_rank, MemberSharding, ModelDescription, ParallelTopology, ParameterGroupSpec,
//!     ParameterMemberSpec, ParameterRole, ShardingPolicy, TensorPlacement,
//! };
//!
//! # fn main() -> eredu::Result<()> {
//! let attention = ParameterGroupSpec::partitioned(
//!     "model.layers.0.self_attn",
//!     ParameterRole::AttentionHeads,
//!     8,
//!     [
//!         ParameterMemberSpec::new("q.weight", [4096, 4096], MemberSharding::Partitioned { axis: 0 }),
//!         ParameterMemberSpec::new("o.weight", [4096, 4096], MemberSharding::Partitioned { axis: 1 }),
//!     ],
//! )?;
//! let model = ModelDescription::from_groups(&[attention])?;
//! let layout = plan_rank(&model, ParallelTopology::tensor_parallel(2), 1, ShardingPolicy::Require)?;
//! let q = layout.tensor("q.weight").unwrap();
//! assert_eq!(q.local_shape(), [2048, 4096]);
//! assert_eq!(q.placement(), TensorPlacement::Range { axis: 0, start: 2048, end: 4096 });
//! # Ok(())
//! # }
//! ```
//!
//! Planning takes a [`ParallelTopology`] value and [`PlanOptions`]: the
//! [`ShardingPolicy`] (a policy alone converts into options), the threads
//! the library may use (1: the calling thread only), for
//! [`plan_world_json`], [`check_json`] and [`fit_json`] a progress closure
//! that may cancel the call ([`ErrorCode::Cancelled`]), and optionally the
//! decoder layers of each pipeline stage
//! ([`PlanOptions::with_pipeline_layers`]; not for [`fit_json`], which
//! searches every pipeline size).
//!
//! From a model's own files, [`ModelDescription::describe`] describes a
//! model folder or a `.gguf` file as `eredu describe` does,
//! [`Checkpoint::open`] reads a checkpoint's tensor headers and
//! [`ReadPlan::new`] gives a planned rank's byte extents of its files
//! (`eredu.readplan.v1`).
//!
//! Reading is cheap: a layout's rank, coordinates, policy and totals, a
//! group's name, role and units and an offload plan's figures are read once
//! when the handle is built; a tensor view ([`LocalTensorLayout`]) is filled
//! by one library call and its accessors read fields; counts are plain
//! values.
//!
//! Errors are [`Error`] values carrying the status code ([`ErrorCode`], with
//! an `Unknown` arm for codes of a newer library), its stable name and the
//! library's message. Before its first library call every constructor checks
//! once that the loaded library has the major version this crate was written
//! for ([`ensure_compatible`]).
//!
//! Ownership and threads follow the header: handles are freed exactly once
//! on drop; views ([`LocalTensorLayout`], [`TensorPlacement`]) borrow their
//! layout; immutable handles (groups, models, layouts, offload plans) and
//! [`LayerwiseModelMetadata`] (changed through `&mut self` only) are
//! `Send + Sync`; single-threaded builders and cursors
//! ([`NormalizedLoadRequest`], [`DenseTransferSchedule`]) are `Send` only:
//!
//! ```compile_fail
//! fn shared<T: Sync>() {}
//! shared::<eredu::NormalizedLoadRequest>();
//! ```
//!
//! ```compile_fail
//! fn shared<T: Sync>() {}
//! shared::<eredu::DenseTransferSchedule<u64>>();
//! ```
//!
//! A progress closure may be called from the library's worker threads, so
//! it must be `Send`:
//!
//! ```compile_fail,E0277
//! use std::{cell::Cell, ops::ControlFlow, rc::Rc};
//! let calls = Rc::new(Cell::new(0));
//! let options = eredu::PlanOptions::new().with_progress(move |_, _| {
//!     calls.set(calls.get() + 1);
//!     ControlFlow::Continue(())
//! });
//! ```
//!
//! A view cannot outlive its layout:
//!
//! ```compile_fail
//! # fn plan(model: &eredu::ModelDescription) {
//! use eredu::{ParallelTopology, ShardingPolicy};
//! let target: &str = {
//!     let layout = model.plan_rank(ParallelTopology::default(), 0, ShardingPolicy::Require).unwrap();
//!     layout.get(0).unwrap().target()
//! };
//! # }
//! ```
#![deny(unsafe_op_in_unsafe_fn)]
#![warn(missing_docs)]

mod checkpoint;
mod enums;
mod error;
mod ffi;
mod format;
mod group;
mod launch;
mod layerwise_metadata;
mod layout;
mod model;
mod offload;
mod parallel_model;
mod plan;
mod progress;
mod request;
mod residency;
mod topology;
mod transfer_schedule;
mod version;
mod world;

pub use eredu_sys as sys;

pub use checkpoint::{
    model_types, Checkpoint, DescribeOptions, ReadExtent, ReadOptions, ReadPlan, ReadStats,
    ReadTensor,
};
pub use error::{Error, ErrorCode, Problem, Result};
pub use format::{
    expand_linear_format_group, expand_linear_format_member, expand_linear_format_parameter_groups,
    BlockFp8ScaleEncoding, GgmlTypeInfo, LinearFormat, LinearFormatSpec,
};
pub use group::{
    Dtype, GroupScope, MemberSharding, ParameterGroupSpec, ParameterMemberSpec, ParameterRole,
};
pub use launch::{LaunchEnv, Launcher};
pub use layerwise_metadata::{LayerwiseModelMetadata, LayerwiseModelMetadataInfo};
pub use layout::{
    ExpertRange, IndexRuns, LayoutTotals, LocalModelLayout, LocalTensorLayout, TensorPlacement,
};
pub use model::{ModelDescription, ModelInfo};
pub use offload::{
    CacheEvictionPolicy, MemoryTier, OffloadConfig, OffloadPlan, OffloadUnitSpec, ResidencyPolicy,
};
pub use parallel_model::ParallelModelInfo;
pub use plan::{plan_rank, PlanOptions, ShardingPolicy};
pub use request::{
    CacheResidencyPolicy, CommunicationCompletionPolicy, CompletionCancellationMode,
    DraftingLoadRequest, DraftingPlan, NormalizedLoadRequest, ParallelLoadRequest,
    PipelineActivationDtype, PreparationPolicy, QuantizationRequest,
};
pub use residency::{
    DenseDiskStreamLoadOptions, ExecutionResidency, LayerWeightResidency, LayerwiseLoadOptions,
    ParameterBankLoadOptions, ResidencyRequest, WeightResidency, WeightResidencySummary,
};
pub use topology::{ParallelCoordinates, ParallelTopology};
pub use transfer_schedule::DenseTransferSchedule;
pub use version::{ensure_compatible, library_version, ABI_MAJOR};
pub use world::{check_json, fit_json, plan_world_json, CheckOptions, FitOptions};

/// The examples of bindings/rust/README.md, run as doctests.
#[doc = include_str!("../../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
