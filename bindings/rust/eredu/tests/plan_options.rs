// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

//! Plan options (`eredu_plan_options`): the policy, the thread count and the
//! progress callback that may cancel a world or check call; a panic in the
//! callback never reaches the library and is resumed on the caller's thread.

use std::ops::ControlFlow;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, Ordering};
use std::thread;

use eredu::{
    check_json, plan_rank, plan_world_json, sys, CheckOptions, Dtype, ErrorCode, MemberSharding,
    ModelDescription, ParallelTopology, ParameterGroupSpec, ParameterMemberSpec, ParameterRole,
    PlanOptions, ShardingPolicy,
};

/// One partitioned MLP of 8 units: every rank of TP 1, 2, 4 or 8 plans.
fn model() -> ModelDescription {
    let group = ParameterGroupSpec::partitioned(
        "mlp",
        ParameterRole::FeedForwardIntermediate,
        8,
        [
            ParameterMemberSpec::new("up", [64, 16], MemberSharding::Partitioned { axis: 0 })
                .with_dtype(Dtype::BF16),
            ParameterMemberSpec::new("down", [16, 64], MemberSharding::Partitioned { axis: 1 })
                .with_dtype(Dtype::BF16),
        ],
    )
    .unwrap();
    ModelDescription::from_groups(&[group]).unwrap()
}

/// TP 2 x DP 4: a world of 8 ranks.
const WORLD: ParallelTopology = ParallelTopology::new(2, 1, 1, 4);

#[test]
fn defaults_are_those_of_the_c_init_function() {
    let options = PlanOptions::new();
    assert_eq!(options.policy(), ShardingPolicy::Require);
    assert_eq!(options.threads(), 0);
    assert!(!options.has_progress());
    assert_eq!(
        format!("{options:?}"),
        "PlanOptions { policy: Require, threads: 0, progress: false, pipeline_layers: [] }"
    );
    let options: PlanOptions = ShardingPolicy::ReplicateUnsupported.into();
    assert_eq!(options.policy(), ShardingPolicy::ReplicateUnsupported);
    let options = PlanOptions::new()
        .with_threads(3)
        .with_progress(|_, _| ControlFlow::Continue(()));
    assert_eq!(options.threads(), 3);
    assert!(options.has_progress());

    // SAFETY: each _init fills the struct of the size given; all-zero is a
    // valid starting value of these plain C structs.
    let (plan, topology) = unsafe {
        let mut plan = std::mem::zeroed::<sys::eredu_plan_options>();
        let mut topology = std::mem::zeroed::<sys::eredu_topology>();
        let null = std::ptr::null_mut();
        let size = std::mem::size_of::<sys::eredu_plan_options>();
        assert_eq!(sys::eredu_plan_options_init(&mut plan, size, null), 0);
        let size = std::mem::size_of::<sys::eredu_topology>();
        assert_eq!(sys::eredu_topology_init(&mut topology, size, null), 0);
        (plan, topology)
    };
    assert_eq!(plan.policy, ShardingPolicy::default().to_raw());
    assert_eq!(plan.threads, PlanOptions::new().threads());
    assert!(plan.progress.is_none());
    assert!(plan.progress_data.is_null());
    assert!(plan.pipeline_layers.is_null());
    assert_eq!(plan.pipeline_layer_count, 0);
    assert!(PlanOptions::new().pipeline_layers().is_empty());
    let default = ParallelTopology::default();
    assert_eq!(
        [
            topology.tensor,
            topology.pipeline,
            topology.expert,
            topology.data
        ],
        [
            default.tensor,
            default.pipeline,
            default.expert,
            default.data
        ]
    );
}

#[test]
fn progress_reports_every_rank_of_the_world() {
    let model = model();
    let plain = plan_world_json(&model, WORLD, ShardingPolicy::Require).unwrap();
    let mut reports = Vec::new();
    let text = plan_world_json(
        &model,
        WORLD,
        PlanOptions::new()
            .with_threads(1)
            .with_progress(|done, total| {
                reports.push((done, total));
                ControlFlow::Continue(())
            }),
    )
    .unwrap();
    assert_eq!(text, plain);
    assert_eq!(reports, (1..=8).map(|done| (done, 8)).collect::<Vec<_>>());

    // On the library's threads the calls are serialized and all arrive.
    let calls = AtomicU64::new(0);
    let last = AtomicU64::new(0);
    let text = plan_world_json(
        &model,
        WORLD,
        PlanOptions::new().with_progress(|done, total| {
            assert_eq!(total, 8);
            calls.fetch_add(1, Ordering::Relaxed);
            last.fetch_max(done, Ordering::Relaxed);
            ControlFlow::Continue(())
        }),
    )
    .unwrap();
    assert_eq!(text, plain);
    assert_eq!(calls.into_inner(), 8);
    assert_eq!(last.into_inner(), 8);
}

#[test]
fn a_callback_returning_break_cancels_the_call_and_returns_nothing() {
    let model = model();
    for threads in [1, 0] {
        let mut calls = 0;
        let result = plan_world_json(
            &model,
            WORLD,
            PlanOptions::new()
                .with_threads(threads)
                .with_progress(|_, _| {
                    calls += 1;
                    if calls == 3 {
                        ControlFlow::Break(())
                    } else {
                        ControlFlow::Continue(())
                    }
                }),
        );
        let error = result.unwrap_err();
        assert_eq!(error.code(), ErrorCode::Cancelled);
        assert_eq!(error.status(), 12);
        assert_eq!(error.name(), "EREDU_E_CANCELLED");
        assert!(!error.message().is_empty());
        // Not called again once it asked to stop.
        assert_eq!(calls, 3, "threads {threads}");
    }

    // The admission check plans through the same options.
    let mut calls = 0;
    let error = check_json(
        &model,
        WORLD,
        PlanOptions::new().with_threads(1).with_progress(|done, _| {
            calls += 1;
            if done == 2 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        }),
        &CheckOptions::default(),
    )
    .unwrap_err();
    assert_eq!(error.code(), ErrorCode::Cancelled);
    assert_eq!(calls, 2);

    // The model is untouched: the same call without a callback succeeds.
    assert!(check_json(
        &model,
        WORLD,
        ShardingPolicy::Require,
        &CheckOptions::default()
    )
    .is_ok());
}

#[test]
fn a_panic_in_the_callback_cancels_and_is_resumed_on_the_calling_thread() {
    let model = model();
    for threads in [1, 0] {
        let mut calls = 0;
        let outcome = panic::catch_unwind(AssertUnwindSafe(|| {
            plan_world_json(
                &model,
                WORLD,
                PlanOptions::new()
                    .with_threads(threads)
                    .with_progress(|done, _| {
                        calls += 1;
                        if done == 2 {
                            panic!("progress callback failed at rank {done}");
                        }
                        ControlFlow::Continue(())
                    }),
            )
        }));
        let payload = outcome.expect_err("the callback's panic reaches the caller");
        assert_eq!(
            payload.downcast_ref::<String>().map(String::as_str),
            Some("progress callback failed at rank 2")
        );
        assert_eq!(calls, 2, "threads {threads}");
    }
    // The library is fine afterwards.
    assert!(plan_world_json(&model, WORLD, ShardingPolicy::Require).is_ok());
}

#[test]
fn one_thread_plans_on_the_calling_thread_with_the_same_result() {
    let model = model();
    let caller = thread::current().id();
    let mut threads_seen = Vec::new();
    let one = plan_world_json(
        &model,
        WORLD,
        PlanOptions::new().with_threads(1).with_progress(|_, _| {
            threads_seen.push(thread::current().id());
            ControlFlow::Continue(())
        }),
    )
    .unwrap();
    assert_eq!(threads_seen.len(), 8);
    assert!(threads_seen.iter().all(|id| *id == caller));
    for threads in [0, 2, 3] {
        let text =
            plan_world_json(&model, WORLD, PlanOptions::new().with_threads(threads)).unwrap();
        assert_eq!(text, one, "threads {threads}");
    }

    let check = |threads| {
        check_json(
            &model,
            WORLD,
            PlanOptions::new().with_threads(threads),
            &CheckOptions {
                device_budget_bytes: Some(1024),
                ..CheckOptions::default()
            },
        )
        .unwrap()
    };
    assert_eq!(check(1), check(0));

    // plan_rank: a model of 16384 tensors or more is planned on two threads
    // by default; one thread gives the same layout. The progress callback
    // is not called by plan_rank.
    let mut json = String::from(r#"{"schema":"eredu.groups.v1","groups":["#);
    for index in 0..16_500 {
        if index > 0 {
            json.push(',');
        }
        json.push_str(&format!(
            r#"{{"name":"g{index}","role":"column_projection","members":[{{"target":"t{index}","shape":[4,2],"dtype":"F32","sharding":{{"kind":"equal","axis":0}}}}]}}"#
        ));
    }
    json.push_str("]}");
    let large = ModelDescription::from_json(&json).unwrap();
    assert_eq!(large.tensor_count(), 16_500);
    let topology = ParallelTopology::tensor_parallel(2);
    let default = plan_rank(&large, topology, 1, ShardingPolicy::Require).unwrap();
    let mut called = false;
    let single = plan_rank(
        &large,
        topology,
        1,
        PlanOptions::new().with_threads(1).with_progress(|_, _| {
            called = true;
            ControlFlow::Break(())
        }),
    )
    .unwrap();
    assert!(!called);
    assert_eq!(single.to_json().unwrap(), default.to_json().unwrap());
    assert_eq!(single.totals(), default.totals());
    assert_eq!(single.get(7).unwrap().local_shape(), [2, 2]);
}

#[test]
fn the_policy_travels_in_the_options() {
    let model = model();
    let error = plan_rank(
        &model,
        ParallelTopology::tensor_parallel(16),
        0,
        PlanOptions::new().with_policy(ShardingPolicy::Require),
    )
    .unwrap_err();
    assert_eq!(error.code(), ErrorCode::InvalidTensor);
    let layout = plan_rank(
        &model,
        ParallelTopology::tensor_parallel(16),
        0,
        PlanOptions::new()
            .with_policy(ShardingPolicy::ReplicateUnsupported)
            .with_threads(1),
    )
    .unwrap();
    assert_eq!(layout.policy(), ShardingPolicy::ReplicateUnsupported);
    assert!(layout.tensor("up").unwrap().fell_back_to_replication());

    let error = plan_world_json(
        &model,
        WORLD,
        PlanOptions::new().with_policy(ShardingPolicy::Unknown(7)),
    )
    .unwrap_err();
    assert_eq!(error.code(), ErrorCode::InvalidArgument);
}
