// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

//! Ownership, lifetimes and threads: handles outlive what they were built
//! from, views borrow their layout, immutable handles are shared between
//! threads, builders and cursors only move.

use std::thread;

use eredu::{
    Checkpoint, DenseTransferSchedule, Dtype, LayerwiseModelMetadata, LocalModelLayout,
    LocalTensorLayout, MemberSharding, ModelDescription, NormalizedLoadRequest, OffloadPlan,
    ParallelModelInfo, ParallelTopology, ParameterGroupSpec, ParameterMemberSpec, ParameterRole,
    PlanOptions, ReadPlan, ShardingPolicy,
};

fn assert_send_sync<T: Send + Sync>() {}
fn assert_send<T: Send>() {}

#[test]
fn immutable_handles_are_send_and_sync_builders_send() {
    assert_send_sync::<ParameterGroupSpec>();
    assert_send_sync::<ModelDescription>();
    assert_send_sync::<LocalModelLayout>();
    assert_send_sync::<OffloadPlan>();
    assert_send_sync::<LayerwiseModelMetadata>();
    assert_send_sync::<ParallelModelInfo>();
    assert_send_sync::<LocalTensorLayout<'static>>();
    assert_send_sync::<Checkpoint>();
    assert_send_sync::<ReadPlan>();
    assert_send::<NormalizedLoadRequest>();
    // Options carry a `Send` progress closure to the library's threads.
    assert_send::<PlanOptions<'static>>();
    assert_send::<DenseTransferSchedule<String>>();
    // That the builders are not Sync is checked by compile_fail doctests in
    // src/lib.rs.
}

fn mlp(units: u64) -> ParameterGroupSpec {
    ParameterGroupSpec::partitioned(
        "mlp",
        ParameterRole::FeedForwardIntermediate,
        units,
        [
            ParameterMemberSpec::new("up", [64, 16], MemberSharding::Partitioned { axis: 0 })
                .with_dtype(Dtype::BF16),
            ParameterMemberSpec::new("down", [16, 64], MemberSharding::Partitioned { axis: 1 })
                .with_dtype(Dtype::BF16),
        ],
    )
    .unwrap()
}

#[test]
fn a_model_keeps_its_own_copy_of_the_groups() {
    let group = mlp(8);
    let model = ModelDescription::from_groups(std::slice::from_ref(&group)).unwrap();
    drop(group);
    let layout = model
        .plan_rank(
            ParallelTopology::tensor_parallel(4),
            1,
            ShardingPolicy::Require,
        )
        .unwrap();
    assert_eq!(layout.tensor("up").unwrap().logical_range(), Some(2..4));
}

#[test]
fn a_layout_keeps_its_description_alive() {
    let model = ModelDescription::from_groups(&[mlp(8)]).unwrap();
    let layout = model
        .plan_rank(
            ParallelTopology::tensor_parallel(2),
            0,
            ShardingPolicy::Require,
        )
        .unwrap();
    let json = layout.to_json().unwrap();
    drop(model);
    assert_eq!(layout.to_json().unwrap(), json);
    assert_eq!(layout.tensor("down").unwrap().logical_name(), "mlp");
}

#[test]
fn handles_move_to_and_are_shared_between_threads() {
    let model = ModelDescription::from_groups(&[mlp(8)]).unwrap();
    let topology = ParallelTopology::tensor_parallel(8);
    let sequential: Vec<String> = (0..8)
        .map(|rank| {
            model
                .plan_rank(topology, rank, ShardingPolicy::Require)
                .unwrap()
                .to_json()
                .unwrap()
        })
        .collect();
    // Many threads plan from one shared model at once.
    let concurrent: Vec<String> = thread::scope(|scope| {
        let model = &model;
        let handles: Vec<_> = (0..8)
            .map(|rank| {
                scope.spawn(move || {
                    model
                        .plan_rank(topology, rank, ShardingPolicy::Require)
                        .unwrap()
                        .to_json()
                        .unwrap()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|handle| handle.join().unwrap())
            .collect()
    });
    assert_eq!(concurrent, sequential);

    // A layout moves to another thread, and is read from two at once.
    let layout = model
        .plan_rank(topology, 5, ShardingPolicy::Require)
        .unwrap();
    let layout = thread::spawn(move || {
        assert_eq!(layout.rank(), 5);
        layout
    })
    .join()
    .unwrap();
    thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| assert_eq!(layout.tensor("up").unwrap().local_shape(), [8, 16]));
        }
    });

    // A cursor moves with its values.
    let mut schedule = DenseTransferSchedule::new([1, 2], 1).unwrap();
    schedule.admit(1, String::from("first")).unwrap();
    let mut schedule = thread::spawn(move || schedule).join().unwrap();
    assert_eq!(schedule.pop_ready(), Some((1, String::from("first"))));
}

#[test]
fn views_borrow_their_layout() {
    let model = ModelDescription::from_groups(&[mlp(4)]).unwrap();
    let layout = model
        .plan_rank(
            ParallelTopology::tensor_parallel(2),
            1,
            ShardingPolicy::Require,
        )
        .unwrap();
    // Views are plain borrows: many at once, all valid while `layout` is.
    let views: Vec<_> = layout.tensors().collect();
    let shapes: Vec<&[u64]> = views.iter().map(|(_, view)| view.local_shape()).collect();
    assert_eq!(shapes, [&[16, 32][..], &[32, 16][..]]);
    let names: Vec<&str> = views.iter().map(|(target, _)| *target).collect();
    assert_eq!(names, ["down", "up"]);
}

#[test]
fn many_handles_are_created_and_dropped() {
    // Every handle is freed exactly once by Drop; run under valgrind or ASan
    // to see it. Here: no double free and no use after free in a loop.
    let model = ModelDescription::from_groups(&[mlp(8)]).unwrap();
    for rank in 0..1000 {
        let layout = model
            .plan_rank(
                ParallelTopology::tensor_parallel(8),
                rank % 8,
                ShardingPolicy::Require,
            )
            .unwrap();
        assert_eq!(layout.len(), 2);
    }
    for _ in 0..1000 {
        drop(mlp(2));
        drop(NormalizedLoadRequest::new().unwrap());
    }
}
