// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

//! Which sizes work (`eredu_fit_json`, docs/interchange.md `eredu.fit.v1`):
//! the exact text for the two-layer model of tests/capi/test_fit.cpp, the
//! refusal of pipeline layers and of a largest world of 0, cancellation
//! through the progress callback, and the defaults of `FitOptions`.

use std::ops::ControlFlow;

use eredu::{
    fit_json, sys, CheckOptions, ErrorCode, FitOptions, ModelDescription, PlanOptions,
    ShardingPolicy,
};

/// Two layers of 64 F32 bytes each and an embedding of 32 bytes.
const TWO_LAYERS: &str = concat!(
    r#"{"schema":"eredu.groups.v1","model":{"name":"two","layers":2},"groups":["#,
    r#"{"name":"embed","role":"vocabulary","scope":"embedding","members":["#,
    r#"{"target":"embed","shape":[8,1],"dtype":"F32","sharding":{"kind":"balanced","axis":0}}]},"#,
    r#"{"name":"l0","role":"replicated","scope":{"layer":0},"members":["#,
    r#"{"target":"l0","shape":[16],"dtype":"F32","sharding":{"kind":"replicated"}}]},"#,
    r#"{"name":"l1","role":"replicated","scope":{"layer":1},"members":["#,
    r#"{"target":"l1","shape":[16],"dtype":"F32","sharding":{"kind":"replicated"}}]}]}"#,
);

/// The eredu.fit.v1 text of TWO_LAYERS up to world 2 with a 100-byte
/// device budget (tests/capi/test_fit.cpp).
const FIT_TWO_BUDGET_100: &str = concat!(
    r#"{"schema":"eredu.fit.v1","model":{"name":"two","tensors":3,"global_bytes":160},"#,
    r#""policy":"require","residency":{"kind":"fully_resident","device_budget_bytes":100,"#,
    r#""host_budget_bytes":null,"prefetch_depth":1,"host_lookahead":0},"max_world":2,"#,
    r#""topologies":["#,
    r#"{"tp":1,"pp":1,"ep":1,"world":1,"plans":true,"fits":false,"device_peak_bytes":160},"#,
    r#"{"tp":1,"pp":1,"ep":2,"world":2,"plans":false,"fits":false,"#,
    r#""error":"EREDU_E_MISSING_EXPERT_COUNT","#,
    r#""message":"expert topology preflight requires the routed-expert count"},"#,
    r#"{"tp":1,"pp":2,"ep":1,"world":2,"plans":true,"fits":true,"device_peak_bytes":96},"#,
    r#"{"tp":2,"pp":1,"ep":1,"world":2,"plans":true,"fits":false,"device_peak_bytes":144}],"#,
    r#""smallest_fitting_world":2}"#,
    "\n",
);

fn two_layers() -> ModelDescription {
    ModelDescription::from_json(TWO_LAYERS).unwrap()
}

const BUDGET_100: CheckOptions<'static> = CheckOptions {
    residency_json: None,
    device_budget_bytes: Some(100),
};

#[test]
fn every_topology_up_to_the_world_with_the_smallest_fitting_one() {
    let model = two_layers();
    let text = fit_json(
        &model,
        PlanOptions::new(),
        &BUDGET_100,
        &FitOptions { max_world: 2 },
    )
    .unwrap();
    assert_eq!(text, FIT_TWO_BUDGET_100);

    // A policy alone is the options; the text does not depend on threads.
    let short = fit_json(
        &model,
        ShardingPolicy::Require,
        &BUDGET_100,
        &FitOptions::with_max_world(2),
    )
    .unwrap();
    assert_eq!(short, FIT_TWO_BUDGET_100);
    let single = fit_json(
        &model,
        PlanOptions::new().with_threads(1),
        &BUDGET_100,
        &FitOptions::with_max_world(2),
    )
    .unwrap();
    assert_eq!(single, FIT_TWO_BUDGET_100);

    // Unbounded, the single rank fits: the smallest fitting world is 1.
    let unbounded = fit_json(
        &model,
        PlanOptions::new(),
        &CheckOptions::default(),
        &FitOptions::with_max_world(1),
    )
    .unwrap();
    assert!(
        unbounded.ends_with(concat!(
            r#""topologies":[{"tp":1,"pp":1,"ep":1,"world":1,"plans":true,"fits":true,"#,
            r#""device_peak_bytes":160}],"smallest_fitting_world":1}"#,
            "\n"
        )),
        "{unbounded}"
    );
}

#[test]
fn pipeline_layers_are_refused() {
    let error = fit_json(
        &two_layers(),
        PlanOptions::new().with_pipeline_layers([2]),
        &CheckOptions::default(),
        &FitOptions::default(),
    )
    .unwrap_err();
    assert_eq!(error.code(), ErrorCode::InvalidArgument);
    assert_eq!(error.name(), "EREDU_E_INVALID_ARGUMENT");
    assert_eq!(
        error.message(),
        "options->pipeline_layers must be empty: fit searches every pipeline size"
    );
}

#[test]
fn a_largest_world_of_zero_is_refused() {
    let error = fit_json(
        &two_layers(),
        PlanOptions::new(),
        &CheckOptions::default(),
        &FitOptions::with_max_world(0),
    )
    .unwrap_err();
    assert_eq!(error.code(), ErrorCode::InvalidArgument);
    assert_eq!(
        error.message(),
        "the largest world must be from 1 to 1024, got 0"
    );
    let error = fit_json(
        &two_layers(),
        PlanOptions::new(),
        &CheckOptions::default(),
        &FitOptions::with_max_world(1025),
    )
    .unwrap_err();
    assert_eq!(error.code(), ErrorCode::InvalidArgument);
}

#[test]
fn a_residency_document_is_judged_as_for_check_json() {
    let error = fit_json(
        &two_layers(),
        PlanOptions::new(),
        &CheckOptions {
            residency_json: Some(b""),
            device_budget_bytes: None,
        },
        &FitOptions::default(),
    )
    .unwrap_err();
    assert_eq!(error.code(), ErrorCode::Parse);
}

#[test]
fn the_progress_callback_cancels_after_two_topologies() {
    let mut total = 0;
    let mut calls = 0;
    let error = fit_json(
        &two_layers(),
        PlanOptions::new().with_progress(|done, all| {
            calls += 1;
            total = all;
            if done >= 2 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        }),
        &CheckOptions::default(),
        &FitOptions::with_max_world(4),
    )
    .unwrap_err();
    assert_eq!(error.code(), ErrorCode::Cancelled);
    assert_eq!(error.name(), "EREDU_E_CANCELLED");
    assert_eq!(
        error.message(),
        "cancelled by the progress callback after 2 of 13 topologies"
    );
    assert_eq!(total, 1 + 3 + 3 + 6);
    assert_eq!(calls, 2);
}

#[test]
fn the_default_equals_the_c_init_function() {
    assert_eq!(FitOptions::default().max_world, 64);
    assert_eq!(FitOptions::DEFAULT_MAX_WORLD, 64);
    // SAFETY: _init fills the whole struct; the pointers are valid.
    let raw = unsafe {
        let mut raw = std::mem::MaybeUninit::<sys::eredu_fit_options>::zeroed().assume_init();
        assert_eq!(
            sys::eredu_fit_options_init(
                &mut raw,
                std::mem::size_of::<sys::eredu_fit_options>(),
                std::ptr::null_mut()
            ),
            0
        );
        raw
    };
    assert_eq!(raw.max_world, FitOptions::default().max_world);
}
