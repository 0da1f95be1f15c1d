// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

//! Pipeline stages of chosen sizes (`eredu_plan_options.pipeline_layers`,
//! docs/planning.md): [`PlanOptions::with_pipeline_layers`] reaches
//! `plan_rank`, `plan_world_json` and `check_json`, the JSON topology carries
//! the counts, and counts that do not fit are `InvalidArgument` with the
//! library's message.

use std::path::Path;

use eredu::{
    check_json, plan_rank, plan_world_json, CheckOptions, ErrorCode, LayoutTotals,
    ModelDescription, ParallelTopology, PlanOptions, TensorPlacement,
};

/// The seed model tests/vectors/inputs/seed/tiny_moe.groups.json: 4
/// decoder layers of 12 tensors each, 54 tensors in all.
fn tiny_moe() -> ModelDescription {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../tests/vectors/inputs/seed/tiny_moe.groups.json");
    let bytes = std::fs::read(&path)
        .unwrap_or_else(|error| panic!("cannot read {}: {error}", path.display()));
    ModelDescription::from_json(bytes).unwrap()
}

const PP2: ParallelTopology = ParallelTopology::new(1, 2, 1, 1);
const PP3: ParallelTopology = ParallelTopology::new(1, 3, 1, 1);

/// The decoder layer of a tiny_moe target (`layers.<n>.…`), if any.
fn layer_of(target: &str) -> Option<u64> {
    target
        .strip_prefix("layers.")?
        .split('.')
        .next()?
        .parse()
        .ok()
}

#[test]
fn the_options_hold_the_counts() {
    let options = PlanOptions::new();
    assert_eq!(options.pipeline_layers(), [] as [u64; 0]);
    let options = PlanOptions::new().with_pipeline_layers([1, 3]);
    assert_eq!(options.pipeline_layers(), [1, 3]);
    assert_eq!(
        format!("{options:?}"),
        "PlanOptions { policy: Require, threads: 0, progress: false, pipeline_layers: [1, 3] }"
    );
    let counts = vec![19, 21, 21, 19];
    let options = PlanOptions::new().with_pipeline_layers(counts.as_slice());
    assert_eq!(options.pipeline_layers(), counts);
    let options = PlanOptions::new().with_pipeline_layers(counts);
    assert_eq!(options.pipeline_layers(), [19, 21, 21, 19]);
}

#[test]
fn a_world_of_chosen_stages_carries_the_counts() {
    let model = tiny_moe();
    let text =
        plan_world_json(&model, PP2, PlanOptions::new().with_pipeline_layers([1, 3])).unwrap();
    assert!(
        text.starts_with(
            r#"{"schema":"eredu.world.v1","topology":{"tensor":1,"pipeline":2,"expert":1,"data":1,"pipeline_layers":[1,3]},"#
        ),
        "{text}"
    );
    assert!(text.contains(
        r#"{"rank":0,"coordinates":{"tensor":0,"pipeline":0,"expert":0,"data":0},"totals":{"local_bytes":13504,"global_bytes":43712,"materialized_tensors":17,"omitted_tensors":37}"#
    ));
    assert!(text.contains(
        r#"{"rank":1,"coordinates":{"tensor":0,"pipeline":1,"expert":0,"data":0},"totals":{"local_bytes":33664,"global_bytes":43712,"materialized_tensors":42,"omitted_tensors":12}"#
    ));
    assert!(text.ends_with("\"coverage\":{\"ok\":true,\"tensors\":54,\"problems\":[]}}\n"));

    // The balanced split (2, 2) carries no counts; an empty list is it.
    let balanced = plan_world_json(&model, PP2, PlanOptions::new()).unwrap();
    assert!(balanced.starts_with(
        r#"{"schema":"eredu.world.v1","topology":{"tensor":1,"pipeline":2,"expert":1,"data":1},"#
    ));
    let empty = plan_world_json(&model, PP2, PlanOptions::new().with_pipeline_layers([])).unwrap();
    assert_eq!(empty, balanced);

    // The same bytes on the calling thread only.
    let single = plan_world_json(
        &model,
        PP2,
        PlanOptions::new()
            .with_threads(1)
            .with_pipeline_layers([1, 3]),
    )
    .unwrap();
    assert_eq!(single, text);
}

#[test]
fn rank_one_of_stages_one_and_three_holds_layers_one_to_three() {
    let model = tiny_moe();
    let layout = plan_rank(
        &model,
        PP2,
        1,
        PlanOptions::new().with_pipeline_layers([1, 3]),
    )
    .unwrap();
    assert_eq!(layout.coordinates().pipeline, 1);
    assert_eq!(
        layout.totals(),
        LayoutTotals {
            local_bytes: 33664,
            global_bytes: 43712,
            materialized_tensors: 42,
            omitted_tensors: 12,
            unknown_bytes_tensors: 0,
        }
    );
    let mut per_layer = [(0, 0); 4]; // (omitted, held) per decoder layer
    for (target, tensor) in layout.tensors() {
        if let Some(layer) = layer_of(target) {
            let counts = &mut per_layer[usize::try_from(layer).unwrap()];
            if tensor.placement() == TensorPlacement::Omit {
                counts.0 += 1;
            } else {
                counts.1 += 1;
            }
        }
    }
    assert_eq!(per_layer, [(12, 0), (0, 12), (0, 12), (0, 12)]);
    let q = layout.tensor("layers.0.self_attn.qkv_proj.weight").unwrap();
    assert_eq!(q.placement(), TensorPlacement::Omit);
    assert_eq!(q.local_bytes(), Some(0));
    let q = layout.tensor("layers.1.self_attn.qkv_proj.weight").unwrap();
    assert_ne!(q.placement(), TensorPlacement::Omit);
    assert_eq!(q.local_shape(), [32, 16]);
    assert_eq!(q.local_bytes(), Some(32 * 16 * 2));
    assert!(layout.to_json().unwrap().starts_with(
        r#"{"schema":"eredu.layout.v1","topology":{"tensor":1,"pipeline":2,"expert":1,"data":1,"pipeline_layers":[1,3]},"rank":1,"#
    ));

    // Balanced, rank 1 is stage 1 of (2, 2): layer 1 is omitted.
    let balanced = plan_rank(&model, PP2, 1, PlanOptions::new()).unwrap();
    assert_eq!(
        balanced
            .tensor("layers.1.self_attn.qkv_proj.weight")
            .unwrap()
            .placement(),
        TensorPlacement::Omit
    );
}

#[test]
fn a_check_of_chosen_stages_carries_the_counts() {
    let model = tiny_moe();
    let text = check_json(
        &model,
        PP2,
        PlanOptions::new().with_pipeline_layers([3, 1]),
        &CheckOptions::default(),
    )
    .unwrap();
    assert!(
        text.contains(
            r#""topology":{"tensor":1,"pipeline":2,"expert":1,"data":1,"pipeline_layers":[3,1]}"#
        ),
        "{text}"
    );
}

/// Every planning call refuses `counts` at `topology` with `message`.
fn refused(topology: ParallelTopology, counts: &[u64], message: &str) {
    let model = tiny_moe();
    let options = || PlanOptions::new().with_pipeline_layers(counts);
    let errors = [
        plan_rank(&model, topology, 0, options()).unwrap_err(),
        plan_world_json(&model, topology, options()).unwrap_err(),
        check_json(&model, topology, options(), &CheckOptions::default()).unwrap_err(),
    ];
    for error in errors {
        assert_eq!(error.code(), ErrorCode::InvalidArgument);
        assert_eq!(error.name(), "EREDU_E_INVALID_ARGUMENT");
        assert_eq!(error.status(), 2);
        assert_eq!(error.message(), message);
    }
}

#[test]
fn counts_that_do_not_sum_to_the_model_layers_are_refused() {
    refused(
        PP2,
        &[2, 3],
        "pipeline layers 2, 3 sum to 5, not the model's 4 decoder layers",
    );
    let error = plan_world_json(
        &tiny_moe(),
        PP2,
        PlanOptions::new().with_pipeline_layers([2, 3]),
    )
    .unwrap_err();
    assert_eq!(
        error.to_string(),
        "error[EREDU_E_INVALID_ARGUMENT] 2: pipeline layers 2, 3 sum to 5, not the model's 4 decoder layers"
    );
}

#[test]
fn one_count_per_stage_at_least_one_each_without_overflow() {
    refused(
        PP3,
        &[2, 2],
        "pipeline layers: 2 counts for 3 pipeline stages; give one per stage",
    );
    refused(
        ParallelTopology::new(1, 1, 1, 1),
        &[2, 2],
        "pipeline layers: 2 counts for 1 pipeline stage; give one per stage",
    );
    refused(
        PP2,
        &[4, 0],
        "pipeline layers: stage 1 has 0 layers; every stage needs at least one",
    );
    refused(
        PP2,
        &[u64::MAX, 1],
        "pipeline layers: the sum overflows 64 bits",
    );
}
