// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

//! Stacked experts through the safe API (docs/planning.md, "Stacked
//! experts"): one layer's 4 experts stacked on axis 0 of `up` [4, 8, 2]
//! (partitioned on axis 1 by 8 units) and `bias` [4, 2] (replicated), planned
//! at T = 2, E = 2. The misuse the library rejects.

use eredu::{
    Dtype, ErrorCode, ExpertRange, MemberSharding, ModelDescription, ModelInfo, ParallelTopology,
    ParameterGroupSpec, ParameterMemberSpec, ParameterRole, ShardingPolicy, TensorPlacement,
};

fn members(up_axis: u64) -> [ParameterMemberSpec; 2] {
    [
        ParameterMemberSpec::new(
            "experts.up",
            [4, 8, 2],
            MemberSharding::Partitioned { axis: 1 },
        )
        .with_dtype(Dtype::F32)
        .with_expert_axis(up_axis),
        ParameterMemberSpec::new("experts.bias", [4, 2], MemberSharding::Replicated)
            .with_dtype(Dtype::F32)
            .with_expert_axis(0),
    ]
}

fn model(experts: u64) -> ModelDescription {
    let group = ParameterGroupSpec::partitioned(
        "experts",
        ParameterRole::ExpertIntermediate,
        8,
        members(0),
    )
    .unwrap();
    let info = ModelInfo {
        name: Some("stacked".to_owned()),
        layers: None,
        experts: Some(experts),
    };
    ModelDescription::from_groups_with_info(&info, &[group]).unwrap()
}

#[test]
fn the_expert_axis_reads_back() {
    let group = ParameterGroupSpec::partitioned(
        "experts",
        ParameterRole::ExpertIntermediate,
        8,
        members(0),
    )
    .unwrap();
    let read = group.members().unwrap();
    assert_eq!(read, members(0));
    assert_eq!(read[0].expert_axis(), Some(0));
    assert_eq!(
        ParameterMemberSpec::new("plain", [2], MemberSharding::Replicated).expert_axis(),
        None
    );
}

#[test]
fn expert_rank_e_holds_experts_2e_to_2e_plus_2_on_top_of_the_tensor_split() {
    let model = model(4);
    // rank = tensor * 2 + expert (docs/planning.md, "Rank and coordinates").
    for rank in 0..4u64 {
        let (tensor, expert) = (rank / 2, rank % 2);
        let layout = model
            .plan_rank(
                ParallelTopology::new(2, 1, 2, 1),
                rank,
                ShardingPolicy::Require,
            )
            .unwrap();
        let up = layout.tensor("experts.up").unwrap();
        assert_eq!(
            up.placement(),
            TensorPlacement::Range {
                axis: 1,
                start: 4 * tensor,
                end: 4 * tensor + 4
            },
            "rank {rank}"
        );
        assert_eq!(
            up.expert_range(),
            Some(ExpertRange {
                axis: 0,
                start: 2 * expert,
                end: 2 * expert + 2
            })
        );
        assert_eq!(up.local_shape(), [2, 4, 2]);
        assert_eq!(up.local_bytes(), Some(64));
        let bias = layout.tensor("experts.bias").unwrap();
        assert_eq!(
            bias.placement(),
            TensorPlacement::Range {
                axis: 0,
                start: 2 * expert,
                end: 2 * expert + 2
            }
        );
        assert_eq!(bias.local_bytes(), Some(16));
        assert!(layout.to_json().unwrap().contains(&format!(
            "\"expert_range\":{{\"axis\":0,\"start\":{},\"end\":{}}}",
            2 * expert,
            2 * expert + 2
        )));
    }
}

#[test]
fn the_expert_axis_cannot_be_the_tensor_parallel_axis() {
    let error = ParameterGroupSpec::partitioned(
        "experts",
        ParameterRole::ExpertIntermediate,
        8,
        members(1),
    )
    .unwrap_err();
    assert_eq!(error.code(), ErrorCode::InvalidGroup);
    assert_eq!(
        error.message(),
        "parallel parameter group \"experts\": member \"experts.up\" stacks experts on axis 1, \
         its tensor-parallel axis"
    );
}

#[test]
fn an_extent_other_than_the_model_experts_fails_at_planning() {
    let error = model(8)
        .plan_rank(
            ParallelTopology::new(1, 1, 2, 1),
            0,
            ShardingPolicy::Require,
        )
        .unwrap_err();
    assert_eq!(error.code(), ErrorCode::InvalidTensor);
    assert_eq!(
        error.message(),
        "logical parameter \"experts\": tensor \"experts.up\" expert axis 0 extent 4 does not \
         match the model's 8 routed experts"
    );
}
