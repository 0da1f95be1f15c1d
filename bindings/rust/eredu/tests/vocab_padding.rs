// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

//! Vocabulary padding through the safe API (docs/planning.md, "Vocabulary
//! padding"): a head of a replicated norm [4] and an 11-row BF16 lm_head
//! padded to a multiple of 2; at TP 8 the rows are padded to 16, 2 per rank,
//! and the last ranks allocate rows past the checkpoint's. The misuse the
//! library rejects.

use eredu::{
    Dtype, ErrorCode, GroupScope, MemberSharding, ModelDescription, ParallelTopology,
    ParameterGroupSpec, ParameterMemberSpec, ShardingPolicy, TensorPlacement,
};

fn members() -> [ParameterMemberSpec; 2] {
    [
        ParameterMemberSpec::new("norm", [4], MemberSharding::Replicated).with_dtype(Dtype::BF16),
        ParameterMemberSpec::new("lm_head", [11, 4], MemberSharding::Balanced { axis: 0 })
            .with_dtype(Dtype::BF16),
    ]
}

fn head(multiple: u64) -> eredu::Result<ParameterGroupSpec> {
    ParameterGroupSpec::padded_vocabulary("head", multiple, GroupScope::OutputHead, members())
}

#[test]
fn the_multiple_reads_back() {
    let group = head(2).unwrap();
    assert_eq!(group.vocab_pad_multiple(), Some(2));
    assert_eq!(group.role(), eredu::ParameterRole::Vocabulary);
    assert_eq!(group.partition_units(), None);
    assert_eq!(group.members().unwrap(), members());
    assert!(format!("{group:?}").contains("vocab_pad_multiple: Some(2)"));

    let plain =
        ParameterGroupSpec::new("head", eredu::ParameterRole::Vocabulary, members()).unwrap();
    assert_eq!(plain.vocab_pad_multiple(), None);
}

#[test]
fn tp8_allocates_two_rows_per_rank_and_reads_the_eleven() {
    let model = ModelDescription::from_groups(&[head(2).unwrap()]).unwrap();
    // (rank, rows read [start, end), padding rows): P = 16, 2 per rank.
    for (rank, start, end, padding) in [(0u64, 0u64, 2u64, 0u64), (5, 10, 11, 1), (7, 11, 11, 2)] {
        let layout = model
            .plan_rank(
                ParallelTopology::tensor_parallel(8),
                rank,
                ShardingPolicy::Require,
            )
            .unwrap();
        let entry = layout.tensor("lm_head").unwrap();
        assert_eq!(
            entry.placement(),
            TensorPlacement::Range {
                axis: 0,
                start,
                end
            },
            "rank {rank}"
        );
        assert_eq!(entry.local_shape(), [2, 4]);
        assert_eq!(entry.padding_rows(), padding);
        assert_eq!(entry.local_bytes(), Some(16));
        assert_eq!(layout.tensor("norm").unwrap().padding_rows(), 0);
        let json = layout.to_json().unwrap();
        assert_eq!(
            json.matches("padding_rows").count(),
            usize::from(padding > 0),
            "{json}"
        );
    }
}

#[test]
fn a_zero_multiple_is_an_invalid_group() {
    let error = head(0).unwrap_err();
    assert_eq!(error.code(), ErrorCode::InvalidGroup);
    assert_eq!(error.status(), 100);
    assert_eq!(
        error.message(),
        "parallel parameter group \"head\": vocab_pad_multiple must be at least 1"
    );

    let error = ParameterGroupSpec::padded_vocabulary(
        "head",
        2,
        GroupScope::OutputHead,
        [ParameterMemberSpec::new(
            "norm",
            [4],
            MemberSharding::Replicated,
        )],
    )
    .unwrap_err();
    assert_eq!(error.code(), ErrorCode::InvalidGroup);
    assert_eq!(
        error.message(),
        "parallel parameter group \"head\": vocab_pad_multiple needs a balanced member"
    );
}
