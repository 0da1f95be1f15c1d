// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

//! KV-head replication through the safe API (docs/planning.md): a
//! grouped-query group of 2 KV heads and 8 query heads (head width 2), its
//! query units and per-KV-head member read back, planned at TP 4 (each KV
//! head held whole by 2 tensor ranks) and refused at TP 3; the misuse the
//! library rejects.

use eredu::{
    ErrorCode, GroupScope, MemberSharding, ModelDescription, ParallelTopology, ParameterGroupSpec,
    ParameterMemberSpec, ParameterRole, ShardingPolicy, TensorPlacement,
};

fn q() -> ParameterMemberSpec {
    ParameterMemberSpec::new("q", [16, 4], MemberSharding::Partitioned { axis: 0 })
}

fn k() -> ParameterMemberSpec {
    ParameterMemberSpec::new("k", [4, 4], MemberSharding::Partitioned { axis: 0 })
        .with_per_kv_head()
}

fn attention() -> ParameterGroupSpec {
    ParameterGroupSpec::grouped_query(
        "attn",
        ParameterRole::AttentionHeads,
        2,
        8,
        GroupScope::All,
        [q(), k()],
    )
    .unwrap()
}

#[test]
fn query_units_and_per_kv_head_read_back() {
    let group = attention();
    assert_eq!(group.partition_units(), Some(2));
    assert_eq!(group.query_units(), Some(8));
    assert_eq!(group.scope(), GroupScope::All);
    let members = group.members().unwrap();
    assert_eq!(members, [q(), k()]);
    assert!(!members[0].per_kv_head());
    assert!(members[1].per_kv_head());
    assert!(k().per_kv_head());

    // A group without query units reports none.
    let plain =
        ParameterGroupSpec::partitioned("attn", ParameterRole::AttentionHeads, 2, [q()]).unwrap();
    assert_eq!(plain.query_units(), None);
    assert!(!plain.members().unwrap()[0].per_kv_head());
}

#[test]
fn each_kv_head_is_held_whole_by_two_ranks_at_tp4() {
    let model = ModelDescription::from_groups(&[attention()]).unwrap();
    for rank in [1u64, 2] {
        let layout = model
            .plan_rank(
                ParallelTopology::tensor_parallel(4),
                rank,
                ShardingPolicy::Require,
            )
            .unwrap();
        let head = rank / 2;
        let k = layout.tensor("k").unwrap();
        assert_eq!(
            k.placement(),
            TensorPlacement::Range {
                axis: 0,
                start: 2 * head,
                end: 2 * head + 2
            }
        );
        assert_eq!(k.local_shape(), [2, 4]);
        assert_eq!(k.kv_head_copies(), 2);
        assert_eq!(k.logical_units(), Some(2));
        assert_eq!(k.logical_range(), Some(head..head + 1));
        assert!(!k.fell_back_to_replication());

        let q = layout.tensor("q").unwrap();
        assert_eq!(
            q.placement(),
            TensorPlacement::Range {
                axis: 0,
                start: 4 * rank,
                end: 4 * rank + 4
            }
        );
        assert_eq!(q.local_shape(), [4, 4]);
        assert_eq!(q.kv_head_copies(), 1);
        assert_eq!(q.logical_range(), Some(head..head + 1));

        let json = layout.to_json().unwrap();
        assert!(json.contains("\"fell_back_to_replication\":false,\"kv_head_copies\":2"));
        assert_eq!(json.matches("kv_head_copies").count(), 1, "{json}");
    }

    // At T <= H nothing is replicated: one copy each.
    let layout = model
        .plan_rank(
            ParallelTopology::tensor_parallel(2),
            1,
            ShardingPolicy::Require,
        )
        .unwrap();
    let k = layout.tensor("k").unwrap();
    assert_eq!(
        k.placement(),
        TensorPlacement::Range {
            axis: 0,
            start: 2,
            end: 4
        }
    );
    assert_eq!(k.kv_head_copies(), 1);
}

#[test]
fn tp3_cannot_replicate_the_kv_heads() {
    let model = ModelDescription::from_groups(&[attention()]).unwrap();
    let error = model
        .plan_rank(
            ParallelTopology::tensor_parallel(3),
            0,
            ShardingPolicy::Require,
        )
        .unwrap_err();
    assert_eq!(error.code(), ErrorCode::InvalidTensor);
    assert_eq!(error.status(), 101);
    assert_eq!(error.name(), "EREDU_E_INVALID_TENSOR");
    assert_eq!(
        error.message(),
        "logical parameter \"attn\": 2 KV heads and 8 query heads cannot be split 3 ways: KV \
         heads are replicated only at a multiple of 2 that divides 8; tensor sizes up to 64 that \
         work for this group: 1, 2, 4, 8"
    );
}

#[test]
fn per_kv_head_needs_query_units_and_query_units_a_multiple() {
    let error =
        ParameterGroupSpec::partitioned("attn", ParameterRole::AttentionHeads, 2, [q(), k()])
            .unwrap_err();
    assert_eq!(error.code(), ErrorCode::InvalidGroup);
    assert_eq!(error.status(), 100);
    assert_eq!(
        error.message(),
        "parallel parameter group \"attn\": per_kv_head member \"k\" needs the group's query_units"
    );

    let error = ParameterGroupSpec::grouped_query(
        "attn",
        ParameterRole::AttentionHeads,
        2,
        7,
        GroupScope::All,
        [q(), k()],
    )
    .unwrap_err();
    assert_eq!(error.code(), ErrorCode::InvalidGroup);
}
