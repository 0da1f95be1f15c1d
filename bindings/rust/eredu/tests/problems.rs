// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

//! Every violation in one run: a planning failure lists each problem (the
//! groups in document order, then the topology preflight) through
//! [`Error::problems`], while the code and message stay the first problem a
//! stopping planner reported; any other error is its own single problem.

use std::path::Path;

use eredu::{ErrorCode, ModelDescription, ParallelTopology, ShardingPolicy};

/// The seed model tests/vectors/inputs/seed/tiny_moe.groups.json.
fn tiny_moe() -> ModelDescription {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../tests/vectors/inputs/seed/tiny_moe.groups.json");
    let bytes = std::fs::read(&path)
        .unwrap_or_else(|error| panic!("cannot read {}: {error}", path.display()));
    ModelDescription::from_json(bytes).unwrap()
}

const PREFLIGHT: &str =
    "4 decoder layers cannot be split over 8 pipeline stages; pipeline sizes from 1 to 4 work";

#[test]
fn a_planning_failure_lists_every_problem() {
    let error = tiny_moe()
        .plan_rank(
            ParallelTopology::new(16, 8, 1, 1),
            0,
            ShardingPolicy::Require,
        )
        .unwrap_err();
    assert_eq!(error.code(), ErrorCode::EmptyPartition);
    assert_eq!(error.status(), 209);
    assert_eq!(error.message(), PREFLIGHT);

    let problems = error.problems();
    assert_eq!(problems.len(), 21);
    let first = &problems[0];
    assert_eq!(first.code(), ErrorCode::InvalidTensor);
    assert_eq!(first.status(), 101);
    assert_eq!(first.name(), "EREDU_E_INVALID_TENSOR");
    assert_eq!(first.group(), Some("layers.0.self_attn"));
    assert_eq!(first.tensor(), None);
    assert_eq!(
        first.message(),
        "logical parameter \"layers.0.self_attn\": 2 partition units — declared by the group \
         — cannot be split 16 ways; tensor sizes up to 64 that work for this group: 1, 2"
    );
    assert_eq!(problems[1].group(), Some("layers.0.experts.0.mlp"));
    assert!(problems[..20]
        .iter()
        .all(|problem| problem.code() == ErrorCode::InvalidTensor && problem.group().is_some()));

    let last = problems.last().unwrap();
    assert_eq!(last.code(), ErrorCode::EmptyPartition);
    assert_eq!(last.name(), "EREDU_E_EMPTY_PARTITION");
    assert_eq!(last.group(), None);
    assert_eq!(last.tensor(), None);
    assert_eq!(last.message(), error.message());

    // The copy outlives the error object it was read from.
    let cloned = error.clone();
    drop(error);
    assert_eq!(cloned.problems().len(), 21);
}

#[test]
fn any_other_error_is_its_own_single_problem() {
    let error = tiny_moe()
        .plan_rank(
            ParallelTopology::tensor_parallel(2),
            2,
            ShardingPolicy::Require,
        )
        .unwrap_err();
    assert_eq!(error.code(), ErrorCode::RankOutOfRange);
    let [problem] = error.problems() else {
        panic!("one problem expected, got {:?}", error.problems());
    };
    assert_eq!(problem.code(), error.code());
    assert_eq!(problem.status(), error.status());
    assert_eq!(problem.name(), error.name());
    assert_eq!(problem.message(), error.message());
    assert_eq!(problem.group(), None);
    assert_eq!(problem.tensor(), None);

    // A load error, too.
    let error = ModelDescription::from_json(b"{").unwrap_err();
    assert_eq!(error.problems().len(), 1);
    assert_eq!(error.problems()[0].message(), error.message());
    assert_eq!(error.problems()[0].code(), error.code());
}
