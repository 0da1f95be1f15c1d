// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

//! The safe planning API with exact values: a grouped-query attention layer
//! (32 query heads, 8 KV heads of 128 channels, hidden size 4096, BF16) in 8
//! KV-group units, planned at TP 1, 2, 4 and 16, plus segmented and scoped
//! groups, JSON loading and the layout's whole surface.

use eredu::{
    plan_rank, Dtype, ErrorCode, GroupScope, LayoutTotals, MemberSharding, ModelDescription,
    ModelInfo, ParallelCoordinates, ParallelTopology, ParameterGroupSpec, ParameterMemberSpec,
    ParameterRole, ShardingPolicy, TensorPlacement,
};

const Q: &str = "model.layers.0.self_attn.q_proj.weight";
const K: &str = "model.layers.0.self_attn.k_proj.weight";
const V: &str = "model.layers.0.self_attn.v_proj.weight";
const O: &str = "model.layers.0.self_attn.o_proj.weight";
const NORM: &str = "model.layers.0.input_layernorm.weight";

/// 8 KV groups of 4 query heads and 1 KV head (128 channels each).
fn gqa_attention() -> ParameterGroupSpec {
    let member = |target: &str, shape: [u64; 2], axis: u64| {
        ParameterMemberSpec::new(target, shape, MemberSharding::Partitioned { axis })
            .with_dtype(Dtype::BF16)
    };
    ParameterGroupSpec::partitioned(
        "model.layers.0.self_attn",
        ParameterRole::AttentionHeads,
        8,
        [
            member(Q, [4096, 4096], 0),
            member(K, [1024, 4096], 0),
            member(V, [1024, 4096], 0),
            member(O, [4096, 4096], 1),
        ],
    )
    .unwrap()
}

fn norm() -> ParameterGroupSpec {
    ParameterGroupSpec::new(
        "model.layers.0.input_layernorm",
        ParameterRole::Replicated,
        [
            ParameterMemberSpec::new(NORM, [4096], MemberSharding::Replicated)
                .with_dtype(Dtype::F32),
        ],
    )
    .unwrap()
}

fn model() -> ModelDescription {
    ModelDescription::from_groups(&[gqa_attention(), norm()]).unwrap()
}

const BF16_SQUARE: u64 = 4096 * 4096 * 2; // 33554432
const BF16_KV: u64 = 1024 * 4096 * 2; // 8388608
const GLOBAL: u64 = 2 * BF16_SQUARE + 2 * BF16_KV + 4096 * 4; // 83902464

#[test]
fn groups_report_what_they_were_built_from() {
    let group = gqa_attention();
    assert_eq!(group.logical_name(), "model.layers.0.self_attn");
    assert_eq!(group.role(), ParameterRole::AttentionHeads);
    assert_eq!(group.partition_units(), Some(8));
    assert_eq!(group.member_count(), 4);
    let members = group.members().unwrap();
    assert_eq!(
        members
            .iter()
            .map(ParameterMemberSpec::target)
            .collect::<Vec<_>>(),
        [Q, K, V, O]
    );
    assert_eq!(members[1].global_shape(), [1024, 4096]);
    assert_eq!(
        members[3].sharding(),
        &MemberSharding::Partitioned { axis: 1 }
    );
    assert_eq!(members[0].dtype(), Some(Dtype::BF16));
    assert_eq!(norm().partition_units(), None);

    let model = model();
    assert_eq!(model.group_count(), 2);
    assert_eq!(model.tensor_count(), 5);
    assert_eq!(model.global_bytes(), GLOBAL);
}

#[test]
fn gqa_attention_at_tp2_rank1_owns_kv_groups_4_to_8() {
    let layout = plan_rank(
        &model(),
        ParallelTopology::tensor_parallel(2),
        1,
        ShardingPolicy::Require,
    )
    .unwrap();
    assert_eq!(layout.topology(), ParallelTopology::new(2, 1, 1, 1));
    assert_eq!(layout.rank(), 1);
    assert_eq!(
        layout.coordinates(),
        ParallelCoordinates {
            tensor: 1,
            pipeline: 0,
            expert: 0,
            data: 0
        }
    );
    assert_eq!(layout.policy(), ShardingPolicy::Require);
    assert_eq!(layout.len(), 5);

    // Target order is byte-wise: input_layernorm < self_attn.{k,o,q,v}.
    let targets: Vec<&str> = layout.tensors().map(|(target, _)| target).collect();
    assert_eq!(targets, [NORM, K, O, Q, V]);

    let q = layout.tensor(Q).unwrap();
    assert_eq!(q.target(), Q);
    assert_eq!(q.logical_name(), "model.layers.0.self_attn");
    assert_eq!(q.role(), ParameterRole::AttentionHeads);
    assert_eq!(q.dtype(), Some(Dtype::BF16));
    assert_eq!(q.global_shape(), [4096, 4096]);
    assert_eq!(q.local_shape(), [2048, 4096]);
    assert_eq!(
        q.placement(),
        TensorPlacement::Range {
            axis: 0,
            start: 2048,
            end: 4096
        }
    );
    assert_eq!(q.logical_units(), Some(8));
    assert_eq!(q.logical_range(), Some(4..8));
    assert!(!q.fell_back_to_replication());
    assert_eq!(q.local_bytes(), Some(16_777_216));

    let k = layout.tensor(K).unwrap();
    assert_eq!(k.local_shape(), [512, 4096]);
    assert_eq!(
        k.placement(),
        TensorPlacement::Range {
            axis: 0,
            start: 512,
            end: 1024
        }
    );
    assert_eq!(k.local_bytes(), Some(4_194_304));
    assert_eq!(layout.tensor(V).unwrap().local_shape(), [512, 4096]);

    let o = layout.tensor(O).unwrap();
    assert_eq!(o.local_shape(), [4096, 2048]);
    assert_eq!(
        o.placement(),
        TensorPlacement::Range {
            axis: 1,
            start: 2048,
            end: 4096
        }
    );
    assert_eq!(o.logical_range(), Some(4..8));

    let norm = layout.tensor(NORM).unwrap();
    assert_eq!(norm.placement(), TensorPlacement::Replicated);
    assert_eq!(norm.local_shape(), [4096]);
    assert_eq!(norm.logical_units(), None);
    assert_eq!(norm.logical_range(), None);
    assert_eq!(norm.local_bytes(), Some(16_384));
    assert_eq!(norm.role(), ParameterRole::Replicated);

    assert_eq!(
        layout.totals(),
        LayoutTotals {
            local_bytes: 2 * 16_777_216 + 2 * 4_194_304 + 16_384,
            global_bytes: GLOBAL,
            materialized_tensors: 5,
            omitted_tensors: 0,
            unknown_bytes_tensors: 0,
        }
    );
    assert!(layout.tensor("missing").is_none());
    assert!(layout.tensor("nul\0byte").is_none());
    assert!(!layout.contains("missing"));
    assert!(layout.contains(K));
    assert_eq!(layout.get(2).unwrap().target(), O);
    assert_eq!(layout.get(2).unwrap().index(), 2);
    assert!(layout.get(5).is_none());
}

#[test]
fn gqa_attention_at_tp4_splits_every_member_by_two_kv_groups() {
    let model = model();
    let expected = [(0, 0..2), (1, 2..4), (2, 4..6), (3, 6..8)];
    for (rank, units) in expected {
        let layout = model
            .plan_rank(
                ParallelTopology::tensor_parallel(4),
                rank,
                ShardingPolicy::Require,
            )
            .unwrap();
        let (q, k, o) = (
            layout.tensor(Q).unwrap(),
            layout.tensor(K).unwrap(),
            layout.tensor(O).unwrap(),
        );
        assert_eq!(q.logical_range(), Some(units.clone()));
        assert_eq!(
            q.placement(),
            TensorPlacement::Range {
                axis: 0,
                start: units.start * 512,
                end: units.end * 512
            }
        );
        assert_eq!(q.local_shape(), [1024, 4096]);
        assert_eq!(
            k.placement(),
            TensorPlacement::Range {
                axis: 0,
                start: units.start * 128,
                end: units.end * 128
            }
        );
        assert_eq!(k.local_shape(), [256, 4096]);
        assert_eq!(k.local_bytes(), Some(2_097_152));
        assert_eq!(
            o.placement(),
            TensorPlacement::Range {
                axis: 1,
                start: units.start * 512,
                end: units.end * 512
            }
        );
        assert_eq!(o.local_shape(), [4096, 1024]);
        assert_eq!(
            layout.totals().local_bytes,
            2 * 8_388_608 + 2 * 2_097_152 + 16_384
        );
    }
}

#[test]
fn require_even_refuses_an_uneven_split() {
    let model = model();
    let error = model
        .plan_rank(
            ParallelTopology::tensor_parallel(3),
            0,
            ShardingPolicy::RequireEven,
        )
        .unwrap_err();
    assert_eq!(error.code(), ErrorCode::InvalidTensor);
    assert_eq!(
        error.message(),
        "logical parameter \"model.layers.0.self_attn\": the group's 8 partition units do not \
         split evenly 3 ways under require_even; sizes up to 64 that divide it: 1, 2, 4, 8"
    );
    let layout = model
        .plan_rank(
            ParallelTopology::tensor_parallel(4),
            1,
            ShardingPolicy::RequireEven,
        )
        .unwrap();
    assert_eq!(layout.policy(), ShardingPolicy::RequireEven);
}

#[test]
fn more_ranks_than_kv_groups_is_an_invalid_tensor_or_a_fallback() {
    let model = model();
    let error = model
        .plan_rank(
            ParallelTopology::tensor_parallel(16),
            3,
            ShardingPolicy::Require,
        )
        .unwrap_err();
    assert_eq!(error.code(), ErrorCode::InvalidTensor);
    assert_eq!(error.status(), 101);
    assert_eq!(error.name(), "EREDU_E_INVALID_TENSOR");
    assert_eq!(
        error.message(),
        "logical parameter \"model.layers.0.self_attn\": 8 partition units — declared by the \
         group — cannot be split 16 ways; tensor sizes up to 64 that work for this group: 1, 2, 3, \
         4, 5, 6, 7, 8"
    );

    let layout = model
        .plan_rank(
            ParallelTopology::tensor_parallel(16),
            3,
            ShardingPolicy::ReplicateUnsupported,
        )
        .unwrap();
    assert_eq!(layout.policy(), ShardingPolicy::ReplicateUnsupported);
    let q = layout.tensor(Q).unwrap();
    assert!(q.fell_back_to_replication());
    assert_eq!(q.placement(), TensorPlacement::Replicated);
    assert_eq!(q.local_shape(), [4096, 4096]);
    assert_eq!(q.logical_units(), Some(8));
    assert_eq!(q.logical_range(), Some(0..8));
    assert_eq!(layout.totals().local_bytes, GLOBAL);
}

#[test]
fn topology_errors_come_before_planning() {
    let model = model();
    let zero = model
        .plan_rank(
            ParallelTopology::new(2, 0, 1, 1),
            0,
            ShardingPolicy::Require,
        )
        .unwrap_err();
    assert_eq!(zero.code(), ErrorCode::ZeroAxis);
    assert_eq!(
        zero.to_string(),
        "error[EREDU_E_ZERO_AXIS] 200: parallel topology axis sizes must be positive"
    );

    let overflow = ParallelTopology::new(1 << 32, 1 << 32, 1, 1);
    assert_eq!(overflow.world_size(), None);
    let error = model
        .plan_rank(overflow, 0, ShardingPolicy::Require)
        .unwrap_err();
    assert_eq!(error.code(), ErrorCode::WorldSizeOverflow);

    let error = model
        .plan_rank(
            ParallelTopology::tensor_parallel(2),
            2,
            ShardingPolicy::Require,
        )
        .unwrap_err();
    assert_eq!(error.code(), ErrorCode::RankOutOfRange);
    assert_eq!(error.status(), 202);

    let error = model
        .plan_rank(
            ParallelTopology::new(1, 2, 1, 1),
            0,
            ShardingPolicy::Require,
        )
        .unwrap_err();
    assert_eq!(error.code(), ErrorCode::MissingLayerCount);

    let error = model
        .plan_rank(
            ParallelTopology::tensor_parallel(2),
            0,
            ShardingPolicy::Unknown(7),
        )
        .unwrap_err();
    assert_eq!(error.code(), ErrorCode::InvalidArgument);
    assert_eq!(error.name(), "EREDU_E_INVALID_ARGUMENT");
}

#[test]
fn fused_qkv_segments_select_index_runs() {
    let segments = vec![0..4, 4..8, 8..12];
    let group = ParameterGroupSpec::partitioned(
        "fused",
        ParameterRole::AttentionHeads,
        2,
        [ParameterMemberSpec::new(
            "qkv.weight",
            [12, 8],
            MemberSharding::PartitionedSegments {
                axis: 0,
                segments: segments.clone(),
            },
        )
        .with_dtype(Dtype::F16)],
    )
    .unwrap();
    assert_eq!(
        group.members().unwrap()[0].sharding(),
        &MemberSharding::PartitionedSegments { axis: 0, segments }
    );
    let model = ModelDescription::from_groups(&[group]).unwrap();
    let layout = model
        .plan_rank(
            ParallelTopology::tensor_parallel(2),
            1,
            ShardingPolicy::Require,
        )
        .unwrap();
    let qkv = layout.tensor("qkv.weight").unwrap();
    assert_eq!(qkv.local_shape(), [6, 8]);
    assert_eq!(qkv.local_bytes(), Some(96));
    assert_eq!(qkv.logical_range(), Some(1..2));
    let TensorPlacement::Indices { axis, indices } = qkv.placement() else {
        panic!("expected an index selection, got {:?}", qkv.placement());
    };
    assert_eq!(axis, 0);
    assert_eq!(indices.len(), 6);
    assert!(!indices.is_empty());
    assert_eq!(indices.runs().collect::<Vec<_>>(), [2..4, 6..8, 10..12]);
    assert_eq!(indices.to_vec(), [2, 3, 6, 7, 10, 11]);
}

#[test]
fn scopes_omit_the_tensors_of_other_stages() {
    let layer = |index: u64| {
        ParameterGroupSpec::scoped(
            format!("layers.{index}.mlp"),
            ParameterRole::FeedForwardIntermediate,
            None,
            GroupScope::Indexed {
                layer: Some(index),
                expert: None,
            },
            [ParameterMemberSpec::new(
                format!("layers.{index}.mlp.up.weight"),
                [64, 16],
                MemberSharding::Equal { axis: 0 },
            )
            .with_dtype(Dtype::BF16)],
        )
        .unwrap()
    };
    let embed = ParameterGroupSpec::scoped(
        "embed",
        ParameterRole::Vocabulary,
        None,
        GroupScope::Embedding,
        [ParameterMemberSpec::new(
            "embed.weight",
            [100, 16],
            MemberSharding::Balanced { axis: 0 },
        )],
    )
    .unwrap();
    let info = ModelInfo {
        name: Some("tiny".into()),
        layers: Some(2),
        experts: None,
    };
    let model =
        ModelDescription::from_groups_with_info(&info, &[embed, layer(0), layer(1)]).unwrap();

    // TP 2 x PP 2: rank 3 is tensor 1 of stage 1 (layer 1).
    let layout = model
        .plan_rank(
            ParallelTopology::new(2, 2, 1, 1),
            3,
            ShardingPolicy::Require,
        )
        .unwrap();
    assert_eq!(layout.coordinates().pipeline, 1);
    let embed = layout.tensor("embed.weight").unwrap();
    assert_eq!(embed.placement(), TensorPlacement::Omit);
    assert_eq!(embed.local_shape(), [] as [u64; 0]);
    assert_eq!(embed.local_bytes(), Some(0));
    assert_eq!(embed.dtype(), None);
    let up0 = layout.tensor("layers.0.mlp.up.weight").unwrap();
    assert_eq!(up0.placement(), TensorPlacement::Omit);
    let up1 = layout.tensor("layers.1.mlp.up.weight").unwrap();
    assert_eq!(
        up1.placement(),
        TensorPlacement::Shard {
            axis: 0,
            index: 1,
            parts: 2
        }
    );
    assert_eq!(up1.local_shape(), [32, 16]);
    assert_eq!(
        layout.totals(),
        LayoutTotals {
            local_bytes: 32 * 16 * 2,
            global_bytes: 2 * 64 * 16 * 2,
            materialized_tensors: 1,
            omitted_tensors: 2,
            unknown_bytes_tensors: 1,
        }
    );

    // Rank 0 (stage 0, tensor 0) owns the embedding: balanced 100 rows / 2.
    let layout = model
        .plan_rank(
            ParallelTopology::new(2, 2, 1, 1),
            0,
            ShardingPolicy::Require,
        )
        .unwrap();
    let embed = layout.tensor("embed.weight").unwrap();
    assert_eq!(
        embed.placement(),
        TensorPlacement::Range {
            axis: 0,
            start: 0,
            end: 50
        }
    );
    assert_eq!(embed.local_bytes(), None);
}

#[test]
fn json_descriptions_load_and_plan_like_built_ones() {
    let text = r#"{"schema":"eredu.groups.v1","groups":[
        {"name":"mlp","role":"feed_forward_intermediate","partition_units":4,"members":[
          {"target":"up.weight","shape":[8,4],"dtype":"F32","sharding":{"kind":"partitioned","axis":0}},
          {"target":"down.weight","shape":[4,8],"dtype":"F32","sharding":{"kind":"partitioned","axis":1}}]}]}"#;
    let loaded = ModelDescription::from_json(text).unwrap();
    let built = ModelDescription::from_groups(&[ParameterGroupSpec::partitioned(
        "mlp",
        ParameterRole::FeedForwardIntermediate,
        4,
        [
            ParameterMemberSpec::new("up.weight", [8, 4], MemberSharding::Partitioned { axis: 0 })
                .with_dtype(Dtype::F32),
            ParameterMemberSpec::new(
                "down.weight",
                [4, 8],
                MemberSharding::Partitioned { axis: 1 },
            )
            .with_dtype(Dtype::F32),
        ],
    )
    .unwrap()])
    .unwrap();
    let topology = ParallelTopology::tensor_parallel(2);
    let a = loaded
        .plan_rank(topology, 1, ShardingPolicy::Require)
        .unwrap();
    let b = built
        .plan_rank(topology, 1, ShardingPolicy::Require)
        .unwrap();
    let json = a.to_json().unwrap();
    assert_eq!(json, b.to_json().unwrap());
    assert_eq!(
        json,
        concat!(
            r#"{"schema":"eredu.layout.v1","topology":{"tensor":2,"pipeline":1,"expert":1,"data":1},"#,
            r#""rank":1,"coordinates":{"tensor":1,"pipeline":0,"expert":0,"data":0},"policy":"require","#,
            r#""tensors":[{"target":"down.weight","logical_name":"mlp","role":"feed_forward_intermediate","#,
            r#""global_shape":[4,8],"local_shape":[4,4],"placement":{"kind":"range","axis":1,"start":4,"end":8},"#,
            r#""logical_units":4,"logical_range":[2,4],"fell_back_to_replication":false,"local_bytes":64},"#,
            r#"{"target":"up.weight","logical_name":"mlp","role":"feed_forward_intermediate","#,
            r#""global_shape":[8,4],"local_shape":[4,4],"placement":{"kind":"range","axis":0,"start":4,"end":8},"#,
            r#""logical_units":4,"logical_range":[2,4],"fell_back_to_replication":false,"local_bytes":64}],"#,
            r#""totals":{"local_bytes":128,"global_bytes":256,"materialized_tensors":2,"omitted_tensors":0}}"#,
            "\n"
        )
    );
}

#[test]
fn an_empty_description_plans_an_empty_layout() {
    let model = ModelDescription::from_groups(&[]).unwrap();
    let layout = model
        .plan_rank(ParallelTopology::default(), 0, ShardingPolicy::default())
        .unwrap();
    assert!(layout.is_empty());
    assert_eq!(layout.tensors().len(), 0);
    assert_eq!(layout.totals(), LayoutTotals::default());
}
